#!/bin/sh
# Standard input of every kind: what reaches the outputs, what is reported.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

compare 'stdin a pipe' \
  'cat $DATA/65537 | TEE a'
compare 'stdin a regular file' \
  'TEE a < $DATA/1048583'
compare 'stdin a regular file, read from offset 1000 on' \
  '{ dd bs=1000 count=1 of=/dev/null 2>/dev/null; TEE a; } < $DATA/65537'
compare 'stdin a regular file already at its end' \
  '{ cat > /dev/null; TEE a; } < $DATA/4097'
compare 'stdin a regular file, nothing left unread' \
  '{ TEE a; cat; } < $DATA/65537'
# With every output gone after the first block, the offset left behind
# is where cat starts: GNU tee's block size shows.
compare 'stdin a regular file, shared with the next reader, outputs fail' \
  '{ TEE /dev/full > /dev/full; cat > rest; } < $DATA/1048583'
compare 'stdin a regular file opened read-write' \
  'cp $DATA/4097 in && TEE a 0<> in'
compare 'stdin /dev/null' \
  'TEE a < /dev/null'
compare 'stdin /dev/zero, stopped by head' \
  'TEE < /dev/zero | head -c 100000'
compare 'stdin closed' \
  'TEE a <&-'
compare 'stdin closed, no FILE' \
  'TEE <&-'
compare 'stdin a directory' \
  'TEE a < .'
compare 'stdin a named pipe' \
  'mkfifo $AUX/fifo &&
   { cat $DATA/65537 > $AUX/fifo & TEE a < $AUX/fifo; wait; }'
compare 'stdin a slow producer of odd pieces' \
  '{ printf a; sleep 0.1; printf "bc\n"; sleep 0.1; cat $DATA/4097; sleep 0.1;
     printf tail; } | TEE a | cat'
compare 'stdin a slow producer of big pieces' \
  'for i in 1 2 3; do cat $DATA/65537; sleep 0.05; done | TEE a b'
compare 'stdin a slow producer that sends nothing' \
  'sleep 0.2 | TEE a'

if have_helper nonblock; then
  compare 'stdin a non-blocking regular file' \
    'wrap="nonblock 0"; TEE a < $DATA/65537'

  # tests/differences, 1: GNU tee fails here with "read error: Resource
  # temporarily unavailable"; ktee waits for the data.
  check 'stdin a non-blocking pipe that is empty at first' \
    'wrap="nonblock 0"
     { sleep 0.3; cat $DATA/4097; } | TEE a > out 2> err
     expect_status 0 && expect_bytes out $DATA/4097 &&
     expect_bytes a $DATA/4097 && expect_empty err'
  check 'stdin a non-blocking pipe fed in pieces' \
    'wrap="nonblock 0"
     for i in 1 2 3 4; do sleep 0.1; cat $DATA/65537; done | TEE a > out
     cat $DATA/65537 $DATA/65537 $DATA/65537 $DATA/65537 > want
     expect_status 0 && expect_bytes out want && expect_bytes a want'
else
  skip 'stdin non-blocking' "no $KTEE_TEST_BIN/nonblock"
fi

done_testing
