#!/bin/sh
# Every size of input reaches standard output and each FILE intact.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

sizes='0 1 4095 4096 4097 65536 65537 1048583'
gen_data $sizes 16777216
gen_binary

for n in $sizes; do
  compare "$n bytes, pipe to pipe, 1 file" \
    'cat $DATA/'$n' | TEE out | cat'
  compare "$n bytes, regular file to regular file, 2 files" \
    'TEE a b < $DATA/'$n
  compare "$n bytes, regular file to pipe, 1 file" \
    'TEE out < $DATA/'$n' | cat'
done

compare '16 MiB, pipe to pipe, 1 file' \
  'cat $DATA/16777216 | TEE out | cat'
compare '16 MiB, regular file to regular file, 2 files' \
  'TEE a b < $DATA/16777216'

compare 'every byte value, NUL included, no final newline' \
  'cat $DATA/binary | TEE out | cat'
compare 'a pipe that delivers 65537 bytes in 3 pieces' \
  '{ head -c 1 $DATA/65537; sleep 0.05; tail -c +2 $DATA/65537 | head -c 65535;
     sleep 0.05; tail -c 1 $DATA/65537; } | TEE out'

done_testing
