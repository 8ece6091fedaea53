#!/bin/sh
# Standard output of every kind: what reaches it and the FILEs, what is
# reported, and that nothing waits in a buffer.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

compare 'stdout a pipe' \
  'TEE a < $DATA/65537 | cat'
compare 'stdout a regular file' \
  'TEE a < $DATA/65537 > out'
compare 'stdout /dev/null' \
  'TEE a < $DATA/65537 > /dev/null'
compare 'stdout /dev/full' \
  'TEE a < $DATA/65537 > /dev/full'
compare 'stdout /dev/full, stdin a pipe, no FILE' \
  'cat $DATA/65537 | TEE > /dev/full'
compare 'stdout closed' \
  'TEE a < $DATA/65537 >&-'
compare 'stdout closed, stdin a pipe, no FILE' \
  'cat $DATA/4097 | TEE >&-'
compare 'stdout a file open only for reading' \
  'printf old > ro && TEE a < $DATA/4097 1< ro'

setup 'printf "old\n" > out'
compare 'stdout an O_APPEND file' \
  'TEE a < $DATA/65537 >> out'
setup 'printf "old\n" > out'
compare 'stdout an O_APPEND file that is also the FILE, with -a' \
  'TEE -a out < $DATA/4097 >> out'
compare 'stdout the same file as the FILE' \
  'TEE out < $DATA/65537 > out'

prefix_of "$DATA/1048583"
compare 'stdout a reader that exits after 1000 bytes' \
  'TEE a < $DATA/1048583 | head -c 1000'
prefix_of "$DATA/1048583"
compare 'stdout a reader that exits after 1000 bytes, stdin a pipe' \
  'cat $DATA/1048583 | TEE a | head -c 1000'
compare 'stdout a reader that exits after 1000 bytes, with -p' \
  'TEE -p a < $DATA/1048583 | head -c 1000'
compare 'stdout a pipe whose reader has gone' \
  'broken_stdout TEE a < $DATA/65537'
compare 'stdout a pipe whose reader has gone, with -p' \
  'broken_stdout TEE -p a < $DATA/65537'

if have_helper nonblock; then
  compare 'stdout a non-blocking pipe with room for all' \
    'wrap="nonblock 1"; TEE a < $DATA/4097 | cat'
  # tests/differences, 4: GNU tee 9.1 fails with "Resource temporarily
  # unavailable" here; coreutils 9.3 and later, like ktee, wait.
  check 'stdout a non-blocking pipe that fills up' \
    'wrap="nonblock 1"
     TEE a < $DATA/1048583 2> err | { sleep 1; cat; } > out
     expect_status 0 && expect_bytes out $DATA/1048583 &&
     expect_bytes a $DATA/1048583 && expect_empty err'
else
  skip 'stdout a non-blocking pipe' "no $KTEE_TEST_BIN/nonblock"
fi

# POSIX: "The tee utility shall not buffer output."  One byte, with the
# producer still holding the pipe open, must reach stdout and the FILE.
for out in pipe file; do
  check "a single byte reaches stdout and a FILE at once, stdout a $out" \
    'mkfifo $AUX/in $AUX/out
     { printf x; exec sleep 10; } > $AUX/in &
     producer=$!
     if test '$out' = pipe; then
       TEE a < $AUX/in > $AUX/out &
       got=$(timeout 5 dd bs=1 count=1 < $AUX/out 2>/dev/null)
     else
       TEE a < $AUX/in > out &
       wait_for_size out 1 5; got=$(cat out)
     fi
     wait_for_size a 1 5; in_file=$(cat a)
     kill $producer 2>/dev/null; wait
     test "$got" = x || fail "stdout got \"$got\" within 5 s, not x"
     test "$in_file" = x || fail "the FILE got \"$in_file\" within 5 s, not x"'
done

# See tests/differences: in the nopipe modes ktee drops a broken stdout
# pipe while the input is idle, as GNU tee 9.3 does; GNU 9.1 waits.
for mode in -p --output-error=exit-nopipe; do
  check "idle input, stdout's reader gone, $mode: ends at once" \
    'mkfifo $AUX/in
     sleep 6 > $AUX/in &
     producer=$!
     broken_stdout TEE '$mode' < $AUX/in 2> err
     kill $producer 2>/dev/null ||
       fail "it ended only when its input did"
     wait
     expect_status 0 && expect_empty err'
done

done_testing
