## boot/local.mk -- included by the top-level Makefile.am (after EXTRA_DIST
## is first set).
##
## make check-guest: build Debian's linux-source-6.1 three times (stock,
## with kernel/series, and with kernel/debug.config too), boot each in QEMU
## and run the tee(2) kselftests and the ktee test suite inside; see
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
	kernel/series \
	kernel/guest.config \
	kernel/debug.config \
	kernel/0001-splice-don-t-let-tee-return-0-when-it-races-with-oth.patch \
	kernel/0002-selftests-splice-add-tee-2-tests.patch

.PHONY: check-guest
check-guest: src/ktee$(EXEEXT) $(check_PROGRAMS)
	bash $(top_srcdir)/boot/check-guest '$(abs_top_builddir)' '$(abs_top_srcdir)'
