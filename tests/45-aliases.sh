#!/bin/sh
# Outputs that are one open file or pipe: a FILE named twice, hard links,
# /dev/stdout, /dev/stderr, /proc/self/fd/N, a FIFO named twice.  Their
# copies interleave in GNU tee's 8 KiB blocks, stdout first and then the
# FILEs in order; with an input that gives whole blocks (a regular file,
# or a pipe written 8 KiB at a time) GNU's bytes are deterministic, and
# ktee must give the same ones.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

# A pipe on stdin that delivers whole blocks: dd writes 8 KiB at a time,
# and a pipe with room takes each write whole.
blocks='dd if=$DATA/1048583 bs=8192 status=none |'

for stdin in file pipe; do
  case $stdin in
    file) from= to=' < $DATA/1048583' ;;
    pipe) from=$blocks to= ;;
  esac
  in="stdin a $stdin"

  compare "-a, the same FILE twice, $in" \
    "$from TEE -a a a$to"
  compare "-a, one FILE under two names, $in" \
    "$from TEE -a a ./a b$to"
  compare "-a, a FILE and its hard link, $in" \
    "touch a && ln a l && $from TEE -a a l$to"
  compare "-a, a FILE and its hard link, one existing, $in" \
    "echo start > a && ln a l && $from TEE -a a l b$to"
  compare "/dev/stdout, stdout a pipe, $in" \
    "$from TEE /dev/stdout a$to | cat > out"
  compare "/dev/stdout twice, stdout a pipe, $in" \
    "$from TEE /dev/stdout a /dev/stdout$to | cat > out"
  compare "/dev/stderr, stderr and stdout one pipe, $in" \
    "$from TEE /dev/stderr a$to 2>&1 | cat > out"
  compare "/proc/self/fd/3, fd 3 the stdout pipe, $in" \
    "$from TEE a /proc/self/fd/3$to 3>&1 | cat > out"
  compare "-a /dev/stdout, stdout an O_APPEND file, $in" \
    "$from TEE -a /dev/stdout a$to >> log"
  compare "-a /dev/stdout, stdout a file at its own offset, $in" \
    "$from TEE -a /dev/stdout a$to > log"
  compare "/dev/stdout, stdout an O_APPEND file, $in" \
    "$from TEE /dev/stdout a$to >> log"
  compare "-a, the same FILE twice and stdout a pipe, $in" \
    "$from TEE -a a a$to | cat > out"
  compare "a FIFO named twice, $in" \
    "mkfifo p
     timeout -s KILL \"\$KTEE_TEST_TIMEOUT\" sh -c 'exec cat < p' > r &
     $from TEE p a p$to > out; wait"
done

# Only aliasing outputs interleave: others keep their bytes whatever the
# block size, but they must still get every byte, and the exit modes must
# still stop where GNU tee stops.
compare '-a, the same FILE twice, with other FILEs and a pipe' \
  'TEE -a b a c a < $DATA/1048583 | cat > out'
compare '-a, the same FILE twice, --output-error=exit and /dev/full' \
  'TEE --output-error=exit -a a a /dev/full < $DATA/1048583'
compare '-a, the same FILE twice, small input' \
  'TEE -a a a < $DATA/4097'
compare '-a, the same FILE twice, 64 KiB input from a pipe' \
  "dd if=\$DATA/65537 bs=8192 status=none | TEE -a a a"

done_testing
