#!/bin/sh
# Messages in the user's language.  The diagnostics, usage errors, --help
# and --version of the C cases (50-options, 60-errors, 30-stdout,
# 20-stdin, 40-operands) again in German, French, Japanese and Russian,
# compared with GNU tee byte for byte: both look GNU's messages up in
# coreutils' catalog.  Then LANGUAGE, LC_ALL over LANG, LC_MESSAGES alone,
# and locales that coreutils has no catalog for.  A locale that is not
# generated here (.ci/run makes them with localedef), or whose language
# coreutils' catalogs lack, skips its cases.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

gen_data 4097 65537

# How ktee copies does not change its messages, and the C cases run every
# copy method: one is enough here.
KTEE_METHODS=${KTEE_METHODS%% *}

# ---- Locales ---------------------------------------------------------------

# locale_missing LOCALE LANGUAGE: why LOCALE cannot be used here, if it
# cannot: it is not generated, or coreutils has no catalog for LANGUAGE
# (LOCALE's if empty, none needed if "none").  Prints nothing if it can.
locale_missing ()
{
  command -v locale > /dev/null 2>&1 || { echo 'no locale command'; return; }
  want=$(printf %s "$1" | tr -d - | tr '[:upper:]' '[:lower:]')
  locale -a 2>/dev/null | tr -d - | tr '[:upper:]' '[:lower:]' \
    | grep -qxF "$want" || { echo "locale $1 is not generated"; return; }
  lang=${2:-${1%%[_.]*}}
  test "$lang" = none \
    || test -f "/usr/share/locale/$lang/LC_MESSAGES/coreutils.mo" \
    || echo "coreutils has no catalog for $lang"
}

# in_setting NAME ENV LOCALE LANGUAGE: run the cases that follow (lcompare,
# lcheck) with the environment assignments ENV, naming them NAME; they
# skip unless LOCALE is generated and coreutils has a catalog for LANGUAGE
# (as for locale_missing).
in_setting ()
{
  setting=$1 setting_env=$2 why=$(locale_missing "$3" "$4")
}

# lcompare DESCRIPTION COMMAND: compare() in the current setting.
lcompare ()
{
  if test -n "$why"; then
    skip "$setting: $1" "$why"
    end_case        # forget stdout_kind
  else
    compare "$setting: $1" "export $setting_env; $2"
  fi
}

# lcheck DESCRIPTION COMMAND: check() in the current setting.
lcheck ()
{
  if test -n "$why"; then
    skip "$setting: $1" "$why"
  else
    check "$setting: $1" "export $setting_env; $2"
  fi
}

# ---- --help, --version and ktee's own option --------------------------------

# split_help FILE: FILE.body, the --help text up to its last empty line,
# and FILE.close, its closing lines after that, both normalised.
split_help ()
{
  normalise < "$1" > "$1.n"
  last=$(grep -n '^$' "$1.n" | tail -n 1 | cut -d: -f1)
  test -n "$last" || fail "$1: no empty line in --help" || return
  head -n $((last - 1)) "$1.n" > "$1.body"
  tail -n +$((last + 1)) "$1.n" > "$1.close"
}

# help_lines ARG...: in a check(), the --help texts of GNU tee and ktee
# (run with ARG...) in the setting and in C.  Every line GNU prints before
# its closing lines must be in ktee's, in order, and ktee may add there
# only what it adds in C: its own lines, in English as long as ktee has no
# translations.  GNU's closing lines name GNU coreutils, ktee's name ktee:
# each closing line of ktee's is one of its own (those GNU lacks in C),
# untranslated, or one of GNU's closing lines here; all of its own are
# there; and as many of them follow the setting as GNU's do.
help_lines ()
{
  "$BIN/tee" "$@" > g.L && TEE "$@" > k.L && expect_status 0 \
    && LC_ALL=C "$BIN/tee" "$@" > g.C && LC_ALL=C TEE "$@" > k.C || return
  for f in g.L k.L g.C k.C; do
    split_help $f || return
  done
  diff g.C.body k.C.body | grep '^[<>]' > added.C
  diff g.L.body k.L.body | grep '^[<>]' > added.L
  cmp -s added.C added.L || {
    echo "--help differs from GNU's otherwise than in C (- C, + here):"
    diff -u added.C added.L | sed 1,2d
    return 1
  }
  grep -vxFf g.C.close k.C.close > own
  grep -vxFf own k.L.close | grep -vxFf g.L.close > stray
  test ! -s stray || {
    echo "closing lines neither ktee's own nor GNU's here:"
    cat stray
    return 1
  }
  grep -vxFf k.L.close own > lost
  test ! -s lost || { echo "ktee's own closing lines missing:"; cat lost; return 1; }
  test $(($(wc -l < k.L.close) - $(wc -l < g.L.close))) \
       = $(($(wc -l < k.C.close) - $(wc -l < g.C.close))) \
    || fail "closing lines: ktee $(wc -l < k.L.close) here," \
            "$(wc -l < k.C.close) in C; GNU $(wc -l < g.L.close)," \
            "$(wc -l < g.C.close)"
}

# version_lines: in a check(), --version of GNU tee and ktee: the same
# copyright sign after "Copyright", the same licence lines.
version_lines ()
{
  "$BIN/tee" --version > g && TEE --version > k && expect_status 0 || return
  for f in g k; do
    sed -n '2s/^Copyright \([^ ]*\) .*/\1/p' $f > $f.sign
    sed -n '3,/^$/p' $f > $f.licence
  done
  cmp -s g.sign k.sign \
    || fail "copyright sign: tee $(cat g.sign), ktee $(cat k.sign)" || return
  test -s g.licence && cmp -s g.licence k.licence \
    || { echo "licence differs (- tee, + ktee):"
         diff -u g.licence k.licence | sed 1,2d; return 1; }
}

# copy_method_lines: in a check(), the argmatch diagnostic of ktee's own
# --copy-method, set against GNU's for --output-error: the same sentence,
# list heading, quotes around the first valid argument, and closing line.
copy_method_lines ()
{
  "$BIN/tee" --output-error=bad 2>&1 | normalise \
    | sed -n -e 's/output-error/copy-method/' -e '3s/warn/auto/' -e '1,3p;$p' \
    > g
  TEE --copy-method=bad 2>&1 | normalise | sed -n '1,3p;$p' > k
  expect_status 1 && same_bytes 'the diagnostic' g k
}

# ---- The cases -----------------------------------------------------------

# The C cases that print messages, in the current setting.
message_cases ()
{
  # 50-options: argmatch, getopt, --help, --version.
  for arg in ex exi e w '' x foo EXIT 'exit ' ' exit' warn-nopipe-; do
    lcompare "--output-error='$arg' is diagnosed by argmatch" \
      "TEE --output-error='$arg' a < \$DATA/4097"
  done
  lcompare '--output-e=ex is ambiguous' 'TEE --output-e=ex a < $DATA/4097'
  lcompare '-p takes no MODE: -pwarn is -p -w' 'TEE -pwarn < $DATA/4097'
  for args in --bogus -x -ax --p --append=yes --ignore-interrupts=1 \
              'a --bogus' '--bogus --help'; do
    lcompare "getopt: $args" "TEE $args a < \$DATA/4097"
  done
  for args in --help --he '--help a b' '-a --help' '--help --version' \
              '--help --bogus'; do
    lcheck "$args" "help_lines $args"
  done
  for args in --version --vers '--version a' '--version --help' \
              '-i --version'; do
    stdout_kind version
    lcompare "$args" "TEE $args < \$DATA/4097"
  done
  lcheck '--version: copyright sign and licence' version_lines
  lcheck '--copy-method=bad (ktee only) is worded as GNU words its own' \
    copy_method_lines
  lcompare '--help to /dev/full' 'TEE --help > /dev/full'
  lcompare '--version to /dev/full' 'TEE --version > /dev/full'
  lcompare '--help with stdout closed' 'TEE --help >&-'

  # 60-errors: each kind of failure in each MODE.
  for mode in '' -p --output-error --output-error=warn \
              --output-error=warn-nopipe --output-error=exit \
              --output-error=exit-nopipe; do
    m=${mode:-default}
    lcompare "$m: a FILE that cannot be opened" \
      "{ TEE $mode a nodir/x b; cat; } < \$DATA/65537"
    lcompare "$m: read error" "TEE $mode a < ."
    lcompare "$m: write error on a FILE" "TEE $mode /dev/full a < \$DATA/4097"
    lcompare "$m: write error on stdout" "TEE $mode a < \$DATA/65537 > /dev/full"
    lcompare "$m: stdout a pipe whose reader has gone" \
      "broken_stdout TEE $mode a < \$DATA/65537"
  done
  lcompare 'errors are reported in the order they happen' \
    'TEE nodir/1 a /dev/full nodir/2 b /dev/full < $DATA/65537 > /dev/full'
  for name in 'a b' "it's" 'a:b' 'a"b' '$x' '*' '~x' 'tab	x' \
              "$(printf 'new\nline')" "$(printf 'ctl\001x')" \
              "$(printf 'bin\377x')" "$(printf '\342\202\254')" \
              -x 'a\b' "'"; do
    lcompare "the name nodir/$(printf %s "$name" | tr '\n\001\377#' '?')" \
      'TEE a "nodir/$name" < $DATA/4097'
  done

  # 30-stdout, 20-stdin, 40-operands: standard streams and FILEs.
  lcompare 'stdout closed' 'TEE a < $DATA/65537 >&-'
  lcompare 'stdout closed, stdin a pipe, no FILE' 'cat $DATA/4097 | TEE >&-'
  lcompare 'stdout a file open only for reading' \
    'printf old > ro && TEE a < $DATA/4097 1< ro'
  lcompare 'stdin closed' 'TEE a <&-'
  lcompare 'a FILE that is a directory' 'mkdir d && TEE a d b < $DATA/4097'
  lcompare 'a FILE below a regular file' 'touch f && TEE f/x a < $DATA/4097'
  lcompare 'an empty FILE name' "TEE '' a < \$DATA/4097"
  lcompare 'a FILE name that is too long' 'TEE $(printf %0300d 0) a < $DATA/4097'
  lcompare 'a FILE that is a symbolic link loop' \
    'ln -s loop loop && TEE loop a < $DATA/4097'
}

# A few of them, for the settings below.
some_cases ()
{
  lcompare 'argmatch' 'TEE --output-error=bad a < $DATA/4097'
  lcompare 'getopt' 'TEE --bogus a < $DATA/4097'
  lcompare 'open failures' 'TEE "nodir/a b" nodir/c a < $DATA/4097'
  lcompare 'stdout closed' 'TEE a < $DATA/4097 >&-'
  lcompare 'write error' 'TEE --help > /dev/full'
  lcheck '--help' 'help_lines --help'
  lcheck '--version' version_lines
}

for loc in de_DE.UTF-8 fr_FR.UTF-8 ja_JP.UTF-8 ru_RU.UTF-8; do
  in_setting "$loc" "LC_ALL=$loc" "$loc" ''
  # Under valgrind a case takes a second; the code is the same in every
  # language, and memcheck needs only one.
  if test -n "${KTEE_TEST_WRAPPED-}" && test "$loc" != de_DE.UTF-8; then
    why=${why:-"ktee runs under $KTEE_TEST_WRAPPED: de_DE.UTF-8 is enough"}
  fi
  message_cases
done

# LANGUAGE chooses the catalog where the locale is not C.
in_setting 'LANGUAGE=de, LANG=fr_FR.UTF-8' \
  'LC_ALL= LANG=fr_FR.UTF-8 LANGUAGE=de' fr_FR.UTF-8 de
some_cases
# LC_ALL overrides LANG.
in_setting 'LC_ALL=C, LANG=fr_FR.UTF-8' \
  'LC_ALL=C LANG=fr_FR.UTF-8' fr_FR.UTF-8 ''
some_cases
# French messages in an ASCII locale: gettext transliterates them.
in_setting 'LC_MESSAGES=fr_FR.UTF-8, LANG=C' \
  'LC_ALL= LANG=C LC_MESSAGES=fr_FR.UTF-8' fr_FR.UTF-8 ''
some_cases
# Languages that coreutils has no catalog for: English, UTF-8 quotes;
# English locales do not ask for translation bug reports.
in_setting 'is_IS.UTF-8, no catalog' 'LC_ALL=is_IS.UTF-8' is_IS.UTF-8 none
some_cases
in_setting 'en_US.UTF-8' 'LC_ALL=en_US.UTF-8' en_US.UTF-8 none
some_cases
# A locale that does not exist: C.
if locale -a 2>/dev/null | grep -qi '^xx_YY'; then
  why='xx_YY exists here'
else
  why=
fi
setting='LANG=xx_YY.UTF-8, not a locale'
setting_env='LC_ALL= LANG=xx_YY.UTF-8'
some_cases

done_testing
