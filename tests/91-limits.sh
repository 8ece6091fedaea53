#!/bin/sh
# Limits: a file system that fills up mid-stream, too few file
# descriptors, a file size limit, and pipes the kernel will not enlarge.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 524309

if ! have_helper limit; then
  skip 'limits' "no $KTEE_TEST_BIN/limit"
  done_testing
  exit 0
fi

# ---- Clean-up ------------------------------------------------------------

# The cases mount tmpfs file systems below $TEST_DIR and may change
# sysctls: whatever happens, nothing of that outlives this file
# (unmount_all is lib.sh's).
saved_sysctls=
restore_sysctls ()
{
  for s in $saved_sysctls; do
    echo "${s#*=}" > "/proc/sys/fs/${s%=*}"
  done
  saved_sysctls=
}

trap 'unmount_all; restore_sysctls; leave_test_dir' 0

# verdict FILE INPUT: what FILE holds of INPUT, for outputs that block
# sizes or timing may cut anywhere: a compared verdict rather than
# prefix_of, which would let every other output be cut as well.
verdict ()
{
  if ! test -f "$1"; then
    echo "$1: missing"
  elif ! is_prefix "$1" "$2"; then
    echo "$1: not a prefix of the input"
  elif cmp -s "$1" "$2"; then
    echo "$1: all of the input"
  elif test -s "$1"; then
    echo "$1: a part of the input"
  else
    echo "$1: empty"
  fi
}

# quietly COMMAND...: run COMMAND, a tee, with its standard error less
# the shell's report that it was killed by SIGXFSZ, which shells word
# differently, some with a process id.
quietly ()
{
  "$@" 2> "$AUX/stderr.raw"
  grep -v 'File size limit exceeded' "$AUX/stderr.raw" >&2
  rm -f "$AUX/stderr.raw"
}

# ---- A file system that fills up ------------------------------------------

# small_tmpfs DIR: mount a 256 KiB tmpfs on DIR.  A failure names the tee
# of the run, so that the case fails rather than pass with two runs that
# both missed the point.
small_tmpfs ()
{
  mkdir "$1" && mount -t tmpfs -o size=256k ktee-test "$1" \
    || echo "cannot mount a tmpfs for $TEE_PROG" >&2
}

mkdir "$TEST_DIR/probe"
if ! why=$(mount -t tmpfs -o size=256k ktee-test "$TEST_DIR/probe" 2>&1); then
  skip 'a FILE on a full file system' "cannot mount a tmpfs: $why"
else
  umount "$TEST_DIR/probe"
  for mode in '' -p --output-error=exit --output-error=exit-nopipe; do
    m=${mode:-default}
    # The FILE on the small tmpfs fills up after 64 pages: ENOSPC for it,
    # the others go on (or, in the exit modes, stop with it).
    compare "$m: a FILE fills its file system, stdin a file" \
      'small_tmpfs full
       TEE '"$mode"' a full/x b < $DATA/524309
       verdict full/x $DATA/524309 > x.verdict
       umount full && rmdir full'
    # Reads from a pipe may come short, so where the exit modes stop
    # depends on timing.
    case $mode in *exit) prefix_of "$DATA/524309" ;; esac
    compare "$m: a FILE fills its file system, stdin a pipe" \
      'small_tmpfs full
       cat $DATA/524309 | TEE '"$mode"' a full/x b
       verdict full/x $DATA/524309 > x.verdict
       umount full && rmdir full'
  done
  # Two outputs share the room left: GNU tee's 8 KiB blocks, to one and
  # then the other, decide what each holds, and ktee takes them where its
  # rounds might fill the file system.
  for mode in '' -p; do
    m=${mode:-default}
    compare "$m: two FILEs fill one file system, stdin a file" \
      'small_tmpfs full
       TEE '"$mode"' a full/x full/y < $DATA/524309 > out
       cp full/x full/y . && umount full && rmdir full'
    compare "$m: stdout and a FILE fill one file system, stdin a file" \
      'small_tmpfs full
       TEE '"$mode"' full/x < $DATA/524309 > full/out
       cp full/x full/out . && umount full && rmdir full'
  done
fi

# ---- Too few descriptors ---------------------------------------------------

# limit -c closes everything above 2, so with -n N there is room for N - 3
# descriptors: here 3 of the 6 FILEs, then EMFILE; none for ktee's pipes.
# A tool that ktee runs under (make check-valgrind) needs descriptors of
# its own.
if test -n "${KTEE_TEST_WRAPPED-}"; then
  skip 'RLIMIT_NOFILE' "ktee runs under $KTEE_TEST_WRAPPED"
else
  for mode in '' -p --output-error=warn --output-error=exit \
              --output-error=exit-nopipe; do
    compare "${mode:-default}: RLIMIT_NOFILE leaves room for 3 FILEs of 6" \
      'cat $DATA/524309 | { wrap="limit -c -n 6"; TEE '"$mode"' f1 f2 f3 f4 f5 f6; }'
  done

  # Room for every FILE, and for none, one, two or three more descriptors:
  # the zero-copy engine needs four for its two pipes, and must give way to
  # read and write without a word when it cannot have them.
  for spare in 0 1 2 3 4; do
    compare "RLIMIT_NOFILE leaves $spare descriptors beyond 3 FILEs" \
      'cat $DATA/524309 |
       { wrap="limit -c -n $((6 + '$spare'))"; TEE f1 f2 f3; } | cat > out'
  done
fi

# ---- A file size limit -----------------------------------------------------

# 100000 bytes, not a multiple of GNU's 8 KiB blocks.  By default the
# write that passes the limit raises SIGXFSZ, which kills the tee (status
# 153) after a short write.  With stdin and stdout regular files, GNU
# tee's blocks decide what each output holds to the byte, and so must
# ktee's.  Stdout, a regular file too, is written first and reaches the
# limit first.
for mode in '' -p; do
  m=${mode:-default}
  compare "$m: RLIMIT_FSIZE below the input, stdin a file: SIGXFSZ" \
    'wrap="limit -f 100000"; quietly TEE '"$mode"' a b < $DATA/524309'
  # Stdout a pipe, which has no size limit: a stops at the limit; how
  # much the pipe and b got depends on how the reads from the input pipe
  # fell.
  compare "$m: RLIMIT_FSIZE below the input, stdin a pipe: SIGXFSZ" \
    'cat $DATA/524309 | { wrap="limit -f 100000"; quietly TEE '"$mode"' a b; } |
     cat > out
     verdict out $DATA/524309 > out.verdict && rm out
     verdict b $DATA/524309 > b.verdict && rm b'
done

# With SIGXFSZ ignored, the write fails with EFBIG instead: "File too
# large" for each regular file, the pipe gets everything.
for mode in '' -p --output-error=warn --output-error=exit; do
  m=${mode:-default}
  compare "$m: RLIMIT_FSIZE below the input, SIGXFSZ ignored, stdin a file" \
    'wrap="sigdfl -i XFSZ limit -f 100000"; TEE '"$mode"' a b < $DATA/524309'
  case $mode in
    *exit)
      compare "$m: RLIMIT_FSIZE below the input, SIGXFSZ ignored, stdin a pipe" \
        'cat $DATA/524309 |
         { wrap="sigdfl -i XFSZ limit -f 100000"; TEE '"$mode"' a b; } |
         cat > out
         verdict out $DATA/524309 > out.verdict && rm out
         verdict b $DATA/524309 > b.verdict && rm b' ;;
    *)
      compare "$m: RLIMIT_FSIZE below the input, SIGXFSZ ignored, stdin a pipe" \
        'cat $DATA/524309 |
         { wrap="sigdfl -i XFSZ limit -f 100000"; TEE '"$mode"' a b; } |
         cat > out' ;;
  esac
done

# ---- Pipes the kernel will not enlarge -------------------------------------

# set_sysctl NAME VALUE: set /proc/sys/fs/NAME, to be restored at the end.
set_sysctl ()
{
  saved_sysctls="$saved_sysctls $1=$(cat "/proc/sys/fs/$1")" &&
  echo "$2" > "/proc/sys/fs/$1"
}

# The limits bind users without CAP_SYS_RESOURCE only, so the tees run as
# nobody (65534), on FILEs made writable for it beforehand.  From a file,
# copy_file_range(2), sendfile(2) and splice(2) into a file need a pipe
# of the kernel's own, under the same limits: GNU tee needs none.
pipe_limit_case ()
{
  setup ': > a && : > b && chmod 666 a b'
  compare "$1, stdin a pipe" \
    'cat $DATA/524309 | { wrap="limit -u 65534"; TEE a b; } | cat > out'
  setup ': > a && : > b && chmod 666 a b'
  compare "$1, stdin a file" \
    'wrap="limit -u 65534"; TEE a b < $DATA/524309 > out'
  setup ': > a && : > b && chmod 666 a b'
  compare "$1, stdin a file, stdout a pipe" \
    'wrap="limit -u 65534"; TEE a b < $DATA/524309 | cat > out'
}

if test "${KTEE_TEST_SYSCTL-}" != yes; then
  skip 'pipes the kernel will not enlarge' \
    'changes global sysctls; runs in the guest (make check-guest) or with KTEE_TEST_SYSCTL=yes'
elif ! test -w /proc/sys/fs/pipe-max-size \
     || ! test -w /proc/sys/fs/pipe-user-pages-soft \
     || ! test -w /proc/sys/fs/pipe-user-pages-hard; then
  skip 'pipes the kernel will not enlarge' 'cannot write /proc/sys/fs'
else
  # F_SETPIPE_SZ beyond pipe-max-size is refused (EPERM), and new pipes
  # get 2 pages instead of 16.
  set_sysctl pipe-max-size 8192
  pipe_limit_case 'pipe-max-size 8192: every pipe 2 pages'
  restore_sysctls

  # Past the soft limit, new pipes get 2 pages and may not grow: ktee's
  # first pipe gets 16 pages, its second 2.
  set_sysctl pipe-user-pages-soft 20
  pipe_limit_case 'pipe-user-pages-soft 20: pipes of 16 and 2 pages'
  restore_sysctls

  set_sysctl pipe-user-pages-soft 1
  pipe_limit_case 'pipe-user-pages-soft 1: every pipe 2 pages'
  restore_sysctls

  # Past the hard limit, pipe() itself fails.
  set_sysctl pipe-user-pages-hard 1
  pipe_limit_case 'pipe-user-pages-hard 1: no pipe at all'
  restore_sysctls

  # A stdin pipe of 4 MiB holds 1024 packets of 4 bytes, and ktee's 1 MiB
  # pipes 256 buffers: every byte must still reach stdout and the FILEs,
  # however a round takes them through the socket pair that clears packet
  # mode (a splice of stdin straight into the socket takes all 1024).
  if have_helper packets; then
    set_sysctl pipe-max-size 4194304
    for files in a 'a b'; do
      compare "packet-mode stdin of 4 MiB, more packets than ktee's pipes hold, FILEs: $files" \
        'wrap="packets -s 4 -p 4194304"; TEE '"$files"' < $DATA/524309 |
         dd bs=1 2> /dev/null > out'
    done
    restore_sysctls
  else
    skip 'packet-mode stdin of 4 MiB' "no $KTEE_TEST_BIN/packets"
  fi
fi

done_testing
