#!/bin/sh
# FILE operands: how many, which names, duplicates, and those that cannot
# be opened or written.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537 1048583

thirteen='f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13'

compare '0 FILEs' \
  'TEE < $DATA/65537'
compare '1 FILE' \
  'TEE a < $DATA/65537'
compare '2 FILEs' \
  'TEE a b < $DATA/65537'
compare '13 FILEs' \
  'TEE '"$thirteen"' < $DATA/65537'
compare '13 FILEs, pipe to pipe, 1 MiB' \
  'cat $DATA/1048583 | TEE '"$thirteen"' | cat'
compare '13 FILEs, with -a, to existing files' \
  'for f in '"$thirteen"'; do echo $f > $f; done
   TEE -a '"$thirteen"' < $DATA/4097'

compare 'the same FILE twice' \
  'TEE a a < $DATA/65537'
compare 'the same FILE twice, with -a' \
  'TEE -a a a < $DATA/4097'
compare 'the same FILE under two names' \
  'TEE a ./a < $DATA/65537'
compare 'a FILE named -, which is not stdout' \
  'TEE - < $DATA/4097'
compare 'FILEs named - twice and stdout' \
  'TEE - a - < $DATA/4097 | cat'
compare 'FILE names with spaces, quotes and colons' \
  "TEE 'a b' \"it's\" 'c:d' ' ' < \$DATA/4097"
compare 'a FILE given by absolute path' \
  'TEE "$PWD/a" < $DATA/4097'
compare 'a FILE through a symbolic link' \
  'ln -s target link && TEE link < $DATA/4097'
compare 'a FILE that is a dangling symbolic link' \
  'ln -s nodir/x link && TEE link a < $DATA/4097'

setup 'printf "old content, longer than the input\n%.0s" 1 2 3 > a'
compare 'an existing FILE is truncated' \
  'TEE a < $DATA/4097'
setup 'printf "old\n" > a; chmod 600 a'
compare 'an existing FILE keeps its permissions' \
  'TEE a < $DATA/4097'
compare 'new FILEs get 0666 less the umask' \
  'umask 027 && TEE a < $DATA/4097'

compare 'a FILE in a directory that does not exist' \
  'TEE nodir/x a < $DATA/4097'
compare 'a FILE that is a directory' \
  'mkdir d && TEE a d b < $DATA/4097'
compare 'a FILE below a regular file' \
  'touch f && TEE f/x a < $DATA/4097'
compare 'an empty FILE name' \
  "TEE '' a < \$DATA/4097"
compare 'a FILE name that is too long' \
  'TEE $(printf %0300d 0) a < $DATA/4097'
compare 'a FILE that is a symbolic link loop' \
  'ln -s loop loop && TEE loop a < $DATA/4097'
compare 'several FILEs that cannot be opened, among good ones' \
  'TEE nodir/1 a nodir/2 b . < $DATA/4097'
if test "$(id -u)" != 0; then
  compare 'a FILE without write permission' \
    'touch ro && chmod 444 ro && TEE a ro b < $DATA/4097'
else
  skip 'a FILE without write permission' 'root may write anything'
fi

compare '/dev/full as a FILE' \
  'TEE /dev/full a < $DATA/65537'
compare '/dev/full as a FILE, stdin a pipe' \
  'cat $DATA/65537 | TEE a /dev/full b'
compare '/dev/null as a FILE' \
  'TEE /dev/null a < $DATA/65537'
compare '/dev/full twice and stdout /dev/full' \
  'TEE /dev/full /dev/full < $DATA/65537 > /dev/full'

compare 'a FILE that is a named pipe' \
  'mkfifo p && { cat p > got & TEE p a < $DATA/65537; wait; }'
prefix_of "$DATA/1048583"
compare 'a FILE that is a named pipe whose reader exits early' \
  'mkfifo p && { head -c 10 p > got & TEE p a < $DATA/1048583; wait; }'
compare 'a FILE that is a named pipe whose reader exits early, with -p' \
  'mkfifo p && { head -c 10 p > got & TEE -p p a < $DATA/1048583; wait; }'

done_testing
