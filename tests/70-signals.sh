#!/bin/sh
# Signals: SIGINT with and without -i, SIGTERM, and SIGPIPE from a broken
# stdout, which kills only in the default mode.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 65537 1048583

if ! have_helper sigdfl; then
  # Background jobs start with SIGINT ignored; only sigdfl can undo that.
  skip 'signals' "no $KTEE_TEST_BIN/sigdfl"
  done_testing
  exit 0
fi

# Send "abc", SIGNAL once it reached the FILE, then "def" and end of file.
signal_mid_stream ()
{
  mkfifo $AUX/in
  TEE "$@" a < $AUX/in > out &
  exec 5> $AUX/in
  printf abc >&5
  wait_for_size a 3 && kill -s $signal $(tee_pid)
  (printf def >&5) 2>/dev/null
  exec 5>&-
  wait
}

for opt in '' -i --ignore-interrupts -p '-i -p'; do
  for signal in INT TERM; do
    compare "SIG$signal mid-stream, options: ${opt:-none}" \
      'signal='$signal'; signal_mid_stream '"$opt"
  done
done

# Stdout a pipe that is full and never read: SIGINT ends the blocked
# write (130) unless -i; then the reader goes, and SIGPIPE ends it (141)
# unless -p too.  How much reached the FILE by then depends on the size
# of the pieces tee copies in, so only a prefix is asked for.  Once the
# tee has opened the FILE, it is soon blocked: a slow start (valgrind)
# must not let the signal come first.
for opt in '' -i '-i -p' '-i --output-error=warn'; do
  prefix_of "$DATA/1048583"
  compare "SIGINT while writing to a full pipe, options: ${opt:-none}" \
    'mkfifo $AUX/out
     exec sleep 30 < $AUX/out &
     reader=$!
     TEE '"$opt"' a < $DATA/1048583 > $AUX/out &
     wait_for_file a && sleep 0.3 && kill -s INT $(tee_pid)
     sleep 0.2
     kill $reader
     wait'
done

compare 'SIGINT ignored on entry stays ignored without -i' \
  'wrap="sigdfl -i INT"; signal=INT; signal_mid_stream'

# SIGPIPE: status 141 in the default mode, none in the -p modes.
prefix_of "$DATA/1048583"
compare 'broken stdout, stdin a pipe: SIGPIPE, status 141' \
  'cat $DATA/1048583 | TEE a | head -c 1'
compare 'broken stdout, stdin a pipe, -p: status 0' \
  'cat $DATA/1048583 | TEE -p a | head -c 1'
compare 'broken stdout, stdin a pipe, warn: status 1' \
  'cat $DATA/1048583 | TEE --output-error=warn a | head -c 1'
compare 'broken stdout and no FILE, -p: ends, status 0' \
  'cat $DATA/1048583 | TEE -p | head -c 1'
compare 'SIGPIPE ignored on entry: EPIPE is silent in the default mode' \
  'wrap="sigdfl -i PIPE"; broken_stdout TEE a < $DATA/65537'
compare 'SIGPIPE ignored on entry: warn still reports EPIPE' \
  'wrap="sigdfl -i PIPE"
   broken_stdout TEE --output-error=warn a < $DATA/65537'
compare 'SIGPIPE ignored on entry, no FILE: ends, status 0' \
  'wrap="sigdfl -i PIPE"; cat $DATA/1048583 | TEE | head -c 1'

done_testing
