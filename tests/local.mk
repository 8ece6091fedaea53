## tests/local.mk -- included by the top-level Makefile.am.
##
## "make check" builds the helpers and runs every tests/NN-theme.sh through
## automake's TAP driver, comparing ktee with GNU tee ($(GNU_TEE), found by
## configure).  Set KTEE_METHODS to choose the copy methods to run, e.g.
## "make check KTEE_METHODS=rw"; the empty string runs ktee with no
## --copy-method option.

KTEE_METHODS = auto splice rw

check_PROGRAMS = \
  tests/sigdfl tests/nonblock tests/failsys tests/limit tests/sockio \
  tests/pty tests/packets tests/splice-append tests/stress-gen \
  tests/stress-check
tests_sigdfl_SOURCES = tests/sigdfl.c
tests_nonblock_SOURCES = tests/nonblock.c
tests_pty_SOURCES = tests/pty.c
tests_splice_append_SOURCES = tests/splice-append.c
tests_packets_SOURCES = tests/packets.c
tests_failsys_SOURCES = tests/failsys.c
tests_failsys_LDADD = $(LDADD) $(SECCOMP_LIBS)
tests_limit_SOURCES = tests/limit.c
tests_sockio_SOURCES = tests/sockio.c
tests_stress_gen_SOURCES = tests/stress-gen.c tests/stress-pattern.h
tests_stress_check_SOURCES = tests/stress-check.c tests/stress-pattern.h
if HAVE_FUSE3
check_PROGRAMS += tests/fusefile
endif
tests_fusefile_SOURCES = tests/fusefile.c
# CPPFLAGS rather than CFLAGS: per-program CFLAGS go on the link line.
tests_fusefile_CPPFLAGS = $(AM_CPPFLAGS) $(FUSE3_CFLAGS)
tests_fusefile_LDADD = $(LDADD) $(FUSE3_LIBS)

TESTS = \
  tests/05-docs.sh \
  tests/10-sizes.sh \
  tests/20-stdin.sh \
  tests/25-file-stdin.sh \
  tests/26-socket-stdin.sh \
  tests/27-wild.sh \
  tests/30-stdout.sh \
  tests/40-operands.sh \
  tests/45-aliases.sh \
  tests/50-options.sh \
  tests/55-locales.sh \
  tests/60-errors.sh \
  tests/70-signals.sh \
  tests/80-splice.sh \
  tests/85-realworld.sh \
  tests/90-faults.sh \
  tests/91-limits.sh \
  tests/92-timing.sh \
  tests/95-counts.sh

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
SH_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) \
  $(top_srcdir)/build-aux/tap-driver.sh
# The program the suite runs as ktee; check-valgrind replaces it.
KTEE_UNDER_TEST = $(abs_top_builddir)/src/ktee$(EXEEXT)

AM_TESTS_ENVIRONMENT = \
  KTEE='$(KTEE_UNDER_TEST)'; \
  GNU_TEE='$(GNU_TEE)'; \
  KTEE_METHODS='$(KTEE_METHODS)'; \
  KTEE_TEST_BIN='$(abs_top_builddir)/tests'; \
  srcdir='$(abs_top_srcdir)'; \
  export KTEE GNU_TEE KTEE_METHODS KTEE_TEST_BIN srcdir;

EXTRA_DIST += \
  tests/stress.sh \
  tests/lib.sh \
  tests/run-suite \
  tests/differences \
  $(TESTS)

## make check-valgrind: the suite with ktee run under valgrind's memcheck.
## A memory error or a leak makes memcheck print to ktee's stderr and exit
## with status 99, so the case fails; cases that trace ktee with strace
## skip (they would trace valgrind), as do those with few descriptors (valgrind
## needs some) and the 4 GiB one (too slow).
VALGRIND_OPTIONS = -q --vgdb=no --error-exitcode=99 --leak-check=full \
  --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect

.PHONY: check-valgrind
check-valgrind: src/ktee$(EXEEXT)
	$(AM_V_GEN)printf '%s\n' '#!/bin/sh' \
	  'exec valgrind $(VALGRIND_OPTIONS) "$(abs_top_builddir)/src/ktee$(EXEEXT)" "$$@"' \
	  > tests/ktee-valgrind && chmod +x tests/ktee-valgrind
	KTEE_TEST_BIG=no KTEE_TEST_WRAPPED=valgrind \
	  $(MAKE) $(AM_MAKEFLAGS) check \
	  KTEE_UNDER_TEST='$(abs_top_builddir)/tests/ktee-valgrind'

CLEANFILES = tests/ktee-valgrind

## make check-sanitizers: the suite against a ktee built with
## AddressSanitizer and UndefinedBehaviorSanitizer, in sanitizers/, from a
## copy of the distribution: a tree configured in place cannot hold a
## second build.  A report aborts ktee or shows on its stderr, so the case
## fails.  The results are in sanitizers/tests/*.log and *.trs.
SANITIZER_CFLAGS = -g -O1 -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=all

.PHONY: check-sanitizers
check-sanitizers: distdir
	rm -rf sanitizers
	mv $(distdir) sanitizers
	cd sanitizers && ./configure -q CFLAGS='$(SANITIZER_CFLAGS)' \
	  GNU_TEE='$(GNU_TEE)' && $(MAKE) $(AM_MAKEFLAGS) && \
	  ASAN_OPTIONS=detect_leaks=1 $(MAKE) $(AM_MAKEFLAGS) check \
	  KTEE_METHODS='$(KTEE_METHODS)'

clean-local:
	rm -rf sanitizers

## "make check-stress": the soak test, not part of "make check".  About a
## minute (and at least 20 GiB) of random pipelines with both engines; see
## tests/stress.sh for its KTEE_STRESS_* settings.
.PHONY: check-stress
check-stress: src/ktee$(EXEEXT) $(check_PROGRAMS)
	KTEE='$(abs_top_builddir)/src/ktee$(EXEEXT)' \
	KTEE_TEST_BIN='$(abs_top_builddir)/tests' \
	$(SHELL) $(top_srcdir)/tests/stress.sh
