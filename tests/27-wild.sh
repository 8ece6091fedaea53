#!/bin/sh
# Descriptors from the wild: what a user, a service manager or a container
# may hand ktee, beyond the kinds its engines are written for.  Whatever
# the kernel's zero-copy calls answer, every output must get GNU tee's
# bytes, and ktee must end when GNU tee ends.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 100003 1048583 2000003

# ---- Standard input that poll never says is readable ------------------------

# With -p ktee watches its pipe outputs while it waits for input; it must
# not wait for an input that a read rejects at once.
for mode in -p --output-error=exit-nopipe; do
  compare "$mode: stdin the write end of stdout's pipe" \
    'TEE '"$mode"' log 0>&1 | cat > out'
done

# ---- Regular files that are not what they seem ----------------------------

# mount_fusefile DIR [OPTION]...: serve tests/fusefile's files on DIR, in
# the background, until unmount_all (lib.sh) unmounts it; print why not
# and fail if that cannot be done.
mount_fusefile ()
{
  dir=$1
  shift
  mkdir "$dir" || return
  fusefile "$@" "$dir" > "$dir.log" 2>&1 &
  wait_until 5 "tests/fusefile did not mount $dir:" test -e "$dir/data" ||
    { cat "$dir.log"; return 1; }
}

# The file "bad" fails every read that touches 4 KiB at 1 MiB + 64 KiB:
# GNU tee gives every output the bytes before them, then says "read
# error".  The file "long" says it holds 10000 bytes and holds 20000:
# with direct I/O both tees copy them all, through the page cache both
# stop at the size.
if ! have_helper fusefile; then
  skip 'FUSE files' "no $KTEE_TEST_BIN/fusefile (libfuse3-dev)"
elif ! test -c /dev/fuse; then
  skip 'FUSE files' 'no /dev/fuse'
else
  for io in cached direct; do
    FUSE=$TEST_DIR/fuse-$io
    opt=
    test $io = direct && opt=--direct-io
    if ! why=$(mount_fusefile "$FUSE" $opt); then
      skip "FUSE files ($io)" "cannot mount tests/fusefile: $why"
      continue
    fi
    for files in a 'a b'; do
      compare "$io: a read error, FILEs $files" \
        'TEE '"$files"' < '"$FUSE"'/bad > out'
      compare "$io: a read error, FILEs $files, stdout a pipe" \
        'TEE '"$files"' < '"$FUSE"'/bad | cat > out'
    done
    compare "$io: a read error, -a FILE and /dev/null" \
      'TEE -a a /dev/null < '"$FUSE"'/bad > out'
    compare "$io: a read error, exit mode" \
      'TEE --output-error=exit a < '"$FUSE"'/bad | cat > out'
    compare "$io: a read error, then the rest read by cat" \
      '{ TEE a > out; cat > rest; } < '"$FUSE"'/bad'
    compare "$io: a file longer than its size" \
      'TEE a b < '"$FUSE"'/long > out'
    compare "$io: a file longer than its size, stdout a pipe" \
      'TEE a < '"$FUSE"'/long | cat > out'
    compare "$io: a plain 4 MiB file" \
      'TEE a b < '"$FUSE"'/data | cat > out'
  done
fi

# ---- Block devices and overlayfs -------------------------------------------

# A loop device over a file: read as GNU tee reads it, to its end.
LOOP_IMG=$TEST_DIR/loop.img
if ! test -e /dev/loop-control || ! command -v losetup > /dev/null 2>&1; then
  skip 'stdin a block device' 'no loop devices'
elif ! head -c 3145728 $DATA/2000003 $DATA/2000003 > "$LOOP_IMG" ||
     ! LOOP=$(losetup -f --show "$LOOP_IMG" 2> /dev/null); then
  skip 'stdin a block device' 'losetup failed'
else
  compare 'stdin a block device (a loop device), stdout a pipe' \
    'TEE a b < '"$LOOP"' | cat > out'
  compare 'stdin a block device, --output-error=exit and /dev/full' \
    'TEE --output-error=exit a /dev/full < '"$LOOP"' > out'
  losetup -d "$LOOP"
fi

# Files on overlayfs: the input in the lower layer, the outputs in the
# upper one.
OV=$TEST_DIR/ov
if ! mkdir "$OV" "$OV.lo" "$OV.up" "$OV.wk" ||
   ! cp $DATA/1048583 "$OV.lo/in" ||
   ! why=$(mount -t overlay overlay \
             -o "lowerdir=$OV.lo,upperdir=$OV.up,workdir=$OV.wk" "$OV" 2>&1)
then
  skip 'files on overlayfs' "cannot mount an overlayfs: $why"
else
  compare 'overlayfs: stdin a lower file, FILEs and stdout there' \
    'TEE '"$OV"'/a '"$OV"'/b < '"$OV"'/in > '"$OV"'/out
     mv '"$OV"'/a '"$OV"'/b '"$OV"'/out .'
  compare 'overlayfs: stdin a lower file, stdout a pipe' \
    'TEE '"$OV"'/a < '"$OV"'/in | cat > out; mv '"$OV"'/a .'
fi

# ---- Standard output the read end of a pipe ---------------------------------

# A write to it fails with EBADF; with no writer left, poll says POLLHUP,
# which the nopipe modes must not take for a reader gone while the input
# is idle.
compare '-p: stdout the read end of a pipe with no writer, an idle input' \
  ': | { sleep 0.2; exec 3<&0; { sleep 1; echo hi; } | TEE -p log >&3; }'

if ! have_helper sockio; then
  skip 'sockets' "no $KTEE_TEST_BIN/sockio"
  done_testing
  exit 0
fi

# Where the kernel has no TCP/IP (the test guest), both tees would fail
# alike, and the comparisons would pass without a socket.
if why=$(sockio 0 tcp true 2>&1 < /dev/null); then
  compare '-p: stdin a listening TCP socket' \
    'wrap="sockio 0 tcp-listen"; TEE -p log | cat > out'

  # ---- Urgent data ----------------------------------------------------------

  # splice(2) from a TCP socket says 0 at the urgent mark; read(2) passes
  # it (the urgent byte is not inline, so neither tee copies it).
  for at in 1000 1000000; do
    compare "tcp: urgent data after $at bytes of 2 MB" \
      'wrap="sockio 0 tcp,oob='$at'"; TEE a < $DATA/2000003 | cat > out'
  done
else
  skip 'TCP sockets' "$why"
fi

# ---- Timeouts that poll(2) does not know ----------------------------------

# A blocking socket with SO_RCVTIMEO: GNU tee's read fails with EAGAIN
# once the input has been idle that long; ktee's wait must end there too.
# A slow machine may let a read time out before the pause, for either tee.
for kind in unix tcp; do
  sockio 0 $kind true < /dev/null 2> /dev/null || continue
  for opt in '' -p; do
    prefix_of "$DATA/1048583"
    compare "$kind${opt:+ $opt}: SO_RCVTIMEO 200 ms, the input idle for 1 s" \
      '{ head -c 100003 $DATA/1048583; sleep 1; cat $DATA/1048583; } |
       { wrap="sockio 0 '$kind',rcvtimeo=200"; TEE '"$opt"' a | cat > out; }'
  done
done

# A blocking socket with SO_SNDTIMEO on standard output, whose reader
# reads nothing until the tee has ended: the write fails with EAGAIN.
# How much the socket took first depends on the sizes of the writes.
prefix_of "$DATA/1048583"
compare 'unix: stdout SO_SNDTIMEO 200 ms, never read' \
  'wrap="sockio 1 unix,sndtimeo=200,stall"; TEE a < $DATA/1048583 > out'

# ---- Datagrams --------------------------------------------------------------

# Each write to a datagram or seqpacket socket is a record: sockio
# writes their sizes to the file "datagrams", compared with GNU tee's.
for kind in unix-dgram unix-seqpacket; do
  for input in '< $DATA/1048583' '< $DATA/100003'; do
    compare "stdout a $kind socket, stdin a file ($input)" \
      'wrap="sockio 1 '$kind'"; TEE a '"$input"' > out'
  done
done

# Each read from a datagram or seqpacket socket takes one record, and
# drops what does not fit: GNU tee's 8 KiB reads keep 8 KiB of each.
# The last record is empty, which a read takes for end of input.
for kind in unix-dgram unix-seqpacket; do
  for size in 4096 8192 16384 100000; do
    compare "stdin a $kind socket, records of $size bytes" \
      'wrap="sockio 0 '$kind',size='$size'"; TEE a < $DATA/2000003 > out'
  done
done

done_testing
