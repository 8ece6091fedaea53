#!/bin/sh
# What only the zero-copy engine can get wrong: pipes shared with other
# writers, outputs that refuse splice next to ones that take it, slow and
# non-blocking readers, many outputs, huge offsets, and proof that the
# bytes really bypass user space.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 1048583 16777216

# tee(2) can return 0 while its input still has data when another process
# writes into its output pipe at the same moment (kernel/0001-*.patch).
# The noise is NUL bytes, which the numbered-line input never contains.
check 'a second writer on the output pipe loses no input byte' \
  '{ dd if=/dev/zero bs=512 2>/dev/null & noise=$!
     cat $DATA/16777216 | TEE a
     kill $noise
   } | tr -d "\\000" > out
   expect_status 0 && expect_bytes out $DATA/16777216 &&
   expect_bytes a $DATA/16777216'

check 'a second writer on stdout, { ktee; } 2>&1 | reader, with FILEs' \
  '{ { dd if=/dev/zero bs=4096 >&2 2>/dev/null & noise=$!
       cat $DATA/16777216 | TEE a b
       kill $noise
     } 2>&1
   } | tr -d "\\000" > out
   expect_status 0 && expect_bytes out $DATA/16777216 &&
   expect_bytes a $DATA/16777216 && expect_bytes b $DATA/16777216'

# One output alone: ktee makes no copy pipe, and tries no tee(2).
check 'a second writer on stdout, { ktee; } 2>&1 | reader, no FILE' \
  '{ { dd if=/dev/zero bs=4096 >&2 2>/dev/null & noise=$!
       cat $DATA/16777216 | TEE
       kill $noise
     } 2>&1
   } | tr -d "\\000" > out
   expect_status 0 && expect_bytes out $DATA/16777216'
setup 'printf "old\n" > out'
compare 'no FILE, O_APPEND stdout' 'cat $DATA/1048583 | TEE >> out'
compare 'no FILE, stdout /dev/full' 'cat $DATA/1048583 | TEE > /dev/full'
compare 'one FILE, stdout closed' 'cat $DATA/1048583 | TEE f >&-'
compare 'one FILE of two that opens, stdout closed' \
  'cat $DATA/1048583 | TEE f no/such >&-'
if have_helper nonblock; then
  check 'no FILE, stdin and stdout non-blocking pipes, slow reader' \
    'cat $DATA/16777216 | { wrap="nonblock 0 nonblock 1"; TEE; } |
     { sleep 0.3; cat; } > out
     expect_status 0 && expect_bytes out $DATA/16777216'
else
  skip 'no FILE, non-blocking pipes' "no $KTEE_TEST_BIN/nonblock"
fi

setup 'printf "old\n" > out'
compare 'mixed outputs: a FIFO, a file, /dev/full, O_APPEND stdout' \
  'mkfifo p && { cat p > from-fifo & }
   cat $DATA/1048583 | TEE p f /dev/full >> out; wait'
setup 'printf "old\n" > f'
compare 'mixed outputs with -a: stdout a pipe, O_APPEND FILEs, /dev/full' \
  'cat $DATA/1048583 | TEE -a f /dev/full g | cat > out'
compare 'outputs that refuse splice first, then one that takes it' \
  'cat $DATA/1048583 | TEE /dev/full /dev/full f > /dev/full'

compare 'a slow reader on stdout' \
  'cat $DATA/1048583 | TEE f |
   { sleep 0.3; head -c 1000; sleep 0.3; cat; } > out'
compare 'a slow reader on a FIFO FILE' \
  'mkfifo p && { { sleep 0.3; cat; } < p > from-fifo & }
   cat $DATA/1048583 | TEE p f > out; wait'

files=$(seq 1 70 | sed "s/^/f/")
compare '70 FILEs, stdin a pipe' \
  "cat \$DATA/1048583 | TEE $files | cat > out"

if have_helper nonblock; then
  check 'stdin and stdout non-blocking pipes, slow reader' \
    'cat $DATA/16777216 | { wrap="nonblock 0 nonblock 1"; TEE a; } |
     { sleep 0.3; cat; } > out
     expect_status 0 && expect_bytes out $DATA/16777216 &&
     expect_bytes a $DATA/16777216'
else
  skip 'stdin and stdout non-blocking pipes' "no $KTEE_TEST_BIN/nonblock"
fi

# Offsets past 4 GiB, where 32-bit arithmetic would wrap.  (busybox head
# wraps a count past 2^32 itself, hence dd.)
if test "${KTEE_TEST_BIG-yes}" = yes; then
  check 'more than 4 GiB through a pipe to /dev/null and stdout' \
    '{ dd if=/dev/zero bs=1048576 count=4096 2>/dev/null
       head -c 4101 /dev/zero; } | TEE /dev/null | wc -c > count
     expect_status 0 && test "$(cat count)" -eq 4294971397 ||
     fail "stdout got $(cat count) bytes, expected 4294971397"'
else
  skip 'more than 4 GiB' 'KTEE_TEST_BIG is not yes'
fi

# The zero-copy claim itself: with a pipe as input, ktee reads from
# standard input and writes to its outputs (fd 1 and the FILE) only the
# first 256 to 320 KiB, and with --copy-method=splice nothing at all; with
# --copy-method=rw it reads and writes everything.  The FILE's descriptor is
# read from the trace: make may leave descriptors open for its jobs.
# file_fd TRACE: the descriptor ktee opened the FILE "f" on.
file_fd ()
{
  sed -n "s/.*openat(AT_FDCWD, \"f\",.* = \([0-9]*\)\$/\1/p" "$1"
}

# largest_round TRACE: the most bytes one splice(2) from standard input
# moved in TRACE, or nothing if none did.
largest_round ()
{
  sed -n "s/^[0-9]* *splice(0, .* = \([0-9]*\)\$/\1/p" "$1" |
    sort -n | tail -n 1
}

# calls_after_open TRACE: the names of the calls in TRACE (of one
# process) after it opened the FILE "f", but for those of the memory
# allocator: what the tee asks of the kernel to copy its input.
calls_after_open ()
{
  sed -n '/^openat(AT_FDCWD, "f",/,$p' "$1" | sed 1d |
    sed -n 's/^\([a-z_0-9]*\)(.*/\1/p' |
    grep -v -x -E 'mmap|munmap|brk|mprotect|madvise'
}

# user_bytes TRACE FD...: the bytes that ktee's read(2) calls of standard
# input and its write(2) calls of the FDs in TRACE moved: a count each.
user_bytes ()
{
  trace=$1; shift
  for fd in 0 "$@"; do
    call=write; test "$fd" = 0 && call=read
    sed -n "s/^[0-9]* *$call($fd, .* = \([0-9]*\)\$/\1/p" "$trace" |
      awk '{ n += $1 } END { print n + 0 }'
  done
}

if can_strace; then
  KTEE_METHODS_SAVED=$KTEE_METHODS KTEE_METHODS=
  # auto reads and writes until a read brings the count to 256 KiB or more
  # (copy.c's SMALL_INPUT: the pipes would cost a small input more), each
  # read at most 64 KiB (copy-rw.c's RW_BUFSIZE), and hands the exact count
  # on: at most 256 KiB - 1 + 64 KiB = 327679 bytes, however slow the
  # machine.  The end is a read that returns 0: splice's 0 is a hint.
  for method in auto splice; do
    case $method in
      auto) limit=327679 what='at most 320 KiB, at its start,' ;;
      splice) limit=0 what='no byte' ;;
    esac
    check "strace: a 64 MiB pipe to a pipe and a file moves $what through user space [$method]" \
      'head -c 67108864 /dev/zero |
       STRACE -f -o trace -e trace=openat,read,write,splice,tee \
         ktee --copy-method='$method' f | cat > /dev/null
       fd=$(file_fd trace); test -n "$fd" || fail "no openat of f in the trace"
       user_bytes trace 1 "$fd" | while read -r n; do
         test "$n" -le '$limit' || fail "$n bytes of one descriptor by read/write"
       done
       sed -n "/^[0-9]* *splice(0,/,\$p" trace |
         grep -E "^[0-9]+ +(read\\(0,.* = [1-9]|write\\((1|$fd),)" > copies
       test -s copies && { fail "read/write after the first splice:"; head -n 5 copies; }
       test "$(grep -c -E "^[0-9]+ +(splice|tee)\\(" trace)" -ge 64 ||
         fail "too few splice/tee calls"
       test "$(wc -c < f)" -eq 67108864 || fail "f holds $(wc -c < f) bytes"'
  done
  check 'strace: the same with --copy-method=rw reads and writes' \
    'head -c 67108864 /dev/zero |
     STRACE -f -o trace -e trace=openat,read,write,splice,tee \
       ktee --copy-method=rw f | cat > /dev/null
     fd=$(file_fd trace); test -n "$fd" || fail "no openat of f in the trace"
     test "$(grep -c -E "^[0-9]+ +read\\(0," trace)" -ge 64 &&
     test "$(grep -c -E "^[0-9]+ +write\\($fd," trace)" -ge 64 ||
     fail "expected reads of fd 0 and writes of fd $fd"
     grep -E -q "^[0-9]+ +(splice|tee)\\(0," trace && fail "spliced with rw"
     test "$(wc -c < f)" -eq 67108864 || fail "f holds $(wc -c < f) bytes"'
  # copy.c: rounds no larger than a pipe output holds, with other
  # outputs to write, so that its reader is not left waiting.
  check 'strace: with a FILE, rounds no larger than the stdout pipe holds' \
    'head -c 16777216 /dev/zero |
     STRACE -f -o trace -e trace=splice ktee --copy-method=splice f |
       cat > /dev/null
     size=$(largest_round trace)
     test -n "$size" && test "$size" -le 65536 ||
       fail "a round of ${size:-no} bytes"
     test "$(wc -c < f)" -eq 16777216 || fail "f holds $(wc -c < f) bytes"'
  # A reader that grows its pipe once it runs gets larger rounds from
  # then on: the limit is asked again, not once at the start; but not
  # every round, which costs 4% of ktee's CPU in rounds of 64 KiB: once
  # in 16 rounds (each round has one splice from standard input: into
  # ktee's pipe, or from the file into stdout).
  for stdin in pipe file; do
    case $stdin in
      pipe) from='head -c 16777216 /dev/zero |' in= ;;
      file) from='head -c 16777216 /dev/zero > in &&' in='< in' ;;
    esac
    check "strace: with a FILE, rounds grow with a pipe its reader grows later [$stdin]" \
      "$from"'
       STRACE -f -o trace -e trace=splice ktee --copy-method=splice f '"$in"' |
         { sleep 1; limit -p 1048576 cat; } > /dev/null
       size=$(largest_round trace)
       test -n "$size" && test "$size" -gt 65536 ||
         fail "no round over 64 KiB: ${size:-none}"
       test "$(wc -c < f)" -eq 16777216 || fail "f holds $(wc -c < f) bytes"'
    check "strace: with a FILE, one F_GETPIPE_SZ of the stdout pipe in 16 rounds [$stdin]" \
      "$from"'
       STRACE -f -o trace -e trace=splice,fcntl \
         ktee --copy-method=splice f '"$in"' | cat > /dev/null
       rounds=$(grep -c -E "^[0-9]+ +splice\(0," trace)
       asked=$(grep -c -E "^[0-9]+ +fcntl\(1, F_GETPIPE_SZ" trace)
       test "$rounds" -ge 64 || fail "only $rounds rounds"
       test "$asked" -le $((rounds / 16 + 1)) ||
         fail "$asked F_GETPIPE_SZ of stdout in $rounds rounds"
       test "$(wc -c < f)" -eq 16777216 || fail "f holds $(wc -c < f) bytes"'
  done
  # copy.c: an input from a pipe that ends within 64 KiB, or a file
  # that GNU tee reads in one block, costs the calls GNU tee makes to
  # copy it, and one fstat of standard input (GNU tee's posix_fadvise
  # stands before the FILE's open).
  for method in auto rw; do
    for input in 'pipe 1024' 'pipe 65536' 'file 1024' 'file 8192'; do
      set -- $input
      case $1 in
        pipe) from="head -c $2 /dev/zero |" in= ;;
        file) from= in='< in' ;;
      esac
      check "strace: $2 bytes from a $1 cost GNU tee's calls and one [$method]" \
        'head -c '$2' /dev/zero > in
         '"$from"' STRACE -o gnu.trace tee f '"$in"' | cat > /dev/null
         '"$from"' STRACE -o ktee.trace ktee --copy-method='$method' f '"$in"' |
           cat > /dev/null
         calls_after_open gnu.trace > gnu.calls
         calls_after_open ktee.trace > ktee.calls
         test "$(wc -l < ktee.calls)" -le "$(($(wc -l < gnu.calls) + 1))" || {
           fail "ktee made more calls than GNU tee and one:"
           diff gnu.calls ktee.calls; }'
    done
  done
  KTEE_METHODS=$KTEE_METHODS_SAVED
else
  skip 'strace: zero copy' "$no_strace"
fi

done_testing
