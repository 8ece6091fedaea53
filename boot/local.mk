## boot/local.mk -- included by the top-level Makefile.am (after EXTRA_DIST
## is first set).
##
## make check-guest: build Debian's linux-source-6.1 and linux-source-6.12,
## each stock and with its kernel/VERSION/series (and 6.12 with
## kernel/debug.config too), boot each in QEMU and run the splice
## kselftests, the ktee test suite and stress-ng inside; see
## boot/check-guest.  Kernel trees, builds and logs go to $KTEE_CACHE
## (default /var/cache/ktee), never to the source or build tree.  The output
## ends with the spurious zero counts of stock and patched kernels and the
## line "guest: N passed, N failed".

guest_scripts = \
	boot/build-kernel \
	boot/check-guest \
	boot/init \
	boot/mkinitramfs \
	boot/run-guest

EXTRA_DIST += \
	$(guest_scripts) \
	boot/guest-exit.c \
	kernel/guest.config \
	kernel/debug.config \
	kernel/6.1/series \
	kernel/6.1/0000-cover-letter.patch \
	kernel/6.1/0001-splice-don-t-let-tee-return-0-when-it-races-with-oth.patch \
	kernel/6.1/0002-splice-give-pipe-to-pipe-buffers-the-packet-mode-of-.patch \
	kernel/6.1/0003-selftests-splice-add-tee-2-tests.patch \
	kernel/6.1/0004-selftests-splice-test-the-packet-mode-of-spliced-and.patch \
	kernel/6.1/0005-splice-allow-splice-into-an-O_APPEND-file-without-an.patch \
	kernel/6.1/0006-selftests-splice-test-splice-into-O_APPEND-files.patch \
	kernel/6.12/series \
	kernel/6.12/0000-cover-letter.patch \
	kernel/6.12/0001-splice-don-t-let-tee-return-0-when-it-races-with-oth.patch \
	kernel/6.12/0002-splice-give-pipe-to-pipe-buffers-the-packet-mode-of-.patch \
	kernel/6.12/0003-selftests-splice-add-tee-2-tests.patch \
	kernel/6.12/0004-selftests-splice-test-the-packet-mode-of-spliced-and.patch \
	kernel/6.12/0005-splice-allow-splice-into-an-O_APPEND-file-without-an.patch \
	kernel/6.12/0006-selftests-splice-test-splice-into-O_APPEND-files.patch

.PHONY: check-guest
check-guest: src/ktee$(EXEEXT) $(check_PROGRAMS)
	bash $(top_srcdir)/boot/check-guest '$(abs_top_builddir)' '$(abs_top_srcdir)'
