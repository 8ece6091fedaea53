#!/bin/sh
# Errors opening, reading and writing, under each --output-error MODE:
# the messages, the exit status, and how much reaches each output.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

for mode in '' -p --output-error --output-error=warn \
            --output-error=warn-nopipe --output-error=exit \
            --output-error=exit-nopipe; do
  m=${mode:-default}

  # In the exit modes an open failure ends tee before it reads anything,
  # so cat gets all the input and b is never created.
  compare "$m: a FILE that cannot be opened" \
    '{ TEE '$mode' a nodir/x b; cat; } < $DATA/65537'
  compare "$m: read error" \
    'TEE '$mode' a < .'
  compare "$m: write error on a FILE, 1 piece of input" \
    'TEE '$mode' /dev/full a < $DATA/4097'
  prefix_of "$DATA/1048583"
  compare "$m: write error on a FILE, 1 MiB of input" \
    'TEE '$mode' a /dev/full b < $DATA/1048583'
  compare "$m: write error on stdout" \
    'TEE '$mode' a < $DATA/65537 > /dev/full'
  compare "$m: stdout a pipe whose reader has gone" \
    'broken_stdout TEE '$mode' a < $DATA/65537'
  prefix_of "$DATA/1048583"
  compare "$m: stdout a reader that exits after 1000 bytes" \
    'TEE '$mode' a < $DATA/1048583 | head -c 1000'
  compare "$m: stdout a pipe whose reader has gone, idle input, no data" \
    'sleep 0.2 | broken_stdout TEE '$mode' a'
  compare "$m: stdout a pipe whose reader has gone, idle input, then data" \
    '{ sleep 0.2; cat $DATA/4097; } | broken_stdout TEE '$mode' a'
done

compare 'errors are reported in the order they happen' \
  'TEE nodir/1 a /dev/full nodir/2 b /dev/full < $DATA/65537 > /dev/full'
prefix_of "$DATA/1048583"
compare 'warn: a FILE that is a pipe whose reader exits early' \
  'mkfifo "p q" && { head -c 10 "p q" > got &
   TEE --output-error=warn a "p q" b < $DATA/1048583; wait; }'

# Names in messages are quoted as coreutils' quotef does.
for name in 'a b' "it's" 'a:b' 'a"b' '$x' '*' '~x' 'tab	x' \
            "$(printf 'new\nline')" "$(printf 'ctl\001x')" \
            "$(printf 'bin\377x')" "$(printf '\342\202\254')" \
            -x 'a\b' "'"; do
  compare "the name nodir/$(printf %s "$name" | tr '\n\001\377#' '?')" \
    'TEE a "nodir/$name" < $DATA/4097' 
done

done_testing
