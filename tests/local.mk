## tests/local.mk -- included by the top-level Makefile.am.
##
## "make check" builds the helpers and runs every tests/NN-theme.sh through
## automake's TAP driver, comparing ktee with GNU tee ($(GNU_TEE), found by
## configure).  Set KTEE_METHODS to choose the copy methods to run, e.g.
## "make check KTEE_METHODS=rw"; the empty string runs ktee with no
## --copy-method option.

KTEE_METHODS = auto rw

check_PROGRAMS = tests/sigdfl tests/nonblock tests/failsys
tests_sigdfl_SOURCES = tests/sigdfl.c
tests_nonblock_SOURCES = tests/nonblock.c
tests_failsys_SOURCES = tests/failsys.c

TESTS = \
  tests/10-sizes.sh \
  tests/20-stdin.sh \
  tests/30-stdout.sh \
  tests/40-operands.sh \
  tests/50-options.sh \
  tests/60-errors.sh \
  tests/70-signals.sh \
  tests/80-splice.sh \
  tests/90-faults.sh

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
SH_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) \
  $(top_srcdir)/build-aux/tap-driver.sh
AM_TESTS_ENVIRONMENT = \
  KTEE='$(abs_top_builddir)/src/ktee$(EXEEXT)'; \
  GNU_TEE='$(GNU_TEE)'; \
  KTEE_METHODS='$(KTEE_METHODS)'; \
  KTEE_TEST_BIN='$(abs_top_builddir)/tests'; \
  srcdir='$(abs_top_srcdir)'; \
  export KTEE GNU_TEE KTEE_METHODS KTEE_TEST_BIN srcdir;

EXTRA_DIST += \
  tests/lib.sh \
  tests/run-suite \
  tests/differences \
  $(TESTS)
