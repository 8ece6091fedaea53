#!/bin/sh
# The places tee meets in real use: outputs on ext4, xfs, btrfs and
# tmpfs; a terminal, sockets and bash process substitutions; /dev files
# as FILEs; FIFOs with slow readers; consumers that quit early; Ctrl-C;
# packet-mode pipes; a stdout another program left non-blocking.  What
# this machine lacks (loop devices, a file system, TCP/IP, bash, ptys)
# skips, found by trying.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

# reader FIFO COMMAND...: in the background, open FIFO for reading and
# run COMMAND on it, opening and all under the tee's timeout: should the
# tee never open FIFO, the case fails rather than hangs.
reader ()
{
  timeout -s KILL "$KTEE_TEST_TIMEOUT" \
    sh -c 'exec < "$0" && exec "$@"' "$@" &
}

# ---- File systems --------------------------------------------------------

# mount_fs FS DIR: mount a fresh, empty FS on DIR: a tmpfs, or FS made
# by mkfs in a sparse image and mounted through a loop device.  If that
# cannot be done, print why and fail.  unmount_all (lib.sh) undoes it.
mount_fs ()
{
  mkdir -p "$2" || return
  case $1 in
    tmpfs) mount -t tmpfs -o size=64m ktee-test "$2" 2>&1; return ;;
    xfs) size=320M ;;       # the least mkfs.xfs accepts is 300 MiB
    btrfs) size=256M ;;
    *) size=64M ;;
  esac
  test -e /dev/loop-control || fail 'no loop devices' || return
  command -v "mkfs.$1" > /dev/null 2>&1 || fail "no mkfs.$1" || return
  truncate -s $size "$2.img" && "mkfs.$1" -q "$2.img" > /dev/null 2>&1 \
    || fail "mkfs.$1 failed" || return
  mount -o loop "$2.img" "$2" 2>&1
}

# most_per_call TRACE: the most bytes that one call traced by strace -y
# in TRACE gave a file named a.
most_per_call ()
{
  awk 'index($0, "/a>,") && $NF ~ /^[0-9]+$/ && m < $NF + 0 { m = $NF + 0 }
       END { print m + 0 }' "$1"
}

# whole_calls FS: on FS (ext4 or XFS), a file takes more than 16 KiB per
# system call (whole rounds, whichever way it is written), which cost
# less there than calls of 16 KiB (bench/results-chunks.md).
whole_calls ()
{
  if ! can_strace; then
    skip "$1: whole rounds per call" "$no_strace"
    return
  fi
  TRACE="$NO_LEAK_CHECK strace -y -o \$AUX/trace
         -e trace=splice,copy_file_range,sendfile,write,pwrite64 --"
  LARGEST='expect_status 0 && expect_bytes a $DATA/1048583 &&
     most=$(most_per_call $AUX/trace) && test "$most" -gt 16384 ||
     fail "$most bytes at most in one call"'
  check "$1: more than 16 KiB per call, stdin a pipe" \
    'wrap="'"$TRACE"'"; cat $DATA/1048583 | TEE $MNT/a > /dev/null
     mv $MNT/a . && '"$LARGEST"
  check "$1: more than 16 KiB per call, -a" \
    'wrap="'"$TRACE"'"; cat $DATA/1048583 | TEE -a $MNT/a > /dev/null
     mv $MNT/a . && '"$LARGEST"
  # With --copy-method=rw, a file is read in GNU's blocks, as GNU reads
  # it: where they leave the input offset shows.
  methods=$KTEE_METHODS
  zero_copy_only "$1: more than 16 KiB per call, stdin a file there" &&
    setup 'cp $DATA/1048583 $MNT/in' &&
    check "$1: more than 16 KiB per call, stdin a file there" \
      'wrap="'"$TRACE"'"; TEE $MNT/a < $MNT/in > /dev/null
       mv $MNT/a . && rm $MNT/in && '"$LARGEST"
  KTEE_METHODS=$methods
}

# reflink_rounds FS: on FS (btrfs or XFS), with stdin a file there and
# stdout a pipe, a FILE gets more than the pipe's 64 KiB per call: the
# rounds that keep the pipe's reader fed (copy.c) are not for outputs
# that copy_file_range may reflink (copy-file.c); but they are for a
# second pipe output, which keeps the first one's reader waiting.
reflink_rounds ()
{
  if ! can_strace; then
    skip "$1: reflinks in large rounds" "$no_strace"
    return
  fi
  WRAP_TRACE='wrap="$NO_LEAK_CHECK strace -y -o $AUX/trace
               -e trace=copy_file_range --"'
  methods=$KTEE_METHODS
  zero_copy_only "$1: reflinks in large rounds" &&
    setup 'cp $DATA/1048583 $MNT/in' &&
    check "$1: reflinks in large rounds, stdout a pipe" \
      "$WRAP_TRACE"'
       TEE $MNT/a < $MNT/in | cat > out
       mv $MNT/a . && rm $MNT/in && expect_status 0 &&
       expect_bytes a $DATA/1048583 && expect_bytes out $DATA/1048583 &&
       most=$(most_per_call $AUX/trace) && test "$most" -gt 65536 ||
       fail "$most bytes at most in one call"'
  zero_copy_only "$1: two pipe outputs" &&
    setup 'cp $DATA/1048583 $MNT/in && mkfifo p' &&
    check "$1: a reflinked FILE and two pipe outputs, rounds of 64 KiB" \
      'cat p > out2 &
       '"$WRAP_TRACE"'
       TEE $MNT/a p < $MNT/in | cat > out
       wait
       mv $MNT/a . && rm $MNT/in && expect_status 0 &&
       expect_bytes a $DATA/1048583 && expect_bytes out $DATA/1048583 &&
       expect_bytes out2 $DATA/1048583 &&
       most=$(most_per_call $AUX/trace) &&
       test "$most" -gt 0 && test "$most" -le 65536 ||
       fail "$most bytes at most in one call"'
  KTEE_METHODS=$methods
}

# On each, FILEs and stdout there, written with and without -a; the
# splice engine when stdin is a pipe, read and write when it is a file.
# What the tee wrote is moved into the working directory to be compared.
for fs in ext4 xfs btrfs tmpfs; do
  MNT=$TEST_DIR/mnt/$fs
  if ! why=$(mount_fs $fs "$MNT"); then
    skip "outputs on $fs" "cannot mount $fs: $why"
    continue
  fi
  compare "$fs: FILEs and stdout there, stdin a pipe" \
    'cat $DATA/1048583 | TEE $MNT/a $MNT/b > $MNT/out
     mv $MNT/a $MNT/b $MNT/out .'
  setup 'printf "old\n" > $MNT/a && printf "old\n" > $MNT/out'
  compare "$fs: -a, FILEs and an O_APPEND stdout there, stdin a pipe" \
    'cat $DATA/1048583 | TEE -a $MNT/a $MNT/b >> $MNT/out
     mv $MNT/a $MNT/b $MNT/out .'
  setup 'cp $DATA/1048583 $MNT/in'
  compare "$fs: stdin a file there, a FILE there" \
    'TEE $MNT/a < $MNT/in | cat > out; mv $MNT/a .; rm $MNT/in'
  setup 'cp $DATA/1048583 $MNT/in && printf "old\n" > $MNT/a'
  compare "$fs: -a, stdin a file there, a FILE there" \
    'TEE -a $MNT/a < $MNT/in > out; mv $MNT/a .; rm $MNT/in'
  case $fs in ext4 | xfs) whole_calls $fs ;; esac
  case $fs in xfs | btrfs) reflink_rounds $fs ;; esac
  umount "$MNT"
done

# ---- Terminals and sockets -----------------------------------------------

# pty (tests/pty.c) gives the tee a terminal as stdout, and sockio
# (tests/sockio.c) a socket as FD 0 or 1; each copies between the other
# end and its own descriptor.  Tried first: where the kernel has no
# TCP/IP or no ptys, they fail, and the cases skip.
if ! have_helper pty; then
  skip 'stdout a terminal' "no $KTEE_TEST_BIN/pty"
elif ! why=$(pty true 2>&1); then
  skip 'stdout a terminal' "$why"
else
  compare 'stdout a terminal' \
    'wrap=pty; TEE a < $DATA/65537 > out'
  compare 'stdout a terminal, stdin a pipe' \
    'cat $DATA/65537 | { wrap=pty; TEE a; } > out'
fi

for kind in unix tcp; do
  if ! have_helper sockio; then
    skip "$kind sockets" "no $KTEE_TEST_BIN/sockio"
    continue
  elif ! why=$(sockio 0 $kind true 2>&1 < /dev/null); then
    skip "$kind sockets" "$why"
    continue
  fi
  compare "stdin a $kind socket" \
    'wrap="sockio 0 '$kind'"; TEE a < $DATA/1048583 > out'
  compare "stdout a $kind socket, stdin a pipe" \
    'cat $DATA/1048583 | { wrap="sockio 1 '$kind'"; TEE a; } > out'
  compare "stdin and stdout $kind sockets" \
    'wrap="sockio 0 '$kind' sockio 1 '$kind'"; TEE a < $DATA/1048583 > out'
done

# ---- Process substitutions -----------------------------------------------

# TEE_PROCSUBS COMMAND... -- ARG...: TEE ARG... run by bash with one more
# FILE per COMMAND, a process substitution >(COMMAND) whose standard
# output goes to the file psN (N from 1); then wait until every COMMAND
# has ended, which bash does not.
TEE_PROCSUBS ()
{
  n=0 substs=
  while test "$1" != --; do
    n=$((n + 1))
    substs="$substs >({ $1; } > ps$n.part; mv ps$n.part ps$n)"
    shift
  done
  shift
  echo "exec \"\$@\"$substs" > "$AUX/procsubs.bash"
  wrap="bash $AUX/procsubs.bash"
  TEE "$@"
  while test $n -gt 0; do
    wait_for_file ps$n || return
    n=$((n - 1))
  done
}

if ! command -v bash > /dev/null 2>&1; then
  skip 'process substitutions' 'no bash'
else
  compare 'process substitutions as FILEs, one reading late' \
    'TEE_PROCSUBS cat "sleep 0.3; cat" -- a < $DATA/1048583 > out'
  compare 'process substitutions as FILEs, stdin a pipe' \
    'cat $DATA/1048583 | TEE_PROCSUBS cat "sleep 0.3; cat" -- a | cat > out'
  prefix_of "$DATA/1048583"
  compare 'a process substitution that quits early: SIGPIPE' \
    'cat $DATA/1048583 | TEE_PROCSUBS "head -c 1000" cat -- a > out'
  compare 'a process substitution that quits early, -p: the rest get all' \
    'cat $DATA/1048583 | TEE_PROCSUBS "head -c 1000" cat -- -p a > out'
fi

# ---- /dev files as FILEs -------------------------------------------------

compare '/dev/null and a FILE, stdin a pipe' \
  'cat $DATA/1048583 | TEE /dev/null a | cat > out'
compare '/dev/full and a FILE' \
  'TEE /dev/full a < $DATA/65537 > out'
compare '/dev/full and a FILE, stdin a pipe' \
  'cat $DATA/1048583 | TEE /dev/full a | cat > out'
compare '/dev/full and a FILE, --output-error=exit' \
  'TEE --output-error=exit a /dev/full < $DATA/65537 > out'
compare '/dev/stdout, stdout a file: the same bytes at the same offsets' \
  'TEE /dev/stdout a < $DATA/65537 > out'
compare '/dev/stderr, stderr a file' \
  'cat $DATA/1048583 | TEE /dev/stderr a > out 2> err'

# When a FILE is stdout (or stderr) again, the two copies interleave in
# GNU tee's 8 KiB blocks (tests/45-aliases.sh compares them byte for
# byte); but from a pipe that cat fills 128 KiB at a time, GNU's blocks
# are whatever each read finds, which depends on timing.  So the input is
# records of 8 bytes, which no block cuts, and what is compared is the
# records sorted: each must come twice, none lost, none added.
seq 1000000 1131071 > "$DATA/records"
compare '/dev/stdout, stdout a pipe: every record twice' \
  'TEE /dev/stdout a < $DATA/records | sort > out'
compare '/dev/stdout, stdout a pipe, stdin a pipe: every record twice' \
  'cat $DATA/records | TEE /dev/stdout a | sort > out'
compare '/dev/stderr, stderr and stdout one pipe: every record twice' \
  'cat $DATA/records | TEE /dev/stderr a 2>&1 | sort > out'
compare '-a /dev/stdout, stdout an O_APPEND file: every record twice' \
  'cat $DATA/records | TEE -a /dev/stdout a >> log; sort log > out; rm log'

# ---- Slow and small readers ----------------------------------------------

compare 'FIFO FILEs, one read at once, one after 0.3 s, stdin a pipe' \
  'mkfifo p1 p2
   reader p1 cat > r1
   reader p2 sh -c "sleep 0.3; exec cat" > r2
   cat $DATA/1048583 | TEE p1 p2 a > out; wait'
compare 'a FIFO FILE read one byte per read(), stdin a pipe' \
  'mkfifo p
   reader p dd bs=1 > r 2>/dev/null
   cat $DATA/65537 | TEE p a > out; wait'
compare 'stdout a pipe read one byte per read(), stdin a pipe' \
  'cat $DATA/65537 | TEE a | dd bs=1 2>/dev/null > out'

# ---- Consumers that quit early -------------------------------------------

# The input is far more than a pipe holds, so every tee meets the broken
# pipe.  By default SIGPIPE stops the tee, and in the exit modes the
# error does: where it stops depends on how the copy was cut up, so only
# a prefix is asked for (tests/differences).  The other modes drop the
# broken output and give the rest everything.
for mode in '' -p --output-error --output-error=warn \
            --output-error=warn-nopipe --output-error=exit \
            --output-error=exit-nopipe; do
  m=${mode:-no option}
  case $mode in ''|*=exit) cut=yes ;; *) cut= ;; esac
  test -z "$cut" || prefix_of "$DATA/1048583"
  compare "$m: stdout | head -c 1000, stdin a file" \
    'TEE '"$mode"' a < $DATA/1048583 | head -c 1000 > out'
  test -z "$cut" || prefix_of "$DATA/1048583"
  compare "$m: stdout | head -c 100000, stdin a pipe" \
    'cat $DATA/1048583 | TEE '"$mode"' a | head -c 100000 > out'
  test -z "$cut" || prefix_of "$DATA/1048583"
  compare "$m: a FIFO FILE read by head -c 1000, stdin a pipe" \
    'mkfifo p
     reader p head -c 1000 > r
     cat $DATA/1048583 | TEE '"$mode"' p a > out; wait'
done

# ---- Ctrl-C --------------------------------------------------------------

if ! have_helper sigdfl; then
  # Background jobs start with SIGINT ignored; only sigdfl can undo that.
  skip 'SIGINT' "no $KTEE_TEST_BIN/sigdfl"
else
  # Ctrl-C in a terminal reaches the whole pipeline: the producer dies,
  # and the tee with it unless -i; with -i it copies what came and ends
  # at the end of input.
  for opt in '' -i; do
    compare "Ctrl-C reaching the producer and the tee, options: ${opt:-none}" \
      'mkfifo $AUX/in
       sigdfl sh -c "printf abc; exec sleep 10" > $AUX/in &
       producer=$!
       TEE '"$opt"' a < $AUX/in | cat > out &
       wait_for_size a 3 && kill -s INT $(tee_pid) $producer
       wait'
  done

  # Opening a FIFO FILE waits for a reader; SIGINT ends that wait unless
  # -i, and then the tee goes on once a reader comes.
  compare 'SIGINT while opening a FIFO FILE that has no reader' \
    'mkfifo p
     TEE a p < $DATA/65537 > out &
     wait_for_file a && sleep 0.2 && kill -s INT $(tee_pid)
     wait'
  compare 'SIGINT while opening a FIFO FILE that has no reader, -i' \
    'mkfifo p
     TEE -i a p < $DATA/65537 > out &
     wait_for_file a && sleep 0.2 && kill -s INT $(tee_pid)
     reader p cat > r; wait'
fi

# ---- Packet-mode stdin ---------------------------------------------------

# In a packet-mode pipe (O_DIRECT, see pipe(7)) a read() returns at most
# one packet and loses what of it does not fit the buffer.  GNU tee reads
# 8 KiB, of which the packets here (4 bytes, or a page) are divisors, so
# it loses nothing, and its outputs are ordinary: all of them, even a
# pipe read one byte at a time, must get every byte.  packets
# (tests/packets.c) makes such a pipe and writes its standard input into
# it in packets of -s bytes.  The first input is the one of issue 12.
i=0
while test $i -lt 32; do
  printf 'p%02d-' $i
  i=$((i + 1))
done > "$DATA/p00-p31"
if ! have_helper packets; then
  skip 'packet-mode stdin' "no $KTEE_TEST_BIN/packets"
else
  compare 'packet-mode stdin, stdout a pipe read one byte per read()' \
    'wrap="packets -s 4"; TEE o1 < $DATA/p00-p31 | dd bs=1 2>/dev/null > out'
  compare 'packet-mode stdin, 64 KiB, stdout a pipe read one byte per read()' \
    'wrap="packets -s 4"; TEE o1 < $DATA/65537 | dd bs=1 2>/dev/null > out'
  compare 'packet-mode stdin, no FILE, stdout read one byte per read()' \
    'wrap="packets -s 4"; TEE < $DATA/65537 | dd bs=1 2>/dev/null > out'
  compare 'packet-mode stdin of page-sized packets, stdout read bytewise' \
    'wrap="packets -s 4096"; TEE o1 < $DATA/65537 | dd bs=1 2>/dev/null > out'
  compare 'packet-mode stdin, stdout a regular file' \
    'wrap="packets -s 4"; TEE o1 < $DATA/65537 > out'
  compare 'packet-mode stdin, a FIFO FILE read one byte per read()' \
    'mkfifo p
     reader p dd bs=1 > r 2>/dev/null
     wrap="packets -s 4"; TEE p < $DATA/65537 > out; wait'
  compare 'packet mode switched on half way by the writer, stdout bytewise' \
    'wrap="packets -s 4 -m late"; TEE o1 < $DATA/65537 | dd bs=1 2>/dev/null > out'
  compare 'two writers, one in packet mode, stdout read bytewise' \
    'wrap="packets -s 4 -m mixed"; TEE o1 < $DATA/65537 | dd bs=1 2>/dev/null > out'
  # Past the first 256 to 320 KiB, which ktee copies with read and write.
  compare 'packet mode from 512 KiB on, stdout read 1000 bytes at a time' \
    'wrap="packets -s 4096 -m late"; TEE o1 < $DATA/1048583 | dd bs=1000 2>/dev/null > out'
fi

# ---- Non-blocking descriptors left by another program --------------------

# O_NONBLOCK belongs to the open file description, so a program that set
# it on a shared stdin or stdout leaves it set for the tee.  tests/
# differences, 4 and 1: ktee waits where GNU tee 9.1 fails with EAGAIN.
if ! have_helper nonblock; then
  skip 'non-blocking descriptors' "no $KTEE_TEST_BIN/nonblock"
else
  check 'stdout left non-blocking by another program, full, slow reader' \
    '{ nonblock 1 true; TEE a < $DATA/1048583 2> err; } |
     { sleep 0.5; cat; } > out
     expect_status 0 && expect_bytes out $DATA/1048583 &&
     expect_bytes a $DATA/1048583 && expect_empty err'
  check 'stdin left non-blocking by another program, slow writer' \
    '{ sleep 0.3; cat $DATA/65537; } |
     { nonblock 0 true; TEE a 2> err; } > out
     expect_status 0 && expect_bytes out $DATA/65537 &&
     expect_bytes a $DATA/65537 && expect_empty err'
fi

done_testing
