#!/bin/sh
# The docs against the code: every name of src/ that doc/design.md cites
# is still there, the sizes design.md gives beside a constant's name are
# that constant's value, and every place that says how much of a pipe or
# socket ktee copies by read and write says what copy.c and copy-rw.c do.
# A failure says which name or size went stale, and where.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

design=$srcdir/doc/design.md

# Names that design.md cites but that are the kernel's, the C library's or
# FUSE's, not ktee's.  Names in capitals without an underscore (EPIPE,
# SIGXFSZ) are taken to be errno values and signals, and not looked up.
NOT_KTEE='copy_file_range F_GETPIPE_SZ F_SETFL F_SETPIPE_SZ O_APPEND O_DIRECT
  direct_io'

# code FILE...: the C files with their comments blanked, so that a name that
# survives only in a comment counts as gone.
code ()
{
  awk '{
    line = $0; out = ""
    while (line != "") {
      if (in_comment) {
        i = index(line, "*/")
        if (!i) { line = ""; break }
        line = substr(line, i + 2); in_comment = 0; out = out " "
        continue
      }
      i = index(line, "/*"); j = index(line, "//")
      if (j && (!i || j < i)) { out = out substr(line, 1, j - 1); line = "" }
      else if (i) { out = out substr(line, 1, i - 1); line = substr(line, i + 2); in_comment = 1 }
      else { out = out line; line = "" }
    }
    print out
  }' "$@"
}

# prose FILE: FILE as one line, without its fenced code blocks, roff's
# font changes and escapes, and runs of blanks.
prose ()
{
  awk '/^```/ { fenced = !fenced; next } !fenced { printf "%s ", $0 }' "$1" |
    sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\(em/--/g; s/[[:space:]][[:space:]]*/ /g'
}

# verdict DESCRIPTION PROBLEMS READ WHAT: one TAP point, which fails with
# the lines of PROBLEMS, or when READ, the WHAT the check found to check,
# is empty: a check that reads nothing must not pass.
verdict ()
{
  test -s "$3" ||
    echo "found no $4 in doc/design.md: the check reads nothing" >> "$2"
  if test -s "$2"; then
    tap_not_ok "$1" "$2" "reading doc/design.md against src/*.[ch]"
  else
    tap_ok "$1 ($(wc -l < "$3") $4)"
  fi
}

if ! test -f "$design" || ! ls "$srcdir"/src/*.c > /dev/null 2>&1; then
  skip 'doc/design.md cites only names of src/' 'no doc/ or src/ here'
  skip "doc/design.md's sizes are src/'s" 'no doc/ or src/ here'
  skip 'every doc says how much of a stream is read and written' \
    'no doc/ or src/ here'
  done_testing
  exit 0
fi

code "$srcdir"/src/*.[ch] > "$TEST_DIR/code"
prose "$design" > "$TEST_DIR/design"

# ---- (a) the names --------------------------------------------------------

# Each span in backticks that reads as C, as "NAME<TAB>span": foo_bar,
# FOO_BAR, foo (), foo (...), struct foo, enum foo, and expressions such as
# e->block, engines[input_kind (...)] or output_fail (..., EPIPE), whose
# every name is C.  splice(2) is a manual page; main, fd or cat may be
# words.
tr '`' '\n' < "$TEST_DIR/design" | awk 'NR % 2 == 0' | awk '
  function emit (name) { printf "%s\t%s\n", name, span }
  {
    span = s = $0
    if (s ~ /^[a-z0-9_]+\([0-9]\)$/)
      next
    if (s ~ /^(struct|enum) [A-Za-z_][A-Za-z0-9_]*$/) {
      sub (/^[a-z]+ /, "", s); emit(s); next
    }
    if (s ~ /^[A-Za-z_][A-Za-z0-9_]*( ?\((\.\.\.)?\))?$/) {
      sub (/[ (].*/, "", s)
      if (s ~ /_/ || span ~ /\(/)
        emit(s)
      next
    }
    if (s ~ /^[A-Za-z0-9_ ().,>\[\]-]+$/ && s ~ /->|\[|\(/)
      while (match (s, /[A-Za-z_][A-Za-z0-9_]*/)) {
        emit(substr (s, RSTART, RLENGTH)); s = substr (s, RSTART + RLENGTH)
      }
  }' > "$TEST_DIR/cited"

: > "$TEST_DIR/missing"
cut -f 1 "$TEST_DIR/cited" | sort -u > "$TEST_DIR/names"
while read -r name; do
  # shellcheck disable=SC2086 # the list is meant to split
  printf '%s\n' $NOT_KTEE | grep -qx -- "$name" && continue
  case $name in *[!A-Z0-9]*) ;; *) continue ;; esac
  grep -qw -- "$name" "$TEST_DIR/code" && continue
  span=$(awk -F '\t' -v n="$name" '$1 == n { print $2; exit }' \
           "$TEST_DIR/cited")
  echo "doc/design.md cites \`$span\`: no $name in src/*.[ch]" \
    >> "$TEST_DIR/missing"
done < "$TEST_DIR/names"
verdict 'doc/design.md cites only names of src/' "$TEST_DIR/missing" \
  "$TEST_DIR/names" names

# ---- (b) the sizes --------------------------------------------------------

# Every "enum { NAME = EXPR, ... }" of src/, as "NAME VALUE": EXPR is a
# product or sum of numbers and of other such constants, which the shell
# evaluates once their values are known.
awk '{
  while (match ($0, /enum[ \t]*\{[^}]*\}/)) {
    body = substr ($0, RSTART, RLENGTH); $0 = substr ($0, RSTART + RLENGTH)
    sub (/^enum[ \t]*\{/, "", body); sub (/\}$/, "", body)
    n = split (body, item, ",")
    for (k = 1; k <= n; k++)
      if (item[k] ~ /=/) {
        name = item[k]; sub (/=.*/, "", name); gsub (/[ \t]/, "", name)
        expr = item[k]; sub (/^[^=]*=/, "", expr); gsub (/[ \t]/, "", expr)
        print name, expr
      }
  }
}' "$TEST_DIR/code" > "$TEST_DIR/enums.raw"
: > "$TEST_DIR/enums"
for _ in 1 2 3 4; do
  while read -r name expr; do
    grep -q "^$name " "$TEST_DIR/enums" && continue
    # The constants EXPR names, by their values where known.
    for known in $(echo "$expr" | grep -oE '[A-Z][A-Z0-9_]*'); do
      value=$(awk -v n="$known" '$1 == n { print $2; exit }' "$TEST_DIR/enums")
      test -n "$value" && expr=$(echo "$expr" | sed "s/\b$known\b/$value/g")
    done
    # $((expr)) would not evaluate the text of expr in dash.
    # shellcheck disable=SC2004
    case $expr in
      *[!0-9*+\(\)-]*) ;;
      *) echo "$name $(($expr))" >> "$TEST_DIR/enums" ;;
    esac
  done < "$TEST_DIR/enums.raw"
done

# enum_value NAME: the value of src/'s constant NAME, or nothing.
enum_value ()
{
  awk -v n="$1" '$1 == n { print $2; exit }' "$TEST_DIR/enums"
}

# bytes SIZE: "8 KiB", "1 MiB", "64 KiB + 1", "8192 bytes" or "16" in bytes.
bytes ()
{
  # shellcheck disable=SC2086 # SIZE is meant to split
  set -- $1
  case ${2-} in
    KiB) n=$(($1 * 1024)); shift 2 ;;
    MiB) n=$(($1 * 1024 * 1024)); shift 2 ;;
    bytes) n=$1; shift 2 ;;
    *) n=$1; shift ;;
  esac
  test "${1-}" != + || n=$((n + $2))
  echo "$n"
}

# The sizes beside a constant of src/: "`NAME` (SIZE)" or "SIZE (`NAME`)".
size='[0-9]+( KiB| MiB| bytes)?( \+ [0-9]+)?'
{
  grep -oE "\`[A-Z][A-Z0-9_]*\` \($size\)" "$TEST_DIR/design" |
    sed 's/^`\([A-Z0-9_]*\)` (\(.*\))$/\1 \2/'
  grep -oE "$size \(\`[A-Z][A-Z0-9_]*\`\)" "$TEST_DIR/design" |
    sed 's/^\(.*\) (`\([A-Z0-9_]*\)`)$/\2 \1/'
} | sort -u > "$TEST_DIR/quoted"

: > "$TEST_DIR/wrong"
while read -r name quote; do
  value=$(enum_value "$name")
  if test -z "$value"; then
    echo "doc/design.md gives $name as $quote: src/ has no enum { $name = ... }"
  elif test "$(bytes "$quote")" != "$value"; then
    echo "doc/design.md gives $name as $quote ($(bytes "$quote")): src/ says $value"
  fi
done < "$TEST_DIR/quoted" >> "$TEST_DIR/wrong"
verdict "doc/design.md's sizes are src/'s" "$TEST_DIR/wrong" \
  "$TEST_DIR/quoted" 'sizes beside a name'

# ---- (c) the start by read and write ---------------------------------------

# With --copy-method=auto, copy_rw reads a pipe or a socket until the count
# reaches SMALL_INPUT, the last read up to RW_BUFSIZE: the start is at least
# SMALL_INPUT and less than their sum.  Each text says "the first LO to HI
# KiB" and never a bare "first N KiB" of that.
small=$(enum_value SMALL_INPUT)
rwbuf=$(enum_value RW_BUFSIZE)
lo=$((${small:-0} / 1024))
hi=$(((${small:-0} + ${rwbuf:-0}) / 1024))
phrase="first $lo to $hi KiB"

# start_wrong TEXT-FILE NAME: what TEXT-FILE (NAME) says of the start, if
# it is not the phrase.
start_wrong ()
{
  if test -z "$small" || test -z "$rwbuf"; then
    echo "src/ has no enum { SMALL_INPUT = ... } or { RW_BUFSIZE = ... }"
    return
  fi
  grep -oE 'first [0-9]+( to [0-9]+)? KiB' "$1" | sort -u |
    while read -r said; do
      case $said in
        "$phrase") ;;
        "first $lo KiB"|*' to '*) echo "$2 says \"$said\": the start is the $phrase" ;;
      esac
    done
  grep -qF "$phrase" "$1" || echo "$2 does not say \"$phrase\""
}

: > "$TEST_DIR/start"
for doc in README.md man/ktee.x doc/design.md; do
  prose "$srcdir/$doc" > "$TEST_DIR/text"
  start_wrong "$TEST_DIR/text" "$doc" >> "$TEST_DIR/start"
done
if test -s "$TEST_DIR/start"; then
  tap_not_ok "README.md, man/ktee.x and doc/design.md say the $phrase" \
    "$TEST_DIR/start" 'reading README.md, man/ktee.x and doc/design.md'
else
  tap_ok "README.md, man/ktee.x and doc/design.md say the $phrase"
fi

LC_ALL=C "$KTEE" --help 2>&1 | tr '\n' ' ' | sed 's/  */ /g' > "$TEST_DIR/help"
start_wrong "$TEST_DIR/help" 'ktee --help' > "$TEST_DIR/help.wrong"
if test -s "$TEST_DIR/help.wrong"; then
  tap_not_ok "ktee --help says the $phrase" "$TEST_DIR/help.wrong" \
    "LC_ALL=C ktee --help"
else
  tap_ok "ktee --help says the $phrase"
fi

done_testing
