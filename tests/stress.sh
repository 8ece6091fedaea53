#!/bin/sh
# stress.sh -- the soak test: many gibibytes through random ktee pipelines.
# Copyright (C) 2026 the ktee developers.  GPLv3+, see src/ktee.c.
#
# Usage: KTEE=/path/to/ktee KTEE_TEST_BIN=DIR sh tests/stress.sh
#        ("make check-stress" sets both)
#
# Each iteration streams a vmsplice producer (stress-gen) through ktee to
# a random set of outputs and checks every output, exactly, with
# stress-check.  The stream describes itself (every 8-byte word encodes
# its offset and the iteration's seed; see tests/stress-pattern.h), so
# "the checksum of every output compared with the input's" is done as
# "every byte and the length of every output verified against the
# expected stream", at memory speed instead of a hash's speed.
#
# An iteration picks, from its seed: the engine (--copy-method auto,
# splice or rw), the input size (64 MiB to 1 GiB, sometimes plus an odd
# tail), -p or --output-error=exit sometimes, standard output (a pipe to
# a checker, sometimes non-blocking; or /dev/null; or an O_APPEND file,
# which ktee must write with write(2)), 0-3 FIFOs each read by a checker,
# 0-2 files on tmpfs (sometimes with -a, write(2) again), sometimes
# /dev/null as an operand, sometimes a non-blocking standard input, and
# for each reader a speed: fast, slow (a pause every MiB) or in small odd
# pieces.  Files are verified and deleted after each iteration, so tmpfs
# holds 3 GiB at most.
#
# Iterations run until both KTEE_STRESS_SECONDS (60) have passed and
# KTEE_STRESS_BYTES (20 GiB) of input have been streamed, or the first
# failure, or KTEE_STRESS_MAX_SECONDS (10 times the first).  Output is
# TAP, one point per iteration and a last one for the byte target, then
# a summary of the bytes and seconds per engine.  Every iteration prints
# its seed: KTEE_STRESS_REPLAY=SEED runs that one iteration again, and
# KTEE_STRESS_SEED=SEED replays a whole run.  KTEE_STRESS_DIR (/dev/shm,
# else $TMPDIR) holds the FIFOs and files.  Exits 1 if anything failed.

set -u
LC_ALL=C
export LC_ALL

test -n "${KTEE-}" || { echo "Bail out! KTEE must name ktee"; exit 1; }
bin=${KTEE_TEST_BIN:-$(cd "$(dirname "$0")" && pwd)}
for p in "$KTEE" "$bin/stress-gen" "$bin/stress-check" "$bin/nonblock"; do
  test -x "$p" || { echo "Bail out! $p is not an executable file"; exit 1; }
done

seconds=${KTEE_STRESS_SECONDS:-60}
target=${KTEE_STRESS_BYTES:-21474836480}
limit=${KTEE_STRESS_MAX_SECONDS:-$((seconds * 10))}
dir=${KTEE_STRESS_DIR:-/dev/shm}
test -d "$dir" && test -w "$dir" || dir=${TMPDIR:-/tmp}
seed=${KTEE_STRESS_SEED:-$((($(date +%s) * 65537 + $$) % 2147483648))}
# Longest any one process of an iteration may take.
per_process=${KTEE_STRESS_TIMEOUT:-120}

work=$(mktemp -d "$dir/ktee-stress.XXXXXX") || exit 1
trap 'rm -rf "$work"' 0
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- Random choices -------------------------------------------------------

# rand N: set r to a pseudo-random number in [0, N) drawn from rng, an
# LCG that shell arithmetic can run the same way everywhere.
rand ()
{
  rng=$(((rng * 1103515245 + 12345) % 2147483648))
  r=$(((rng >> 8) % $1))
}

# pick_speed: set speed to a checker's options for a random reader speed
# and speed_name to a word for the TAP line.
pick_speed ()
{
  rand 4
  case $r in
    0) speed='-z 1000' speed_name=slow ;;
    1) rand 65024; speed="-r $((511 + r))" speed_name=pieces ;;
    *) speed='' speed_name=fast ;;
  esac
}

# ---- One iteration --------------------------------------------------------

# checker NAME SPEED [FILE]: verify FILE (standard input if none) as
# output NAME, recording its status and messages under $it.
checker ()
{
  # shellcheck disable=SC2086 # SPEED is a list of options
  timeout -k 5 "$per_process" "$bin/stress-check" $2 -N "$1" \
    "$iseed" "$size" ${3+"$3"} 2> "$it/err.$1"
  echo $? > "$it/status.$1"
}

# iteration: run one pipeline from seed $iseed; set desc, and set bad to
# what went wrong, empty if every output is exact.
iteration ()
{
  rng=$iseed
  it=$work/it
  rm -rf "$it"
  mkdir "$it" || exit 1

  rand 3
  set -- auto splice rw
  shift "$r"
  engine=$1
  opts=--copy-method=$engine
  rand 961
  mib=$((64 + r))
  rand 10
  case $r in
    0) opts="$opts -p" ;;
    1) opts="$opts --output-error=exit"
       test $mib -le 256 || mib=$((mib / 4)) ;;
  esac
  size=$((mib * 1048576))
  desc_size="$mib MiB"
  rand 4
  if test $r -eq 0; then
    rand 8191
    size=$((size + r + 1))
    desc_size="$desc_size + $((r + 1)) bytes"
  fi

  rand 10
  case $r in
    7) stdout=null ;;
    8) stdout=append ;;
    *) stdout=pipe ;;
  esac
  rand 4; nonblock_in=$((r == 0))
  rand 4; nonblock_out=$((r == 0))
  rand 4; nfifos=$r
  rand 3; nfiles=$r
  rand 4; test $r -ne 0 || opts="$opts -a"
  rand 4; null_operand=$((r == 0))
  test $stdout = pipe || test $((nfifos + nfiles)) -gt 0 || nfifos=1

  # The operands, in a random rotation, and a checker behind each FIFO.
  ops='' desc_out=stdout:$stdout
  j=0
  while test $j -lt $nfifos; do
    mkfifo "$it/fifo$j" || exit 1
    pick_speed
    checker fifo$j "$speed" "$it/fifo$j" &
    ops="$ops $it/fifo$j"
    desc_out="$desc_out fifo:$speed_name"
    j=$((j + 1))
  done
  j=0
  while test $j -lt $nfiles; do
    ops="$ops $it/file$j"
    desc_out="$desc_out file"
    j=$((j + 1))
  done
  if test $null_operand -eq 1; then
    ops="$ops /dev/null"
    desc_out="$desc_out /dev/null"
  fi
  # shellcheck disable=SC2086 # OPS is a list of paths without spaces
  set -- $ops
  if test $# -gt 1; then
    rand $#
    while test $r -gt 0; do
      first=$1
      shift
      set -- "$@" "$first"
      r=$((r - 1))
    done
  fi

  wrap=
  test $nonblock_in -eq 0 || wrap="$bin/nonblock 0"
  if test $nonblock_out -eq 1 && test $stdout = pipe; then
    wrap="$wrap $bin/nonblock 1"
    desc_out="$desc_out (stdout non-blocking)"
  fi
  test $nonblock_in -eq 0 || desc_out="$desc_out (stdin non-blocking)"

  pick_speed
  test $stdout != pipe || desc_out="$desc_out stdout:$speed_name"
  desc="$opts $desc_size, $desc_out"
  # What ran, for the failure's "# command:" line (each FIFO had a
  # stress-check reading it).
  case $stdout in
    pipe) out="| $bin/stress-check ${speed:+$speed }-N stdout $iseed $size" ;;
    null) out='> /dev/null' ;;
    append) out=">> $it/append" ;;
  esac
  command="$bin/stress-gen $iseed $size | ${wrap:+$wrap }$KTEE $opts $* $out"

  # shellcheck disable=SC2086 # WRAP and OPTS are lists of words
  {
    timeout -k 5 "$per_process" "$bin/stress-gen" "$iseed" "$size" \
      2> "$it/err.gen"
    echo $? > "$it/status.gen"
  } | {
    case $stdout in
      pipe) $wrap timeout -k 5 "$per_process" "$KTEE" $opts "$@" ;;
      null) $wrap timeout -k 5 "$per_process" "$KTEE" $opts "$@" \
              > /dev/null ;;
      append) : > "$it/append"
              $wrap timeout -k 5 "$per_process" "$KTEE" $opts "$@" \
                >> "$it/append" ;;
    esac 2> "$it/err.ktee"
    echo $? > "$it/status.ktee"
  } | {
    if test $stdout = pipe; then
      checker stdout "$speed"
    else
      cat > /dev/null
    fi
  }
  wait

  # The files, two at a time, as there are two CPUs to check them.
  j=0
  while test $j -lt $nfiles; do
    checker file$j '' "$it/file$j" &
    j=$((j + 1))
  done
  test $stdout != append || checker append '' "$it/append"
  wait

  bad=
  for f in "$it"/status.*; do
    name=${f##*/status.}
    test "$(cat "$f")" = 0 || bad="$bad $name exited $(cat "$f");"
  done
  for f in "$it"/err.*; do
    test ! -s "$f" || bad="$bad ${f##*/err.} said: $(head -n 3 "$f");"
  done
  rm -rf "$it"
}

# ---- Main loop --------------------------------------------------------------

now_ms () { echo $(($(date +%s%N) / 1000000)); }

# gib BYTES: print BYTES in GiB with one decimal.
gib () { echo "$1" | awk '{ printf "%.1f", $1 / 1073741824 }'; }

# secs MS: print MS milliseconds as seconds with one decimal.
secs () { echo "$1" | awk '{ printf "%.1f", $1 / 1000 }'; }

# account ENGINE BYTES MS: add an iteration to ENGINE's totals.
bytes_auto=0 bytes_splice=0 bytes_rw=0 ms_auto=0 ms_splice=0 ms_rw=0
account ()
{
  case $1 in
    auto) bytes_auto=$((bytes_auto + $2)) ms_auto=$((ms_auto + $3)) ;;
    splice) bytes_splice=$((bytes_splice + $2)) ms_splice=$((ms_splice + $3)) ;;
    rw) bytes_rw=$((bytes_rw + $2)) ms_rw=$((ms_rw + $3)) ;;
  esac
}

n=0 failed=0 total=0
start=$(now_ms)
echo "# ktee soak: seed $seed, at least $(gib "$target") GiB and" \
  "$seconds s; files in $dir"
runseed=$seed
while :; do
  if test -n "${KTEE_STRESS_REPLAY-}"; then
    iseed=$KTEE_STRESS_REPLAY
  else
    rng=$runseed
    rand 2147483647
    runseed=$rng
    iseed=$r
  fi
  t0=$(now_ms)
  iteration
  t1=$(now_ms)
  n=$((n + 1))
  total=$((total + size))
  account "$engine" "$size" $((t1 - t0))
  if test -z "$bad"; then
    echo "ok $n - iteration $n seed=$iseed $desc: all outputs exact" \
      "($(secs $((t1 - t0))) s)"
  else
    echo "not ok $n - iteration $n seed=$iseed $desc"
    echo "# command: $command"
    echo "$bad" | tr ';' '\n' | sed '/^$/d; s/^ */# /'
    echo "# replay with KTEE_STRESS_REPLAY=$iseed"
    failed=$((failed + 1))
    break
  fi
  test -z "${KTEE_STRESS_REPLAY-}" || break
  elapsed=$(($(now_ms) - start))
  if test $elapsed -ge $((seconds * 1000)) && test $total -ge "$target"; then
    break
  fi
  test $elapsed -lt $((limit * 1000)) || break
done
elapsed=$(($(now_ms) - start))

n=$((n + 1))
if test -n "${KTEE_STRESS_REPLAY-}"; then
  echo "ok $n - byte target # SKIP one iteration replayed"
elif test $total -ge "$target"; then
  echo "ok $n - streamed $(gib $total) GiB, at least $(gib "$target") GiB"
else
  echo "not ok $n - streamed $(gib $total) GiB, less than $(gib "$target")" \
    "GiB"
  echo "# command: KTEE_STRESS_SEED=$seed KTEE=$KTEE KTEE_TEST_BIN=$bin" \
    "sh $0"
  failed=$((failed + 1))
fi
echo "1..$n"
echo "# auto: $(gib $bytes_auto) GiB in $(secs $ms_auto) s;" \
  "splice: $(gib $bytes_splice) GiB in $(secs $ms_splice) s;" \
  "rw: $(gib $bytes_rw) GiB in $(secs $ms_rw) s"
echo "# stress: $((n - failed)) passed, $failed failed;" \
  "$(gib $total) GiB in $(secs $elapsed) s, seed $seed"
test $failed -eq 0
