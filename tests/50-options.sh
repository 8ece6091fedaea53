#!/bin/sh
# Options: each option and MODE, abbreviations, bad arguments with
# getopt's and argmatch's messages, --help, --version and --.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097

for opt in -a --append --app; do
  setup 'printf "old\n" > a'
  compare "$opt appends to an existing FILE and creates a missing one" \
    'TEE '$opt' a new < $DATA/4097'
done
for opt in -i --ignore-interrupts --ig -p --output-error --output-error=warn \
           --output-error=warn-nopipe --output-error=exit \
           --output-error=exit-nopipe --output-error=warn-n \
           --output-error=warn- \
           --output-error=exit-n --output-e=exit --outp=warn -ai -ia -aip \
           '-p --output-error=exit' '--output-error=exit -p'; do
  compare "$opt copies as usual" \
    'TEE '"$opt"' a < $DATA/4097'
done

# argmatch: an abbreviation must be unambiguous; its message lists MODEs.
for arg in ex exi e w '' x foo EXIT 'exit ' ' exit' warn-nopipe-; do
  compare "--output-error='$arg' is diagnosed by argmatch" \
    "TEE --output-error='$arg' a < \$DATA/4097"
done
compare '--output-e=ex is ambiguous' \
  'TEE --output-e=ex a < $DATA/4097'
compare '--output-error warn: the MODE is optional, so warn is a FILE' \
  'TEE --output-error warn < $DATA/4097'
compare '-p takes no MODE: -pwarn is -p -w' \
  'TEE -pwarn < $DATA/4097'

compare 'unknown long option' \
  'TEE --bogus a < $DATA/4097'
compare 'unknown short option' \
  'TEE -x a < $DATA/4097'
compare 'unknown short option after a known one' \
  'TEE -ax a < $DATA/4097'
compare 'ambiguous or unknown abbreviation --p' \
  'TEE --p a < $DATA/4097'
compare 'an option that takes no argument given one' \
  'TEE --append=yes a < $DATA/4097'
compare '--ignore-interrupts given an argument' \
  'TEE --ignore-interrupts=1 a < $DATA/4097'
compare 'an unknown option after a good FILE' \
  'TEE a --bogus < $DATA/4097'
compare 'an unknown option then --help' \
  'TEE --bogus --help < $DATA/4097'

compare 'options after FILEs still count' \
  'printf "old\n" > a && TEE a -a < $DATA/4097'
compare 'with POSIXLY_CORRECT, options after a FILE are FILEs' \
  'export POSIXLY_CORRECT=1; printf "old\n" > a && TEE a -a < $DATA/4097'
compare '-- ends the options' \
  'TEE -- -a --help < $DATA/4097'
compare '-- after an option' \
  'TEE -a -- --version < $DATA/4097'
compare 'a lone - is a FILE, not an option' \
  'TEE -a - < $DATA/4097'

for args in --help --he '--help a b' '-a --help' '--help --version' \
            '--help --bogus'; do
  stdout_kind help
  compare "$args prints the help and creates no FILE" \
    'TEE '"$args"' < $DATA/4097'
done
for args in --version --vers '--version a' '--version --help' \
            '-i --version'; do
  stdout_kind version
  compare "$args prints the version and creates no FILE" \
    'TEE '"$args"' < $DATA/4097'
done
compare '--help to /dev/full fails with a write error' \
  'TEE --help > /dev/full'
compare '--version to /dev/full fails with a write error' \
  'TEE --version > /dev/full'
compare '--help with stdout closed' \
  'TEE --help >&-'

# Messages follow the locale where it has UTF-8 quotes.
compare 'argmatch message in the C.UTF-8 locale' \
  'export LC_ALL=C.UTF-8; TEE --output-error=foo a < $DATA/4097'
compare 'open failure message in the C.UTF-8 locale' \
  'export LC_ALL=C.UTF-8; TEE "nodir/a b" < $DATA/4097'

done_testing
