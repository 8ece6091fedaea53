## boot/local.mk -- included by the top-level Makefile.am (after EXTRA_DIST
## is first set).
##
## make check-guest: fetch Debian's newest linux-source-7.x (experimental
## or unstable, through a private sources list), build it and Debian's
## linux-source-6.1 and linux-source-6.12, each stock and with its
## kernel/VERSION/series, boot each in QEMU and run the splice kselftests,
## stress-ng and the ktee test suite inside (the whole suite on the patched
## mainline kernel); see boot/check-guest.  Kernel trees, builds and logs
## go to $KTEE_CACHE (default /var/cache/ktee), never to the source or
## build tree.  The output ends with the spurious zero counts of stock and
## patched kernels and the line "guest: N passed, N failed".

guest_scripts = \
	boot/build-kernel \
	boot/check-guest \
	boot/fetch-mainline \
	boot/init \
	boot/mkinitramfs \
	boot/run-guest

# kernel/VERSION: each series with its cover letter, whole.
EXTRA_DIST += \
	$(guest_scripts) \
	boot/guest-exit.c \
	kernel/guest.config \
	kernel/debug.config \
	kernel/README.md \
	kernel/6.1 \
	kernel/6.12 \
	kernel/7.3

.PHONY: check-guest
check-guest: src/ktee$(EXEEXT) $(check_PROGRAMS)
	GNU_TEE='$(GNU_TEE)' \
	  bash $(top_srcdir)/boot/check-guest '$(abs_top_builddir)' '$(abs_top_srcdir)'
