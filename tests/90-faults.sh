#!/bin/sh
# Faults in the system calls that move the bytes: tee(2), splice(2),
# read(2), write(2) and poll(2) failing, or returning short, on the first
# call or after data has moved.  Every output the fault does not touch
# must hold exactly the input, the touched one a prefix of it; messages
# and exit status are GNU tee's for the same errno on the same output;
# nothing hangs or spins.
#
# Two tools inject the faults, both acting on the real kernel:
# - tests/failsys, a seccomp filter: a call fails every time (a sandbox
#   or a kernel that lacks or forbids it), optionally only on one
#   descriptor.  GNU tee can be put through the very same fault, so
#   those cases are compare()d with it.
# - strace --inject (as coreutils' own tests use it): one call, counted
#   per system call, fails.  GNU tee makes other calls in another order,
#   so these cases are check()ed: the trace says which call was hit and
#   for which output, and the expectation for that output comes from GNU
#   tee run with the same errno injected into its first write to that
#   output (or its first read).
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

# 2 MiB, a whole number of pages: see the short tee(2) cases.
FAULT_SIZE=2097152
gen_data 32768 65537 1048583 $FAULT_SIZE

test -x "$KTEE_TEST_BIN/failsys" && ln -s "$KTEE_TEST_BIN/failsys" "$BIN/"

# The copy methods that splice: the tee(2) and splice(2) cases mean
# nothing for --copy-method=rw, which would pass them without a fault.
SPLICE_METHODS=
for m in $KTEE_METHODS; do
  test "$m" = rw || SPLICE_METHODS="$SPLICE_METHODS $m"
done
ALL_METHODS=$KTEE_METHODS

# splice_methods_only FUNCTION ARG...: run a case for the methods that
# splice; a skip if there are none.
splice_methods_only ()
{
  if test -n "$KTEE_METHODS" && test -z "$SPLICE_METHODS"; then
    skip "$2" "KTEE_METHODS=$KTEE_METHODS has no method that splices"
    return
  fi
  KTEE_METHODS=$SPLICE_METHODS
  "$@"
  KTEE_METHODS=$ALL_METHODS
}

# ---- Every call fails: a sandbox, compared with GNU tee --------------------

if ! have_helper failsys; then
  skip 'seccomp faults' "no $KTEE_TEST_BIN/failsys"
elif ! failsys write:EIO:arg0=99 -- true 2> "$TEST_DIR/failsys.err"; then
  skip 'seccomp faults' \
    "failsys cannot install a filter here: $(head -n 1 "$TEST_DIR/failsys.err")"
else
  # A kernel or sandbox without tee(2)/splice(2), or that forbids them on
  # some descriptors: ktee copies another way, and nothing shows.  GNU
  # tee does not make these calls, so it is the run without the fault.
  for err in ENOSYS EINVAL EPERM; do
    for rule in "tee,splice:$err" "tee:$err" "splice:$err" \
                "splice:$err:arg0=0" "splice:$err:arg2=1" \
                "splice:$err:arg2=3"; do
      compare "sandbox: $rule" \
        'cat $DATA/1048583 | { wrap="failsys '$rule' --"; TEE a b; } |
         cat > out'
    done
  done

  # An output that fails every write with EIO or ENOSPC, however written:
  # the first call on it fails.  fd 1 is stdout, 3 is a, 4 is b.
  for err in EIO ENOSPC; do
    for mode in '' -p --output-error=warn --output-error=exit; do
      m=${mode:-default}
      for fd in 1 3 4; do
        rule="write:$err:arg0=$fd splice:$err:arg2=$fd"
        # In the exit modes, where the copy stopped depends on how much
        # each read took from the pipe.
        case $mode in *exit*) prefix_of "$DATA/1048583" ;; esac
        compare "sandbox, $m: every write to fd $fd fails with $err" \
          'cat $DATA/1048583 | { wrap="failsys '"$rule"' --"; TEE '$mode' a b; } |
           cat > out'
      done
    done
    # The file engine also writes with copy_file_range (fd_out is its
    # argument 2) and sendfile (argument 0).
    compare "sandbox: $err on stdout and on b, stdin a file" \
      'wrap="failsys write:'$err':arg0=1 splice:'$err':arg2=1
             copy_file_range:'$err':arg2=1 sendfile:'$err':arg0=1
             write:'$err':arg0=4 splice:'$err':arg2=4
             copy_file_range:'$err':arg2=4 sendfile:'$err':arg0=4 --"
       TEE a b < $DATA/65537 > out'
  done

  # A lone output, for which ktee makes no copy pipe and tries no tee(2).
  for err in ENOSYS EINVAL EPERM; do
    for rule in "splice:$err" "splice:$err:arg0=0" "splice:$err:arg2=1"; do
      compare "sandbox, no FILE: $rule" \
        'cat $DATA/1048583 | { wrap="failsys '$rule' --"; TEE; } | cat > out'
    done
  done
  for err in EIO ENOSPC; do
    rule="write:$err:arg0=1 splice:$err:arg2=1"
    compare "sandbox, no FILE: every write to stdout, a pipe, fails with $err" \
      'cat $DATA/1048583 | { wrap="failsys '"$rule"' --"; TEE; } | cat > out'
    compare "sandbox, no FILE: every write to stdout, a file, fails with $err" \
      'cat $DATA/1048583 | { wrap="failsys '"$rule"' --"; TEE; } > out'
  done

  for err in EIO EINVAL; do
    compare "sandbox, no FILE: every read of stdin fails with $err" \
      'cat $DATA/1048583 |
       { wrap="failsys read:'$err':arg0=0 splice:'$err':arg0=0 --"; TEE; } > out'
    compare "sandbox: every read of stdin fails with $err, stdin a pipe" \
      'cat $DATA/1048583 |
       { wrap="failsys read:'$err':arg0=0 splice:'$err':arg0=0 --"; TEE a; } > out'
    compare "sandbox: every read of stdin fails with $err, stdin a file" \
      'wrap="failsys read:'$err':arg0=0 splice:'$err':arg0=0
             pread64:'$err':arg0=0 copy_file_range:'$err':arg0=0
             sendfile:'$err':arg1=0 --"
       TEE a < $DATA/65537 > out'
  done
fi

# ---- One call fails: strace --inject ---------------------------------------

have_strace=
if ! can_strace; then
  why_no_strace=$no_strace
elif ! strace -o /dev/null true > /dev/null 2>&1; then
  why_no_strace='strace cannot trace here (ptrace not permitted)'
else
  have_strace=yes
fi

# Which call glibc's poll() makes: poll where the architecture has it.
POLL=poll
if test -n "$have_strace"; then
  # (-p with stdout a pipe: ktee polls for a broken pipe.)
  STRACE -o "$TEST_DIR/poll.trace" -e trace=poll,ppoll \
    "$KTEE" -p --copy-method=rw < /dev/null 2> /dev/null | cat
  grep -q '^ppoll(' "$TEST_DIR/poll.trace" && POLL=ppoll
  # The dynamic loader reads the libraries with read(2) before main():
  # read faults are counted from the first read ktee itself makes.
  STRACE -o "$TEST_DIR/ld.trace" -e trace=read "$KTEE" --version > /dev/null
  LOADER_READS=$(grep -c '^read(' "$TEST_DIR/ld.trace")
  strace -o "$TEST_DIR/ld.trace" -e trace=read "$GNU_TEE" --version > /dev/null
  GNU_LOADER_READS=$(grep -c '^read(' "$TEST_DIR/ld.trace")
fi

# file_fd TRACE NAME: the descriptor the traced tee opened FILE NAME on.
file_fd ()
{
  sed -n "s/^openat(AT_FDCWD, \"$2\",.* = \([0-9]*\)\$/\1/p" "$1" | head -n 1
}

# is_probe LINE: the traced call LINE only asks whether a later call
# would work: splice or tee with SPLICE_F_NONBLOCK before any data, or a
# poll that does not wait.  A fault there only changes how ktee copies.
is_probe ()
{
  case $1 in
    *SPLICE_F_NONBLOCK*) true ;;
    poll\(*'], 1, 0)'* | ppoll\(*'], 1, {tv_sec=0, tv_nsec=0}'*) true ;;
    *) false ;;
  esac
}

# fault_lineno TRACE: the line number of the injected call that counts:
# the first that is not a probe, else the first; empty if none.
fault_lineno ()
{
  grep -n '(INJECTED)$' "$1" > "$1.injected"
  while IFS= read -r l; do
    is_probe "${l#*:}" || { echo "${l%%:*}"; return; }
  done < "$1.injected"
  sed -n '1s/:.*//p' "$1.injected"
}

# fault_role TRACE LINENO: what the injected call on line LINENO was for:
# "input", "output NAME", "probe", "pipes" (tee or splice between ktee's
# own pipes), "own-read" (reading ktee's own pipe), "watch" (the -p
# modes' wait for a broken pipe while the input is idle).
fault_role ()
{
  line=$(sed -n "$2p" "$1")
  is_probe "$line" && { echo probe; return; }
  call=${line%%(*}
  args=$(printf '%s\n' "$line" | sed 's/^[a-z0-9_]*(//; s/) *= .*//')
  fd_a=$(file_fd "$1" a) fd_b=$(file_fd "$1" b)
  case $call in
    read) fd=${args%%,*}; out=none ;;
    write) out=${args%%,*}; fd=none ;;
    splice) fd=${args%%,*}; out=$(echo "$args" | cut -d, -f3 | tr -d ' ') ;;
    tee) fd=${args%%,*}; out=$(echo "$args" | cut -d, -f2 | tr -d ' ') ;;
    poll | ppoll)
      case $args in *'}, {'*) echo watch; return ;; esac
      fd=$(echo "$args" | sed 's/^\[{fd=\([0-9]*\),.*/\1/')
      case $args in *POLLOUT*) out=$fd fd=none ;; *) out=none ;; esac ;;
    *) echo "unexpected: $line"; return ;;
  esac
  case $fd:$out in
    0:*) echo input ;;
    none:none) echo "unexpected: $line" ;;
    [0-9]*:none) echo own-read ;;
    *:1) echo "output standard output" ;;
    *:"$fd_a") echo "output a" ;;
    *:"$fd_b") echo "output b" ;;
    *) echo pipes ;;
  esac
}

# gnu_verdict SPEC TEE-ARG...: what GNU tee prints and its exit status,
# in $AUX/gnu/, when the call strace's inject SPEC names fails.  GNU tee
# reads a block, then writes it to stdout, a and b in turn, so
# write:...:when=1, 2 or 3 is the first write to stdout, a or b.
gnu_verdict ()
{
  spec=$1
  shift
  mkdir -p "$AUX/gnu" &&
  (cd "$AUX/gnu" && rm -f a b out &&
   timeout -s KILL "$KTEE_TEST_TIMEOUT" \
     $SIGDFL strace -o trace -e inject=$spec -- \
       "$BIN/tee" "$@" < "$DATA/65537" > out 2> err
   echo $? > status)
  normalise < "$AUX/gnu/err" > "$AUX/gnu/err.n"
}

# gnu_read_verdict ERRNO TEE-ARG...: gnu_verdict for GNU tee's first
# read of stdin failing with ERRNO.
gnu_read_verdict ()
{
  gnu_err=$1
  shift
  gnu_verdict "read:error=$gnu_err:when=$((GNU_LOADER_READS + 1))" "$@" a b
}

# expect_like_gnu: ktee's stderr ($AUX/err) and exit status are GNU's
# in $AUX/gnu.
expect_like_gnu ()
{
  normalise < "$AUX/err" > "$AUX/err.n"
  test -s "$AUX/gnu/err.n" || fail "GNU tee printed nothing under the fault"
  cmp -s "$AUX/gnu/err.n" "$AUX/err.n" || {
    echo "stderr differs from GNU's (- tee, + ktee):"
    diff -u "$AUX/gnu/err.n" "$AUX/err.n" | sed 1,2d
    return 1
  }
  expect_status "$(cat "$AUX/gnu/status")"
}

# expect_prefix FILE: FILE holds a prefix of the input.
expect_prefix ()
{
  is_prefix "$1" "$FAULT_IN" ||
    fail "$1 ($(wc -c < "$1") bytes) is not a prefix of the input"
}

# name_file NAME: the file holding output NAME.
name_file ()
{
  case $1 in 'standard output') echo out ;; *) echo "$1" ;; esac
}

# The files a fault case gives ktee besides standard output ("out").
FAULT_FILES='a b'

# expect_whole: standard output and every file hold the whole input.
expect_whole ()
{
  for f in out $FAULT_FILES; do
    expect_bytes $f "$FAULT_IN" || return
  done
}

# expect_fault ERRNO WHEN TEE-ARG...: after a run of ktee under strace
# with one fault ERRNO injected, the trace shows the fault was injected
# (WHEN "later": after data moved) and there was no busy loop, and the
# outputs out, a and b, stderr and status are as the fault's role says.
expect_fault ()
{
  err=$1 when=$2
  shift 2
  n=$(fault_lineno "$AUX/trace")
  test -n "$n" || fail "the fault was never injected" || return
  role=$(fault_role "$AUX/trace" "$n")
  call=$(sed -n "$n{s/(.*//;p;}" "$AUX/trace")
  case $role in unexpected*) fail "$role"; return ;; esac
  calls=$(wc -l < "$AUX/trace")
  test "$calls" -lt 20000 || fail "$calls traced calls: a busy loop" ||
    return
  if test "$when" = later; then
    sed "$n,\$d" "$AUX/trace" |
      grep -Eq '^(read\(0|write|splice\(0).* = [1-9][0-9]*$' ||
      fail "no data moved before the fault ($role)" || return
  fi

  # A faked count is only a kernel's behaviour if it is below the count
  # asked for: see the short-return cases.
  case $err in
    retval=*)
      asked=$(sed -n "${n}p" "$AUX/trace" | cut -d, -f3 | tr -d ' ')
      test "${err#retval=}" -lt "$asked" ||
        fail "injected $err into a call for $asked bytes: not a short count" ||
        return ;;
  esac

  case $err:$call:$role in
    EINTR:* | EAGAIN:* | *:probe | *:watch \
    | EINVAL:splice:* | ENOSYS:splice:* | EPERM:splice:* \
    | ENOSPC:splice:input | ENOSPC:splice:output* \
    | retval=0:splice:output*)
      # Retried, or the bytes go another way (ENOSPC: read or write,
      # which may not fail where a large splice did): nothing shows.
      expect_status 0 && expect_empty "$AUX/err" && expect_whole ;;
    *:pipes)
      # The round is rescued from ktee's own pipes or socket with
      # write(2): make sure it was, or this would pass without the rescue.
      sed "1,${n}d" "$AUX/trace" | grep -q '^write(' ||
        fail "no write after the fault: the rescue path was not taken" ||
        return
      expect_status 0 && expect_empty "$AUX/err" && expect_whole ;;
    *:own-read)
      # Bytes that ktee's own pipe will not give back are lost: that is
      # reported as GNU reports a read error, and the copy stops.
      gnu_read_verdict "$err" "$@" && expect_like_gnu &&
      for f in out $FAULT_FILES; do expect_prefix $f || return; done ;;
    *:input)
      gnu_read_verdict "$err" "$@" && expect_like_gnu && expect_prefix out &&
      for f in $FAULT_FILES; do expect_bytes $f out || return; done ;;
    *:output*)
      name=${role#output }
      case $name in 'standard output') k=1 ;; a) k=2 ;; b) k=3 ;; esac
      gnu_verdict "write:error=$err:when=$k" "$@" a b && expect_like_gnu &&
      for f in out $FAULT_FILES; do
        if test "$f" = "$(name_file "$name")"; then
          expect_prefix $f || return
        else
          case $* in
            *exit*) expect_prefix $f ;;
            *) expect_bytes $f "$FAULT_IN" ;;
          esac || return
        fi
      done ;;
    *) fail "no expectation for $err on a $role call" ;;
  esac
}

# strace_wrap SPEC: run TEE under strace, injecting SPEC.
strace_wrap ()
{
  wrap="$NO_LEAK_CHECK strace -o $AUX/trace -s 4 -e signal=none
        -e trace=openat,read,write,splice,tee,$POLL -e inject=$1 --"
}

FAULT_IN=$DATA/$FAULT_SIZE

# wait_for_line FILE ERE: wait until a line of FILE matches ERE.
wait_for_line ()
{
  wait_until "$KTEE_TEST_TIMEOUT" "no line $2 in $1 after $KTEE_TEST_TIMEOUT s" \
    has_line "$1" "$2"
}

# has_line FILE ERE: a line of FILE, which may not exist yet, matches ERE.
has_line ()
{
  grep -Eq "$2" "$1" 2> /dev/null
}

# poll(2) failing.  GNU tee 9.1 never polls, so there is nothing to
# compare with; ktee polls only where GNU would read or write instead,
# and a failed poll is taken for a failure of that read or write:
# - waiting for a non-blocking input (GNU would read, and fail with
#   EAGAIN): reported as GNU reports a read error with poll's errno,
#   exit status 1, every output keeping what was copied before;
# - waiting for room on a non-blocking output (coreutils 9.3 and later
#   wait there too): that output fails as on a write error;
# - watching for a broken pipe in the -p modes while the input is idle
#   (the "watch" cases above): only an early exit is lost, and the copy
#   goes on as GNU 9.1's does, without a word.
# EINTR, and EAGAIN, which POSIX says a later call may not get, are
# tried again.  Both engines must do the same.

# A fault injected into a poll that waits (a probe does not); when it is
# in the trace, the case can go on.
WAITED='\], 1, (-1|NULL)[,)].*\(INJECTED\)$'

# poll_in_case ERRNO WHEN: stdin a non-blocking FIFO, empty at first
# (WHEN "first") or holding 4097 bytes ("later"); the first poll that
# waits for it fails with ERRNO; then the rest of the input comes.  The
# zero-copy engine may first poll without waiting, a probe: hence two
# faults, of which fault_lineno takes the one that counts, and the rest
# of the input comes only once that one is in the trace.  The test
# holds the FIFO open for reading too, so that writing the rest never
# blocks, whatever ktee did.  (ktee must not inherit that descriptor,
# nor a copy a shell saves while redirecting, hence the exec.)
poll_in_case ()
{
  case $2 in first) pre=0 ;; later) pre=4097 ;; esac
  check "strace: poll for stdin fails with $1 ($2)" \
    'FAULT_IN=$DATA/32768
     strace_wrap '$POLL:error=$1:when=1..2'
     wrap="nonblock 0 $wrap"
     mkfifo $AUX/in && exec 5<> $AUX/in && head -c '$pre' $FAULT_IN >&5 &&
     { (exec 5>&-; TEE a b < $AUX/in > out 2> $AUX/err) & } &&
     wait_for_line $AUX/trace "$WAITED" &&
     tail -c +'$((pre + 1))' $FAULT_IN >&5
     exec 5>&-
     wait
     expect_fault '$1' '$2
}

# poll_out_case ERRNO: stdout a non-blocking FIFO whose reader starts
# reading only once the fault is injected: the first poll that waits for
# room fails with ERRNO.
poll_out_case ()
{
  check "strace: poll for room on stdout fails with $1" \
    'strace_wrap '$POLL:error=$1:when=1..2'
     wrap="nonblock 1 $wrap"
     mkfifo $AUX/out &&
     { { wait_for_line $AUX/trace "$WAITED"; cat > out; } < $AUX/out & } &&
     cat $FAULT_IN | TEE a b > $AUX/out 2> $AUX/err
     wait
     expect_fault '$1' first'
}

# inject_case SCENARIO CALL FAULT WHEN N MODE...: one strace case, FAULT
# (an errno, or retval=COUNT) injected into call N of CALL.  SCENARIO
# "files": stdout, a and b regular files, which take splice; "append": a
# and b opened with -a, so that the zero-copy engine too writes them
# with write(2) and reads its own pipes with read(2); "watch": -p and
# stdout a pipe, so that every round polls; "strip": stdout a pipe, so
# that every round goes through the socket pair that clears packet
# mode; "lone": the same with no FILE.  $note ends the description.
inject_case ()
{
  scenario=$1 call=$2 err=$3 when=$4 n=$5
  shift 5
  case $err in
    retval=*) spec=$call:$err:when=$n what="returns ${err#retval=}" ;;
    *) spec=$call:error=$err:when=$n what="fails with $err" ;;
  esac
  desc="strace: $call #$n $what ($when), $scenario${1:+, $*}${note:+ $note}"
  files='a b'
  case $scenario in
    files) run='TEE $opts a b > out 2> $AUX/err' ;;
    strip) run='TEE $opts a b 2> $AUX/err | cat > out' ;;
    lone) files=
          run='TEE $opts 2> $AUX/err | cat > out' ;;
    append) if test -n "$append_splices"; then
              skip "$desc" "$append_splices"
              return
            fi
            set -- "$@" -a
            run='TEE $opts a b > out 2> $AUX/err' ;;
    watch) set -- "$@" -p
           run='TEE $opts a b 2> $AUX/err | cat > out' ;;
  esac
  case $call in read) spec=$call:error=$err:when=$((n + LOADER_READS)) ;; esac
  body='opts="'"$*"'" FAULT_FILES="'"$files"'"
        strace_wrap '$spec'
        cat $FAULT_IN | '"$run"'
        expect_fault '$err' '$when' $opts'
  case $call in
    splice | tee) splice_methods_only check "$desc" "$body" ;;
    *) check "$desc" "$body" ;;
  esac
}

# random_pairs COUNT LO1 HI1 LO2 HI2: COUNT lines "X Y", X in LO1..HI1
# and Y in LO2..HI2, drawn from $SEED.
random_pairs ()
{
  awk -v seed="$SEED" -v n="$1" -v lo1="$2" -v hi1="$3" -v lo2="$4" \
      -v hi2="$5" 'BEGIN {
    srand(seed)
    for (i = 0; i < n; i++)
      print lo1 + int(rand() * (hi1 - lo1 + 1)), lo2 + int(rand() * (hi2 - lo2 + 1))
  }'
}
SEED=${KTEE_TEST_SEED:-$(date +%s)}
# A failure's "# alone:" line draws the same again.
rerun_env="KTEE_TEST_SEED=$SEED "

# The "append" cases need a kernel that refuses to splice into O_APPEND
# files, so that ktee writes them: every kernel does today (kernel/README.md
# says why the RFC that let splice(2) append was dropped).
append_splices=
if ! have_helper splice-append; then
  append_splices="no $KTEE_TEST_BIN/splice-append"
elif splice-append "$TEST_DIR/append-probe"; then
  append_splices='this kernel splices into O_APPEND files'
fi

if test -z "$have_strace"; then
  skip 'strace fault injection' "$why_no_strace"
else
  # Which call a number hits depends on the engine (see fault_role): in
  # "files", splice #1 is ktee's check that splice works, then each
  # round splices stdin, stdout, a, b; tee #1 is the check, then each
  # round tees for stdout and a.
  for err in EIO ENOSPC EAGAIN EINTR ENOSYS EINVAL EPERM; do
    inject_case append write $err first 1
    inject_case append write $err later 3
    inject_case append read $err first 1
    inject_case append read $err later 3
    inject_case files splice $err first 1
    inject_case files splice $err first 2
    inject_case files splice $err first 4
    inject_case files splice $err later 6
    inject_case files splice $err later 7
    inject_case files tee $err first 1
    inject_case files tee $err first 2
    inject_case files tee $err later 5
    inject_case watch $POLL $err first 1
    inject_case watch $POLL $err later 3
    # "strip" and "lone": splice #1 is the check, then the first round
    # splices stdin into the master, the master into the socket, the
    # socket into the copy pipe, then the outputs.  How many calls a
    # round takes later depends on how fast stdout's reader reads.
    for n in 2 3 4 5; do
      inject_case strip splice $err first $n
      inject_case lone splice $err first $n
    done
    inject_case strip splice $err later 9
    inject_case lone splice $err later 7
  done
  for err in EIO ENOSPC EAGAIN EINTR EINVAL ENOMEM; do
    if have_helper nonblock; then
      poll_in_case $err first
      poll_in_case $err later
      poll_out_case $err
    else
      skip "strace: poll for stdin and stdout" "no $KTEE_TEST_BIN/nonblock"
    fi
  done
  for err in EIO ENOSPC; do
    for mode in -p --output-error=exit; do
      inject_case append write $err first 1 $mode
      inject_case append write $err later 3 $mode
      inject_case files splice $err first 3 $mode
      inject_case files splice $err later 8 $mode
      inject_case strip splice $err first 5 $mode
      inject_case lone splice $err first 5 $mode
    done
  done

  # Short returns.  strace's retval= does not run the call, it only
  # fakes its result, so it models a kernel only where the faked result
  # is what that kernel could have done while doing nothing more:
  # - tee(2) copies without consuming, and ktee treats any count but the
  #   whole round as a fault, rescuing the round from the master pipe;
  #   so a faked short count below the round (the data are whole pages,
  #   so every round is at least 4096 bytes) behaves as a real one.  A
  #   count of 0 is the kernel race of kernel/0001-*.patch.
  # - splice(2) to an output returning 0 moved nothing, which the faked
  #   call did not either; ktee must not spin, and writes it instead.
  #   Into or out of ktee's socket pair it is a fault, which the round
  #   survives.
  # A faked count above 0 on splice, read or write would claim bytes
  # moved that were not (lost or repeated bytes no kernel produces);
  # those short counts are made for real below, by the kernel itself.
  random_pairs 4 2 5 0 4095 > "$TEST_DIR/pairs"
  while read -r k count; do
    note="(seed $SEED)"
    inject_case files tee retval=$count later $k
  done < "$TEST_DIR/pairs"
  note=
  inject_case files tee retval=0 first 2
  inject_case files tee retval=0 later 5
  inject_case files splice retval=0 first 3
  inject_case files splice retval=0 later 8
  for n in 3 4 5; do
    inject_case strip splice retval=0 first $n
  done
  inject_case lone splice retval=0 first 5
fi

# count_short TRACE: how many splice(2) or write(2) calls to stdout in
# TRACE moved some bytes, but fewer than asked for.  (A splice from a
# regular file shows its input offset: "splice(0, [8192], 1, NULL, ...".)
count_short ()
{
  sed -n 's/^splice([0-9]*, [^,]*, 1, NULL, \([0-9]*\), [^)]*) *= \([0-9]*\)$/\1 \2/p
          s/^write(1, [^,]*, \([0-9]*\)) *= \([0-9]*\)$/\1 \2/p' "$1" |
    awk '0 < $2 && $2 < $1 { n++ } END { print n + 0 }'
}

# Real short counts at sizes the timing chooses.  Standard output is a
# non-blocking pipe whose reader starts only once ktee waits for room in
# it, and then takes small odd pieces.  Every splice(2) of more than the
# pipe has room for (a round of the zero-copy engine once the producer,
# writing odd pieces, is ahead) comes back short; so does the first
# splice(2) from a regular file (or write(2) of an 8 KiB block, with
# --copy-method=rw) once the reader has freed one 4 KiB page of the full
# pipe, and waits a little.  The
# trace proves they did, so these cannot pass without a short count.
if test -z "$have_strace"; then
  skip 'real short counts' "$why_no_strace"
elif ! have_helper nonblock; then
  skip 'real short counts' "no $KTEE_TEST_BIN/nonblock"
else
  random_pairs 3 4097 200000 1 4096 > "$TEST_DIR/pairs"
  while read -r r1 r2; do
    splice_methods_only check \
      "short splices: stdin pieces of $r1, stdout read in pieces of $r2 (seed $SEED)" \
      'wrap="nonblock 1 $NO_LEAK_CHECK strace -o $AUX/trace -s 4 -e trace=splice,write,$POLL --"
       dd if=$FAULT_IN bs='$r1' 2> /dev/null | TEE a 2> $AUX/err |
       { wait_for_line $AUX/trace "events=POLLOUT" && dd bs='$r2' 2> /dev/null; } > out
       expect_status 0 && expect_empty $AUX/err &&
       expect_bytes out $FAULT_IN && expect_bytes a $FAULT_IN &&
       test "$(count_short $AUX/trace)" -gt 0 ||
       fail "no short splice or write to stdout"'
    check "short writes: stdin a file, stdout read in pieces of $r2 (seed $SEED)" \
      'wrap="nonblock 1 $NO_LEAK_CHECK strace -o $AUX/trace -s 4 -e trace=splice,write,$POLL --"
       TEE a < $FAULT_IN 2> $AUX/err |
       { wait_for_line $AUX/trace "events=POLLOUT" &&
         dd bs=4096 count=1 2> /dev/null && sleep 0.2 &&
         dd bs='$r2' 2> /dev/null; } > out
       expect_status 0 && expect_empty $AUX/err &&
       expect_bytes out $FAULT_IN && expect_bytes a $FAULT_IN &&
       test "$(count_short $AUX/trace)" -gt 0 ||
       fail "no short write to stdout"'
  done < "$TEST_DIR/pairs"
fi

done_testing
