#!/bin/sh
# A regular file on standard input: the file engine (src/copy-file.c),
# which gives each output the bytes without reading them, must leave
# the outputs, the messages, the exit status and the input offset as
# GNU tee's 8 KiB read/write loop does, whatever stops it.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

FAULT_SIZE=2097152
gen_data 4097 65537 1048583 $FAULT_SIZE
FAULT_IN=$DATA/$FAULT_SIZE

# quietly COMMAND...: run COMMAND, a tee, with its standard error less
# the shell's report that it was killed by SIGXFSZ, which shells word
# differently.
quietly ()
{
  "$@" 2> "$AUX/stderr.raw"
  grep -v 'File size limit exceeded' "$AUX/stderr.raw" >&2
  rm -f "$AUX/stderr.raw"
}

# ---- Where the input offset is left ----------------------------------------

# "rest" is what the next reader of the same open file gets: it shows
# how far the tee read.
compare 'offset: exit mode, /dev/full after a FILE' \
  '{ TEE --output-error=exit a /dev/full b > out; cat > rest; } < $DATA/1048583'
compare 'offset: exit mode, stdout /dev/full' \
  '{ TEE --output-error=exit a > /dev/full; cat > rest; } < $DATA/1048583'
compare 'offset: (tee --output-error=exit /dev/full; cat) < FILE' \
  '(TEE --output-error=exit /dev/full; cat) < $DATA/1048583 > out'
for mode in '' -p --output-error=warn --output-error=exit \
            --output-error=exit-nopipe; do
  m=${mode:-default}
  compare "offset, $m: every output fails at once" \
    '{ TEE '"$mode"' /dev/full > /dev/full; cat > rest; } < $DATA/1048583'
  # By default the broken pipe kills both tees in their first block,
  # before the FILE gets it.
  compare "offset, $m: stdout a pipe whose reader has gone" \
    '{ broken_stdout TEE '"$mode"' a; cat > rest; } < $DATA/1048583'
done
compare 'offset: every output fails at once, from offset 1000' \
  '{ dd bs=1000 count=1 of=/dev/null 2> /dev/null
     TEE /dev/full > /dev/full; cat > rest; } < $DATA/1048583'
compare 'offset: normal end, then the next reader' \
  '{ TEE a > out; cat > rest; } < $DATA/1048583'

if have_helper limit && have_helper sigdfl; then
  # With SIGXFSZ ignored, both outputs fail with EFBIG at byte 100000,
  # in the middle of the 1 MiB round: the offset goes back to the end of
  # GNU's block (106496, or 107496 from offset 1000).
  compare 'offset: every output fails at a file size limit (EFBIG)' \
    '{ wrap="limit -f 100000 sigdfl -i XFSZ"; TEE a > out; cat > rest; } \
       < $DATA/1048583'
  compare 'offset: the same, from offset 1000' \
    '{ dd bs=1000 count=1 of=/dev/null 2> /dev/null
       wrap="limit -f 100000 sigdfl -i XFSZ"; TEE a > out; cat > rest; } \
       < $DATA/1048583'
  compare 'offset: killed by SIGXFSZ at a file size limit' \
    '{ wrap="limit -f 100000"; quietly TEE a b > out; cat > rest; } \
       < $DATA/1048583'
  compare 'offset: the FILE only fails (EFBIG), stdout a pipe, warn' \
    '{ wrap="limit -f 100000 sigdfl -i XFSZ"
       TEE --output-error=warn a | cat > out; cat > rest; } < $DATA/1048583'
else
  skip 'offset at a file size limit' "no $KTEE_TEST_BIN/limit or sigdfl"
fi

# ---- Aliasing: an output is the input --------------------------------------

compare 'aliasing: ktee f < f truncates f first' \
  'cp $DATA/65537 f && TEE f < f > out'
compare 'aliasing: stdout the input file, opened read-write' \
  'cp $DATA/65537 f && TEE a < f 1<> f'
if have_helper limit; then
  # The tee reads what it has just appended, and never ends: the file
  # size limit stops both at the same byte.
  compare 'aliasing: ktee -a f < f, stopped by a file size limit' \
    'cp $DATA/65537 f && { wrap="limit -f 300000"; quietly TEE -a f < f > out; }'
  compare 'aliasing: stdout appends to the input, stopped by a limit' \
    'cp $DATA/65537 f && { wrap="limit -f 300000"; quietly TEE a < f >> f; }'
  compare 'aliasing: a hard link to the input, with -a' \
    'cp $DATA/65537 f && ln f g &&
     { wrap="limit -f 300000"; quietly TEE -a g < f > out; }'
else
  skip 'aliasing, stopped by a file size limit' "no $KTEE_TEST_BIN/limit"
fi

# ---- Outputs of every kind -------------------------------------------------

setup 'printf "old\n" > a && printf "old\n" > out'
compare 'O_APPEND FILEs with -a and O_APPEND stdout' \
  'TEE -a a b < $DATA/1048583 >> out'
setup 'printf "old\n" > a'
compare 'O_APPEND FILE next to /dev/full, exit mode' \
  'TEE --output-error=exit -a a /dev/full b < $DATA/1048583 > out'
compare 'stdout a file shared with the next writer' \
  '{ TEE a < $DATA/65537; echo end; } > out'
compare 'FILEs, a FIFO, /dev/null, stdout a pipe' \
  'mkfifo p && { cat p > from-fifo & }
   TEE a p /dev/null b < $DATA/1048583 | cat > out; wait'
if have_helper sockio; then
  compare 'stdout a UNIX socket' \
    'wrap="sockio 1 unix"; TEE a < $DATA/1048583 > out'
  compare 'stdout a TCP socket' \
    'wrap="sockio 1 tcp"; TEE a < $DATA/1048583 > out'
else
  skip 'stdout a socket' "no $KTEE_TEST_BIN/sockio"
fi

# ---- Files whose size says little ------------------------------------------

compare 'stdin a /proc file, of size 0' \
  'TEE a < /proc/version > out'
if test -r /sys/devices/system/cpu/online; then
  compare 'stdin a /sys file, whose size says 4096' \
    'TEE a < /sys/devices/system/cpu/online | cat > out'
else
  skip 'stdin a /sys file' 'no /sys/devices/system/cpu/online'
fi
compare 'stdin an empty file' \
  ': > e && TEE a < e > out'
# Both tees are held up by stdout, a pipe whose reader waits, while the
# file grows: each goes on to the new end, where its read finds 0.
compare 'a file that grows while it is read' \
  'cp $DATA/1048583 f
   { TEE a < f | { sleep 0.6; cat; } > out & sleep 0.3; cat $DATA/4097 >> f; wait; }'

# ---- Reflinks --------------------------------------------------------------

# On btrfs, copy_file_range shares the input's extents: the FILEs take
# no space of their own.  (Only the zero-copy engines can do that.)
BTRFS=$TEST_DIR/btrfs
if ! command -v mkfs.btrfs > /dev/null 2>&1; then
  skip 'btrfs: the FILEs share the input'"'"'s extents' 'no mkfs.btrfs'
elif ! { truncate -s 128M "$BTRFS.img" && mkfs.btrfs -q "$BTRFS.img" &&
         mkdir "$BTRFS" && mount -o loop "$BTRFS.img" "$BTRFS"; } \
       > "$BTRFS.log" 2>&1; then
  skip 'btrfs: the FILEs share the input'"'"'s extents' \
    "cannot mount a btrfs image: $(tail -n 1 "$BTRFS.log")"
else
  trap 'umount "$BTRFS"; leave_test_dir' 0
  all_methods=$KTEE_METHODS
  zero_copy_only 'btrfs: the FILEs share the input'"'"'s extents' &&
  check 'btrfs: the FILEs share the input'"'"'s extents' \
    'cd $BTRFS && rm -f in a b && cp $FAULT_IN in &&
     TEE a b < in > /dev/null && sync -f . &&
     expect_status 0 && expect_bytes a in && expect_bytes b in &&
     btrfs filesystem du --raw -s a b |
       awk '"'"'NR > 1 && $2 != 0 { print $4 ": " $2 " bytes of its own" }'"'"
  KTEE_METHODS=$all_methods
fi

# ---- Refusals and faults, strace --inject ----------------------------------

# The rest traces ktee; only the zero-copy engines make the calls it
# traces and faults (not --copy-method=rw).
if ! can_strace || ! strace -o /dev/null true > /dev/null 2>&1; then
  skip 'strace fault injection' "${no_strace:-strace cannot trace here}"
  done_testing
  exit 0
fi
zero_copy_only 'strace fault injection' || { done_testing; exit 0; }

# Stdout a pipe (splice), a and b regular files (copy_file_range, or
# sendfile once that is refused); 2 MiB, two rounds.  Call #1 is a's
# first; a file system may take a round in several calls (a short
# copy_file_range), so the cases aimed at b find its first call.
TRACED='-e trace=splice,copy_file_range,sendfile,pread64,write'

# first_on_b: the number of b's first copy_file_range call, from a run
# without faults; sendfile takes over call for call when it is refused.
first_on_b ()
{
  wrap="$NO_LEAK_CHECK strace -y -o $AUX/dry -e trace=copy_file_range --"
  TEE a b < $FAULT_IN | cat > /dev/null
  awk '/^copy_file_range\(/ { n++ } /\/b>/ { print n; exit }' $AUX/dry
}

# injected TRACE: the fault is in TRACE.
injected ()
{
  grep -q 'INJECTED' "$1" || fail "the fault was never injected"
}

# expect_unharmed: nothing shows: status 0, nothing on stderr, and out, a
# and b hold the whole input.
expect_unharmed ()
{
  expect_status 0 && expect_empty "$AUX/err" && expect_bytes out $FAULT_IN &&
  expect_bytes a $FAULT_IN && expect_bytes b $FAULT_IN
}

# A refusal: that output falls back, alone, and nothing shows.
for err in EXDEV EINVAL EOPNOTSUPP ENOSYS EPERM EBADF; do
  for spec in copy_file_range:error=$err:when=1 \
              copy_file_range:error=$err:when=3 \
              splice:error=$err:when=1 splice:error=$err:when=5 \
              "copy_file_range:error=EXDEV -e inject=sendfile:error=$err:when=2"
  do
    check "strace: $spec, a refusal" \
      'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED -e inject='"$spec"' --"
       TEE a b < $FAULT_IN 2> $AUX/err | cat > out
       injected $AUX/trace &&
       expect_unharmed'
  done
done

# A failure that read and write may not meet (no pipe buffer for the
# kernel's own copy, a large call near a full file system, a datagram
# too long): the same bytes go by pread and write, which succeed here,
# and nothing shows.  The output keeps its way for the next round.
for err in ENOMEM ENOSPC EMSGSIZE; do
  for spec in copy_file_range:error=$err:when=1 \
              copy_file_range:error=$err:when=3 \
              splice:error=$err:when=1 \
              "copy_file_range:error=EXDEV -e inject=sendfile:error=$err:when=2"
  do
    check "strace: $spec, the same bytes by write" \
      'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED -e inject='"$spec"' --"
       TEE a b < $FAULT_IN 2> $AUX/err | cat > out
       injected $AUX/trace && grep -q "^pread64(0," $AUX/trace ||
       fail "no pread after the fault"
       expect_unharmed'
  done
done

# A zero count where the size says there are bytes (as /sys may say):
# pread finds them.
for spec in copy_file_range:retval=0:when=2 splice:retval=0:when=3 \
            "copy_file_range:error=EXDEV -e inject=sendfile:retval=0:when=3"; do
  check "strace: $spec, a zero count" \
    'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED -e inject='"$spec"' --"
     TEE a b < $FAULT_IN 2> $AUX/err | cat > out
     injected $AUX/trace && grep -q "^pread64(0," $AUX/trace ||
     fail "no pread after the zero count"
     expect_unharmed'
done

# expect_output_error NAME ERRNO-TEXT FILE: the output NAME failed, as
# GNU's write to it would: named in the one message, status 1, its file
# FILE a prefix of the input; the other two outputs hold it all.
expect_output_error ()
{
  printf 'tee: %s: %s\n' "$1" "$2" > "$AUX/want"
  normalise < "$AUX/err" > "$AUX/err.n"
  cmp -s "$AUX/want" "$AUX/err.n" ||
    fail "stderr: $(cat "$AUX/err"), expected: $(cat "$AUX/want")" || return
  expect_status 1 || return
  is_prefix "$3" $FAULT_IN || fail "$3 is not a prefix of the input" || return
  for f in out a b; do
    test "$f" = "$3" || expect_bytes "$f" $FAULT_IN || return
  done
}

# A real error, which the input does not explain: the output fails as
# GNU's write to it would.
for err in EIO:'Input/output error' EROFS:'Read-only file system'; do
  e=${err%%:*} text=${err#*:}
  for c in "copy_file_range:error=$e:when=1 a a" \
           "copy_file_range:error=$e:when=3 a a" \
           "splice:error=$e:when=1 \"'standard output'\" out" \
           "splice:error=$e:when=4 \"'standard output'\" out"; do
    eval "set -- $c"
    check "strace: $1, a real error on $2" \
      'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED -e inject='"$1"' --"
       TEE a b < $FAULT_IN 2> $AUX/err | cat > out
       injected $AUX/trace &&
       expect_output_error "'"$2"'" "'"$text"'" '"$3"
  done
  check "strace: copy_file_range $e on b's first call, a real error on b" \
    'b1=$(first_on_b)
     wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED
           -e inject=copy_file_range:error='$e':when=$b1 --"
     TEE a b < $FAULT_IN 2> $AUX/err | cat > out
     injected $AUX/trace && expect_output_error b "'"$text"'" b'
  check "strace: sendfile $e after copy_file_range EXDEV, on b" \
    'b1=$(first_on_b)
     wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED
           -e inject=copy_file_range:error=EXDEV
           -e inject=sendfile:error='$e':when=$b1 --"
     TEE a b < $FAULT_IN 2> $AUX/err | cat > out
     injected $AUX/trace && expect_output_error b "'"$text"'" b'
done

# ---- Large rounds through ktee's pipes ------------------------------------

# On tmpfs and ext4 a regular file takes a round of more than 64 KiB
# through a pipe of ktee's; when two or more outputs do, the round is
# spliced from stdin once, into the master pipe, and tee(2) gives each
# output but the last its copy.  Here stdout, a and b are files there,
# in rounds of 1 MiB: splice #1 is stdin into the master, tee #1 its
# copy for stdout, spliced on by splice #2; tee #2 and splice #3 are a's;
# splice #4 takes the master into b; splice #5 starts the second round.
# Whatever the master does not give an output, it takes from stdin.
case $(stat -f -c %t "$TEST_DIR") in
  ef53 | 1021994) by_pipe=yes ;;
  *) by_pipe= ;;
esac
TRACED_PIPES='-e trace=splice,tee,copy_file_range,sendfile,pread64,write'

# pipes_fault DESC SPEC RUN EXPECT: the check DESC: RUN, a command, with
# ktee traced and the fault SPEC injected, which must have happened;
# then EXPECT.
pipes_fault ()
{
  check "$1" \
    'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED_PIPES
           -e inject='"$2"' --"
     '"$3"'
     injected $AUX/trace &&
     '"$4"
}

# into_files: TEE a b < FAULT_IN, stdout into out.
into_files ()
{
  TEE a b < $FAULT_IN > out 2> $AUX/err
}
if test -z "$by_pipe"; then
  skip 'strace: large rounds through a pipe' \
    "$TEST_DIR is on neither tmpfs nor ext4"
else
  check 'strace: large rounds: stdin spliced once a round, tee(2) for the others' \
    'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED_PIPES --"
     into_files
     expect_unharmed &&
     n=$(grep -c "^splice(0, \[[0-9]*\], [0-9]*, NULL, [0-9]*, 0) *= 1048576$" $AUX/trace) &&
     test "$n" = 2 || fail "$n splices of 1 MiB from stdin, expected 2"
     n=$(grep -c "^tee([0-9]*, [0-9]*, 1048576, 0) *= 1048576$" $AUX/trace) &&
     test "$n" = 4 || fail "$n tee calls of 1 MiB, expected 4"
     grep -E "^(copy_file_range|sendfile|write)\(" $AUX/trace > $AUX/others
     test ! -s $AUX/others || { fail "other calls:"; head -n 3 $AUX/others; }'
  for err in EXDEV EINVAL EOPNOTSUPP ENOSYS EPERM EBADF; do
    for f in splice:2 splice:4 tee:1; do
      pipes_fault \
        "strace: ${f%:*} #${f#*:} of a round through ktee's pipes: $err, a refusal" \
        "${f%:*}:error=$err:when=${f#*:}" into_files expect_unharmed
    done
  done
  for err in EIO:'Input/output error' EROFS:'Read-only file system'; do
    e=${err%%:*} text=${err#*:}
    for c in "2 \"'standard output'\" out" "3 a a" "4 b b" \
             "6 \"'standard output'\" out"; do
      eval "set -- $c"
      pipes_fault "strace: splice #$1 of a round through ktee's pipes: $e on $2" \
        "splice:error=$e:when=$1" into_files \
        "expect_output_error \"$2\" \"$text\" $3"
    done
    # Stdin into the master, or the master into ktee's other pipe: the
    # outputs take the round from stdin themselves.
    for f in splice:1 splice:5 tee:1 tee:4; do
      pipes_fault "strace: ${f%:*} #${f#*:} into ktee's pipes: $e, taken from stdin" \
        "${f%:*}:error=$e:when=${f#*:}" into_files expect_unharmed
    done
  done
  for f in splice:1 splice:2 splice:4 tee:1 tee:2; do
    pipes_fault "strace: ${f%:*} #${f#*:} of a round through ktee's pipes returns 0" \
      "${f%:*}:retval=0:when=${f#*:}" into_files expect_unharmed
  done

  if have_helper limit; then
  # Stdout a pipe that its reader grew to 1 MiB before ktee started
  # (the rounds are no larger than it holds): tee #1 gives it the
  # master's copy, tee #2 and splice #2 are a's, splice #3 b's.  Its
  # reader may lag in the second round: stdout then takes the rest of
  # its tee from stdin, by one more splice.
  # big_reader: TEE a b < FAULT_IN, stdout into such a pipe, read into out.
  big_reader ()
  {
    rm -f $AUX/grown
    { wait_until 10 "the reader did not start" test -e $AUX/grown &&
        TEE a b < $FAULT_IN 2> $AUX/err; } |
      limit -p 1048576 sh -c ": > $AUX/grown && exec cat" > out
  }
  check 'strace: large rounds: stdin spliced once a round, tee(2) into stdout' \
    'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED_PIPES --"
     big_reader
     expect_status 0 && expect_bytes out $FAULT_IN &&
     expect_bytes a $FAULT_IN && expect_bytes b $FAULT_IN &&
     n=$(grep -c "^tee([0-9]*, 1, 1048576, 0) *= " $AUX/trace) &&
     test "$n" = 2 || fail "$n tee calls into stdout, expected 2"'
  for err in EINVAL EIO:'Input/output error'; do
    e=${err%%:*} text=${err#*:}
    for f in tee:1 tee:3 splice:3; do
      case $e:$f in
        EINVAL:*) expect=expect_unharmed ;;
        *:tee:*) expect="expect_output_error \"'standard output'\" '$text' out" ;;
        *) expect="expect_output_error b '$text' b" ;;
      esac
      pipes_fault "strace: ${f%:*} #${f#*:} from the master, stdout a pipe: $e" \
        "${f%:*}:error=$e:when=${f#*:}" big_reader "$expect"
    done
  done
  else
    skip 'strace: large rounds into a pipe' "no $KTEE_TEST_BIN/limit"
  fi
fi

# An early exit on an injected error: what the outputs hold and where
# the next reader starts are GNU's, for the failure on b's first block.
# Stdout is a regular file here: copy_file_range #3 is b's first.
check 'strace: exit mode, copy_file_range EIO on b: outputs and offset' \
  'wrap="$NO_LEAK_CHECK strace -o $AUX/trace $TRACED
         -e inject=copy_file_range:error=EIO:when=3 --"
   { TEE --output-error=exit a b > out 2> $AUX/err; cat > rest; } < $FAULT_IN
   head -c 8192 $FAULT_IN > first && tail -c +8193 $FAULT_IN > tail
   injected $AUX/trace && expect_status 1 && expect_bytes out first &&
   expect_bytes a first && expect_empty b && expect_bytes rest tail'

# ---- The bytes do not pass through user space ------------------------------

# share TRACE FD...: the percentage of the bytes given to the outputs
# FD... that moved by splice, tee, copy_file_range or sendfile, rather
# than by read and write.
share ()
{
  trace=$1
  shift
  awk -v fds=" $* " '
    function fd_of(s) { sub(/^[a-z_0-9]*\(/, "", s); sub(/,.*/, "", s); return s }
    /^(splice|copy_file_range)\(0,/ { split($0, a, ", "); if (index(fds, " " a[3] " ")) zero += $NF }
    /^sendfile\(/ { if (index(fds, " " fd_of($0) " ")) zero += $NF }
    /^write\(/ { if (index(fds, " " fd_of($0) " ")) copied += $NF }
    END { if (zero + copied == 0) print 0; else printf "%d\n", 100 * zero / (zero + copied) }
  ' "$trace"
}


# The end is found by a read(2) that returns 0: its size is a hint.
check 'strace: ktee o1 o2 < FILE | cat moves >= 99% by copy_file_range and splice' \
  'head -c 67108864 /dev/zero > in
   wrap="$NO_LEAK_CHECK strace -o $AUX/trace
         -e trace=openat,read,pread64,write,splice,tee,copy_file_range,sendfile --"
   TEE o1 o2 < in | cat > /dev/null
   expect_status 0 && expect_bytes o1 in && expect_bytes o2 in &&
   pct=$(share $AUX/trace 1 $(opened_fd $AUX/trace o1) $(opened_fd $AUX/trace o2)) &&
   test "$pct" -ge 99 || fail "only $pct% of the bytes by zero-copy calls"
   grep -E "^(read|pread64)\\(0,.* = [1-9]" $AUX/trace | head -n 3'

if have_helper sockio; then
  check 'strace: stdout a UNIX socket gets the file by sendfile' \
    'head -c 16777216 /dev/zero > in
     wrap="sockio 1 unix $NO_LEAK_CHECK strace -o $AUX/trace
           -e trace=read,pread64,write,sendfile --"
     TEE < in > out
     expect_status 0 && expect_bytes out in &&
     pct=$(share $AUX/trace 1) && test "$pct" -ge 99 ||
     fail "only $pct% of the bytes by sendfile"'
else
  skip 'strace: stdout a socket' "no $KTEE_TEST_BIN/sockio"
fi

done_testing
