#!/bin/sh
# ktee's byte counts past 2^31 and 2^32, where a count or a limit held in
# a 32-bit size_t would wrap or be reached: every output still gets every
# byte.  These cases find bugs only in a 32-bit build; .ci/arch-check runs
# them under qemu-user for i386 and armhf, and make check runs them here
# too, as the control.
#
# The input is stress-gen's self-describing stream, which stops at each
# boundary until ktee has emptied its pipe, so that one of ktee's reads
# ends exactly there; stress-check verifies each output against the stream
# as it reads it, and GNU tee's run must leave the same (silent) result.

. "${srcdir:-.}/tests/lib.sh"

if test "${KTEE_TEST_BIG-yes}" != yes; then
  skip 'counts past 4 GiB' 'KTEE_TEST_BIG is not yes'
  done_testing
  exit
fi
for helper in stress-gen stress-check; do
  if ! test -x "$KTEE_TEST_BIN/$helper"; then
    skip 'counts past 4 GiB' "no $KTEE_TEST_BIN/$helper"
    done_testing
    exit
  fi
  ln -s "$KTEE_TEST_BIN/$helper" "$BIN/"
done
test -x "$KTEE_TEST_BIN/failsys" && ln -s "$KTEE_TEST_BIN/failsys" "$BIN/"

# The stream stops at 2^31 - 1 and 2^32 - 1, where a count that starts at
# the first byte reaches INT_MAX and SIZE_MAX, and one GNU block past
# 2^32 - 1, where one that starts after a first read of GNU blocks does.
SEED=95
LENGTH=4294979587
stream ()
{
  stress-gen -p 2147483647 -p 4294967295 -p 4294975486 $SEED $LENGTH
}

# verify NAME [FILE]: FILE, or standard input, is exactly the stream.
verify ()
{
  stress-check -N "$1" $SEED $LENGTH ${2+"$2"}
}

# Regular files of that size go to a tmpfs of this test's own, which is
# emptied after each run: the test directory may be on a small disk.
TMPFS=$TEST_DIR/tmpfs
mkdir "$TMPFS" || bail_out "cannot make $TMPFS"
if why=$(mount -t tmpfs -o size=9g ktee-test "$TMPFS" 2>&1); then
  have_tmpfs=true
else
  have_tmpfs=false
fi
export TMPFS

setup 'mkfifo fifo'
compare 'a pipe to stdout, a FIFO and /dev/null, stopping at each boundary' \
  'verify fifo fifo & stream | TEE fifo /dev/null | verify stdout
   wait $!'

setup 'mkfifo fifo'
compare 'the same with -p, which counts from the first byte' \
  'verify fifo fifo & stream | TEE -p fifo /dev/null | verify stdout
   wait $!'

if $have_tmpfs; then
  compare 'outputs that refuse splice: -a a file, stdout >> /dev/null' \
    'stream | TEE -a "$TMPFS/a" >> /dev/null
     verify a "$TMPFS/a"; rm -f "$TMPFS/a"'
else
  skip 'outputs that refuse splice' "cannot mount a tmpfs: $why"
fi

if ! have_helper failsys; then
  skip 'a kernel that refuses splice' "no $KTEE_TEST_BIN/failsys"
elif ! failsys splice:ENOSYS -- true 2> "$TEST_DIR/failsys.err"; then
  skip 'a kernel that refuses splice' \
    "failsys cannot install a filter here: $(head -n 1 "$TEST_DIR/failsys.err")"
else
  setup 'mkfifo fifo'
  compare 'a kernel that refuses splice and tee' \
    'verify fifo fifo &
     stream | { wrap="failsys splice,tee:ENOSYS --"; TEE fifo; } |
     verify stdout
     wait $!'
fi

# A regular file of more than 4 GiB: the file engine's offsets.
big='a file of more than 4 GiB to a pipe, a FIFO, a file, /dev/null'
if ! selected "$big"; then
  :               # reported SKIP, and no 4 GiB file made
elif $have_tmpfs && stream | cat > "$TMPFS/in"; then
  setup 'mkfifo fifo'
  compare "$big" \
    'verify fifo fifo &
     TEE fifo "$TMPFS/out" /dev/null < "$TMPFS/in" | verify stdout
     wait $!
     verify out "$TMPFS/out"; rm -f "$TMPFS/out"'
  rm -f "$TMPFS/in"
else
  skip 'a file of more than 4 GiB' "cannot make it in a tmpfs"
fi

done_testing
