#!/bin/sh
# Timing: ktee, its producer or its consumer stopped and continued,
# readers that sleep between reads or leave at a random moment under
# every --output-error mode, and signals that arrive while the zero-copy
# engine is in the middle of a round.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

# Where a case moves all of a big input through three outputs, the slow
# guest (KTEE_TEST_BIG=no) takes half as much: still two rounds of 1 MiB.
if test "${KTEE_TEST_BIG-yes}" = yes; then big=4194304; else big=2097152; fi
gen_data 65537 524309 1048583 4194304 $big

if ! have_helper sigdfl; then
  # Background jobs start with SIGINT ignored; only sigdfl can undo that.
  skip 'timing' "no $KTEE_TEST_BIN/sigdfl"
  done_testing
  exit 0
fi

# pause PID: stop process PID for a moment.  How long does not matter
# for the result, only that it stops while there is work to do.
pause ()
{
  kill -s STOP "$1" && sleep 0.2 && kill -s CONT "$1"
}

# gated_reader FILE: read 64 KiB (or less, in short reads) of standard
# input into FILE, say so in $AUX/ready, then wait for $AUX/go before
# reading the rest.  dd reads no more than it writes, so FILE ends up
# with every byte the reader was given.
gated_reader ()
{
  dd bs=4096 count=16 2>/dev/null > "$1"
  echo > "$AUX/ready"
  wait_for_file "$AUX/go"
  cat >> "$1"
}

# ---- Stopped and continued -------------------------------------------------

for opt in '' -p; do
  o=${opt:-none}

  # ktee is stopped after the first 64 KiB, and the next MiB is written
  # while it is: the input pipe fills up, and the producer waits.
  compare "SIGSTOP and SIGCONT of the tee, options: $o" \
    'mkfifo $AUX/in
     TEE '"$opt"' a < $AUX/in | cat > out &
     exec 5> $AUX/in
     cat $DATA/65537 >&5
     wait_for_size a 65537 && kill -s STOP $(tee_pid)
     cat $DATA/1048583 >&5 & writer=$!
     sleep 0.2
     kill -s CONT $(tee_pid)
     wait $writer
     exec 5>&-
     wait'

  # The producer is stopped while it is blocked on a full pipe: the tee
  # drains the pipe, then waits on an idle input until it goes on.
  compare "SIGSTOP and SIGCONT of the producer, options: $o" \
    'mkfifo $AUX/in
     cat $DATA/4194304 > $AUX/in & producer=$!
     TEE '"$opt"' a < $AUX/in | gated_reader out &
     wait_for_file $AUX/ready && kill -s STOP $producer
     echo > $AUX/go
     sleep 0.2
     kill -s CONT $producer
     wait'

  # The consumer is stopped once it has the first 64 KiB; the next MiB
  # arrives while it is, and the tee blocks on its full pipe.
  compare "SIGSTOP and SIGCONT of the consumer, options: $o" \
    'mkfifo $AUX/in $AUX/out
     cat < $AUX/out > out & consumer=$!
     TEE '"$opt"' a < $AUX/in > $AUX/out &
     exec 5> $AUX/in
     cat $DATA/65537 >&5
     wait_for_size out 65537 && kill -s STOP $consumer
     cat $DATA/1048583 >&5 & writer=$!
     sleep 0.2
     kill -s CONT $consumer
     wait $writer
     exec 5>&-
     wait'
done

# ---- Readers that sleep between reads --------------------------------------

# sleepy_reader FILE: append standard input to FILE 32 KiB at a time (or
# less, when a read comes short), napping between reads, until dd says
# it read nothing.  Two processes a read, for the slow guest's sake.
sleepy_reader ()
{
  : > "$1"
  while dd bs=32768 count=1 2> "$AUX/dd.$1" >> "$1"
        read -r records < "$AUX/dd.$1"
        test "$records" != '0+0 records in'; do
    sleep 0.01
  done
}

for opt in '' -p; do
  o=${opt:-none}
  compare "a sleepy reader on stdout, options: $o" \
    'cat $DATA/524309 | TEE '"$opt"' a | sleepy_reader out'
  compare "a sleepy reader on a FIFO FILE, options: $o" \
    'mkfifo p && { sleepy_reader from-fifo < p & }
     cat $DATA/524309 | TEE '"$opt"' p a > out; wait'
  compare "sleepy readers on stdout and a FIFO FILE, options: $o" \
    'mkfifo p && { sleepy_reader from-fifo < p & }
     cat $DATA/524309 | TEE '"$opt"' a p | sleepy_reader out; wait'
done

# ---- Readers that leave at a random moment ---------------------------------

# A reader takes N bytes, N drawn from a seeded generator the same on
# every system (a 31-bit LCG in shell arithmetic), then exits.  N is at
# most half the input, so the tee always writes again after it left.
seed=${KTEE_TEST_SEED:-$(date +%s)}
echo "# seed $seed (KTEE_TEST_SEED=$seed repeats this run's draws)"
rand=$seed

# draw MAX: set n to a number from 1 to MAX.
draw ()
{
  rand=$(( (rand * 1103515245 + 12345) % 2147483648 ))
  n=$(( rand % $1 + 1 ))
}

# In exit modes the tees take at most 8 KiB per round and write stdout,
# then the FILEs in order, so a FILE after the broken pipe holds every
# round before the failing one: more than N - 8192 bytes.
expect_exit_cut ()
{
  expect_status 1 || return
  is_prefix a $DATA/524309 || fail "a is not a prefix of the input" || return
  test "$(wc -c < a)" -gt $(($1 - 8192)) \
    || fail "a holds $(wc -c < a) bytes, the reader got $1"
}

for mode in '' -p --output-error=warn --output-error=warn-nopipe \
            --output-error=exit --output-error=exit-nopipe; do
  m=${mode:-default}
  # The default and exit modes stop at the broken pipe, where timing
  # decides; the others go on, and every other output is complete.
  cut=
  case $mode in ''|*=exit) cut=yes ;; esac

  draw 262144
  test -z "$cut" || prefix_of "$DATA/524309"
  compare "$m: the reader of stdout leaves after $n bytes" \
    'cat $DATA/524309 | TEE '"$mode"' a | head -c '$n' > got'
  if test "$mode" = --output-error=exit; then
    check "$m: the reader of stdout leaves after $n bytes: a holds the rounds" \
      'cat $DATA/524309 | TEE '"$mode"' a 2> err | head -c '$n' > got
       expect_exit_cut '$n
  fi

  draw 262144
  test -z "$cut" || prefix_of "$DATA/524309"
  compare "$m: the reader of a FIFO FILE leaves after $n bytes" \
    'mkfifo p && { head -c '$n' p > got & }
     cat $DATA/524309 | TEE '"$mode"' p a > out; wait'
  if test "$mode" = --output-error=exit; then
    check "$m: the reader of a FIFO FILE leaves after $n bytes: a holds the rounds" \
      'mkfifo p && { head -c '$n' p > got & }
       cat $DATA/524309 | TEE '"$mode"' p a > out 2> err; wait
       expect_exit_cut '$n
  fi
done

# ---- Signals in the middle of a round --------------------------------------

# The reader takes 64 KiB and stalls, so the tee is blocked with most of
# a round (up to 1 MiB with splice) still to deliver; then SIGNAL comes,
# and the reader goes on.  Without -i, SIGINT and SIGTERM kill at once;
# with -i, SIGINT changes nothing and every output is complete.
# signal_mid_round SIGNAL WHERE OPTION...: the stalled reader is on
# stdout, or on a FIFO FILE after a regular FILE that has the round.
signal_mid_round ()
{
  sig=$1 where=$2
  shift 2
  { wait_for_file $AUX/ready && kill -s $sig $(tee_pid)
    echo > $AUX/go; } &
  if test $where = stdout; then
    cat $DATA/$big | TEE "$@" a | gated_reader out
  else
    mkfifo p
    gated_reader from-fifo < p &
    cat $DATA/$big | TEE "$@" a p > out
  fi
  wait
}

for sig in INT TERM; do
  for opt in '' -i '-i -p'; do
    test $sig = TERM && test "$opt" = '-i -p' && continue
    for where in stdout fifo; do
      test $sig = INT && test -n "$opt" || prefix_of "$DATA/$big"
      compare "SIG$sig mid-round, slow reader on $where, options: ${opt:-none}" \
        'signal_mid_round '$sig' '$where' '"$opt"
    done
  done
done

done_testing
