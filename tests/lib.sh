# lib.sh -- run ktee and GNU tee side by side, compare, report in TAP.
# Copyright (C) 2026 the ktee developers.  GPLv3+, see src/ktee.c.
#
# Sourced by every tests/NN-theme.sh, after which a test reads:
#
#   gen_data 4097                          # makes $DATA/4097
#   setup 'printf old > a'                 # for the next case only
#   compare 'appends to an existing file' 'TEE -a a < $DATA/4097'
#   check 'a ktee-only behaviour' 'TEE < x > out; expect_status 0'
#   done_testing
#
# A case is a shell command in which TEE runs the tee under test.
# compare() runs it once with GNU tee and once per KTEE_METHODS with ktee,
# each time in a fresh working directory at the same absolute path, then
# compares TEE's exit status, the command's stdout and stderr (program
# name normalised) and every file left in the working directory.  check()
# runs it with ktee alone; it passes if the command prints nothing and its
# last status is 0 (the expect_* helpers print what they found wrong).
#
# Environment: KTEE (required), GNU_TEE (/usr/bin/tee), KTEE_METHODS
# ("auto splice rw": auto copies the first 256 to 320 KiB as rw does, so
# splice runs the zero-copy engine on the small inputs of most cases;
# empty: no --copy-method), KTEE_TEST_BIN (where the compiled
# helpers are), KTEE_TEST_TIMEOUT (60 s per tee), KTEE_TEST_VERBOSE (show
# what GNU tee did in passing cases), KTEE_TEST_BIG (yes: run the 4 GiB
# case), KTEE_TEST_WRAPPED (see can_strace), KTEE_TEST_ONLY (an extended
# regular expression: run only the points whose description it matches,
# report the others SKIP), KTEE_TEST_KEEP (1: keep the scratch directory
# and each case's, saying where), srcdir, TMPDIR.
#
# A failed point says the command that failed, with TEE replaced by the
# tee that ran, the case's setup, and how to run that point alone.

# ---- Environment ---------------------------------------------------------

bail_out ()
{
  echo "Bail out! $*"
  exit 1
}

# A shell cannot undo an ignored SIGPIPE: then the producers and readers
# of the cases would not die of it as they do in a terminal, and the tees
# would not either.  Start again under sigdfl, which resets it, or, where
# the helpers are not built (the installed package's tests), under
# coreutils' env --default-signal.
if sh -c 'kill -s PIPE $$' 2>/dev/null; test $? -le 128; then
  test -z "${KTEE_TEST_SIGDFL-}" || bail_out "sigdfl did not reset SIGPIPE"
  KTEE_TEST_SIGDFL=1
  export KTEE_TEST_SIGDFL
  if test -x "${KTEE_TEST_BIN:-$(dirname "$0")}/sigdfl"; then
    exec "${KTEE_TEST_BIN:-$(dirname "$0")}/sigdfl" sh "$0" "$@"
  fi
  exec env --default-signal=PIPE sh "$0" "$@"
fi

test -n "${KTEE-}" || bail_out "KTEE must name the ktee program to test"
case $KTEE in /*) ;; *) KTEE=$(pwd)/$KTEE ;; esac
GNU_TEE=${GNU_TEE:-/usr/bin/tee}
KTEE_METHODS=${KTEE_METHODS-auto splice rw}
KTEE_TEST_BIN=${KTEE_TEST_BIN:-$(cd "$(dirname "$0")" && pwd)}
case $KTEE_TEST_BIN in /*) ;; *) KTEE_TEST_BIN=$(pwd)/$KTEE_TEST_BIN ;; esac
KTEE_TEST_TIMEOUT=${KTEE_TEST_TIMEOUT:-60}
test -x "$KTEE" || bail_out "KTEE=$KTEE is not an executable file"
test -x "$GNU_TEE" || bail_out "GNU_TEE=$GNU_TEE is not an executable file"
# Where ktee-as-tee is installed, /usr/bin/tee is ktee, and every case
# would compare ktee with itself.  configure looks for GNU's elsewhere.
case $(LC_ALL=C "$GNU_TEE" --version 2>/dev/null | sed -n 1p) in
  *'(GNU coreutils)'*) ;;
  *) bail_out "GNU_TEE=$GNU_TEE is not the tee of GNU coreutils" ;;
esac

# Messages in plain ASCII, options parsed the GNU way, files 0644.
LC_ALL=C
export LC_ALL
unset POSIXLY_CORRECT LANGUAGE _STDBUF_O _STDBUF_I
umask 022

if test -n "${KTEE_TEST_ONLY-}"; then
  echo | grep -E -- "$KTEE_TEST_ONLY" > /dev/null 2>&1
  test $? -le 1 || bail_out "KTEE_TEST_ONLY='$KTEE_TEST_ONLY' is not" \
    "an extended regular expression"
fi
case ${KTEE_TEST_KEEP-} in
  '' | 0 | no) keep=false ;;
  *) keep=true ;;
esac

TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ktee-test.XXXXXX") \
  || bail_out "cannot make a scratch directory"

# unmount_all: unmount every file system that a case mounted below
# $TEST_DIR, so that nothing of it outlives the test and removing
# $TEST_DIR removes nothing else.
unmount_all ()
{
  for m in $(awk -v d="$TEST_DIR/" 'index($2, d) == 1 { print $2 }' \
               /proc/mounts 2>/dev/null); do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
}

# leave_test_dir: unmount what the cases mounted, then remove $TEST_DIR,
# or, with KTEE_TEST_KEEP, say where it is.  A test that traps exit
# itself calls it last.
leave_test_dir ()
{
  unmount_all
  if $keep; then
    echo "# kept: $TEST_DIR"
  else
    rm -rf "$TEST_DIR"
  fi
}

trap leave_test_dir 0
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
DATA=$TEST_DIR/data
BIN=$TEST_DIR/bin
mkdir "$DATA" "$BIN" || bail_out "cannot fill $TEST_DIR"

# Both tees are run by name from $BIN, so that messages start with
# "ktee:" and "tee:" rather than with a path.  The helpers are there too.
ln -s "$KTEE" "$BIN/ktee" && ln -s "$GNU_TEE" "$BIN/tee" \
  || bail_out "cannot link the tees into $BIN"
for helper in sigdfl nonblock limit pty packets sockio splice-append \
              fusefile; do
  test -x "$KTEE_TEST_BIN/$helper" && ln -s "$KTEE_TEST_BIN/$helper" "$BIN/"
done
PATH=$BIN:$PATH
export PATH

# Without sigdfl the tees inherit this shell's signal dispositions, which
# is enough but for the cases that signal a background tee.  They are then
# run by path, since busybox sh would run its own tee for a bare "tee".
if test -x "$BIN/sigdfl"; then
  SIGDFL=sigdfl TEE_DIR=
else
  SIGDFL= TEE_DIR=$BIN/
fi

# ---- TAP -----------------------------------------------------------------

tap_n=0

tap_ok ()
{
  tap_n=$((tap_n + 1))
  printf 'ok %d - %s\n' $tap_n "$*"
}

# tap_not_ok DESCRIPTION DIAGNOSTIC-FILE COMMAND: a failed point, then as
# comments the COMMAND that failed, the case's setup, the diagnostic, and
# how to run this point alone and keep its directory (with $rerun_env,
# "NAME=VALUE ", first: what a test drew at random, to draw it again).
tap_not_ok ()
{
  tap_n=$((tap_n + 1))
  printf 'not ok %d - %s\n' $tap_n "$1"
  printf '%s\n' "${3:-(not known)}" | as_comment 'command: '
  test "$case_setup" = : || printf '%s\n' "$case_setup" | as_comment 'setup: '
  if test -s "$2"; then
    head -n 40 "$2" | sed 's/^/# /'
  else
    echo "# (no diagnostic)"
  fi
  only=$(sh_quote "^$(ere_quote "$1")\$")
  echo "# alone: ${rerun_env-}KTEE_TEST_ONLY=$only KTEE_TEST_KEEP=1" \
       "make check TESTS=tests/${0##*/}"
}

# as_comment LABEL: standard input as TAP comments, LABEL on the first.
as_comment ()
{
  sed -e "1s/^/# $1/" -e '1!s/^/# /'
}

# as_run COMMAND WORDS: COMMAND with each word TEE replaced by WORDS, the
# tee that ran ("tee", "ktee --copy-method=rw").
as_run ()
{
  printf '%s\n' "$1" | sed -E -e ':a' \
    -e "s/(^|[^[:alnum:]_\$])TEE([^[:alnum:]_]|\$)/\1$2\2/" -e 'ta'
}

# ere_quote STRING: STRING as an extended regular expression matching it.
ere_quote ()
{
  printf '%s\n' "$1" | sed -e 's/\\/\\\\/g' -e 's/[]*.^$+?(){}|[]/\\&/g'
}

# sh_quote STRING: STRING quoted for the shell.
sh_quote ()
{
  printf "'%s'\n" "$(printf '%s\n' "$1" | sed "s/'/'\\\\''/g")"
}

# skip DESCRIPTION REASON
skip ()
{
  tap_n=$((tap_n + 1))
  printf 'ok %d - %s # SKIP %s\n' $tap_n "$1" "$2"
}

done_testing ()
{
  echo "1..$tap_n"
}

# have_helper NAME: true if the compiled helper NAME can be run.
have_helper ()
{
  test -x "$BIN/$1"
}

# can_strace: true if the cases that run ktee under strace can run here;
# if not, $no_strace says why, for skip().  KTEE_TEST_WRAPPED names a tool
# that ktee runs under (make check-valgrind), which strace would trace too.
can_strace ()
{
  no_strace=
  if test -n "${KTEE_TEST_WRAPPED-}"; then
    no_strace="ktee runs under $KTEE_TEST_WRAPPED"
  elif ! command -v strace > /dev/null 2>&1; then
    no_strace='strace is not installed (.ci/run installs it)'
  fi
  test -z "$no_strace"
}

# zero_copy_only WHAT: from here on, run the cases with the copy methods
# that can move bytes without reading them (all but rw), for cases that
# trace or fault those calls; false, after skipping WHAT, if none is left.
zero_copy_only ()
{
  zero_copy_methods=
  for method in $KTEE_METHODS; do
    test "$method" = rw || zero_copy_methods="$zero_copy_methods $method"
  done
  if test -n "$KTEE_METHODS" && test -z "$zero_copy_methods"; then
    skip "$1" "KTEE_METHODS=$KTEE_METHODS only reads and writes"
    return 1
  fi
  KTEE_METHODS=$zero_copy_methods
}

# opened_fd TRACE NAME: the descriptor on which the program traced (by
# strace, without -f) in TRACE opened the file NAME.
opened_fd ()
{
  sed -n "s/^openat(AT_FDCWD, \"$2\",.* = \([0-9]*\)\$/\1/p" "$1" | head -n 1
}

# LeakSanitizer cannot work under ptrace (make check-sanitizers): what
# strace runs must go without it.  NO_LEAK_CHECK is a command prefix, for
# wrap="$NO_LEAK_CHECK strace ..."; STRACE ARG... runs strace so.
NO_LEAK_CHECK="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
STRACE ()
{
  $NO_LEAK_CHECK strace "$@"
}

# ---- Data ----------------------------------------------------------------

# gen_data SIZE...: make $DATA/SIZE, SIZE bytes of numbered lines, so that
# a lost, doubled or moved block shows.  The last line is cut short.
gen_data ()
{
  for size; do
    test -f "$DATA/$size" && continue
    $SIGDFL seq 1 $((size + 1)) 2>/dev/null | head -c "$size" > "$DATA/$size"
    test "$(wc -c < "$DATA/$size")" -eq "$size" \
      || bail_out "cannot make $size bytes of data"
  done
}

# gen_binary: make $DATA/binary, every byte value 64 times over (16 KiB).
gen_binary ()
{
  test -f "$DATA/binary" && return
  i=0
  while test $i -lt 256; do
    printf "\\$(printf %03o $i)"
    i=$((i + 1))
  done > "$DATA/byte-values"
  for i in 1 2 4 8 16 32; do
    cat "$DATA/byte-values" "$DATA/byte-values" > "$DATA/tmp"
    mv "$DATA/tmp" "$DATA/byte-values"
  done
  mv "$DATA/byte-values" "$DATA/binary"
}

# ---- Running one tee -----------------------------------------------------

# TEE [ARG]...: run the tee under test, bounded in time, with default
# signal dispositions, recording its exit status in $AUX/status and its
# process id in $AUX/pid.  No case sends SIGKILL, so status 137 means
# the timeout killed it.  Words in $wrap go before the program, e.g.
# wrap='nonblock 1' or wrap='sigdfl -i PIPE'.
TEE ()
{
  timeout -s KILL "$KTEE_TEST_TIMEOUT" \
    sh -c 'echo $$ > "$0" && exec "$@"' "$AUX/pid" \
    $SIGDFL ${wrap-} "$TEE_DIR$TEE_PROG" $TEE_OPT "$@"
  echo $? > "$AUX/status"
}

# tee_pid: the process id of the tee started last.
tee_pid ()
{
  cat "$AUX/pid"
}

# wait_until SECONDS MESSAGE COMMAND...: run COMMAND every 50 ms until it
# succeeds; false, printing MESSAGE, if it has not within SECONDS.
wait_until ()
{
  wait_ticks=$(($1 * 20)) wait_message=$2 wait_i=0
  shift 2
  until "$@"; do
    wait_i=$((wait_i + 1))
    test $wait_i -le $wait_ticks || fail "$wait_message" || return 1
    sleep 0.05
  done
}

# has_size FILE SIZE: FILE holds at least SIZE bytes.
has_size ()
{
  test "$({ wc -c < "$1"; } 2>/dev/null || echo 0)" -ge "$2"
}

# wait_for_size FILE SIZE [SECONDS]: wait until FILE holds at least SIZE
# bytes; false if it does not within SECONDS (default: the tee timeout).
wait_for_size ()
{
  wait_until "${3:-$KTEE_TEST_TIMEOUT}" \
    "$1 did not reach $2 bytes in ${3:-$KTEE_TEST_TIMEOUT} s" has_size "$1" "$2"
}

# wait_for_file FILE [SECONDS]: wait until FILE exists, as when a tee
# has opened it; false if it does not within SECONDS (default: the tee
# timeout).
wait_for_file ()
{
  wait_until "${2:-$KTEE_TEST_TIMEOUT}" \
    "$1 did not appear in ${2:-$KTEE_TEST_TIMEOUT} s" test -e "$1"
}

# broken_stdout COMMAND...: run COMMAND (e.g. TEE -p a) with standard
# output a pipe whose reader has already gone, so that the first write
# fails with EPIPE (or SIGPIPE) whatever the timing.
broken_stdout ()
{
  mkfifo "$AUX/broken" || return
  # With exec, no shell keeps a saved copy of fd 4, which would be a reader.
  (exec 4<>"$AUX/broken" > "$AUX/broken" 4<&-; "$@")
}

# run_case LABEL PROGRAM OPTION COMMAND: run COMMAND with TEE meaning
# PROGRAM OPTION..., leaving in $CASE/LABEL/ the files stdout, stderr,
# status, pid and, in files/, the working directory as TEE left it.
run_case ()
{
  rm -rf "$CASE/w" "$CASE/aux"
  mkdir "$CASE/w" "$CASE/aux" || bail_out "cannot make $CASE/w"
  AUX=$CASE/aux TEE_PROG=$2 TEE_OPT=$3
  (cd "$CASE/w" && eval "$case_setup") > "$AUX/setup.log" 2>&1 \
    || bail_out "setup failed: $case_setup: $(cat "$AUX/setup.log")"
  (cd "$CASE/w" && eval "$4") < /dev/null > "$AUX/stdout" 2> "$AUX/stderr"
  mv "$CASE/w" "$AUX/files" && mv "$AUX" "$CASE/$1" \
    || bail_out "cannot keep the results of $1"
}

# for_each_method FUNCTION DESCRIPTION: call FUNCTION LABEL OPTION DESC
# once for each copy method, or once with no option if there are none.
for_each_method ()
{
  if test -z "$KTEE_METHODS"; then
    "$1" ktee '' "$2"
  else
    for method in $KTEE_METHODS; do
      "$1" "ktee-$method" "--copy-method=$method" "$2 [$method]"
    done
  fi
}

# new_case: a fresh $CASE for the case about to run, named by the number
# of its first point.
new_case ()
{
  CASE=$TEST_DIR/case-$((tap_n + 1))
  rm -rf "$CASE"
  mkdir "$CASE" || bail_out "cannot make $CASE"
}

# point_selected DESCRIPTION: KTEE_TEST_ONLY, if set, matches DESCRIPTION.
point_selected ()
{
  test -z "${KTEE_TEST_ONLY-}" \
    || printf '%s\n' "$1" | grep -Eq -- "$KTEE_TEST_ONLY"
}

note_selected ()
{
  point_selected "$3" && any_selected=true
}

skip_unselected ()
{
  skip "$3" 'not selected by KTEE_TEST_ONLY'
}

# selected DESCRIPTION: true if KTEE_TEST_ONLY selects a point of the case
# DESCRIPTION ("DESCRIPTION [METHOD]" for each copy method); if not, its
# points are reported SKIP, and nothing of the case runs.  compare() and
# check() ask it; a test asks it first to leave out a costly preparation:
#   if selected "$d" && make_a_huge_file; then compare "$d" '...'; fi
selected ()
{
  test -z "${KTEE_TEST_ONLY-}" && return 0
  any_selected=false
  for_each_method note_selected "$1"
  $any_selected && return 0
  for_each_method skip_unselected "$1"
  forget_case
  return 1
}

# setup COMMAND: run COMMAND in the working directory before each run of
# the next case, e.g. to make files that exist beforehand.
case_setup=:
setup ()
{
  case_setup=$1
}

# prefix_of FILE: in the next case, an output (standard output or a file)
# may differ from GNU's if both are prefixes of FILE, as when a signal or
# an early-exiting reader stops the tees at a point that depends on timing.
case_prefix_of=
prefix_of ()
{
  case_prefix_of=$1
}

# stdout_kind help|version: in the next case standard output is --help
# or --version text, compared by structure as tests/differences says.
case_stdout=bytes
stdout_kind ()
{
  case_stdout=$1
}

# forget_case: the next case starts with no setup, prefix_of or
# stdout_kind.
forget_case ()
{
  case_setup=:
  case_stdout=bytes
  case_prefix_of=
}

# end_case: forget the case; remove its directory, or with KTEE_TEST_KEEP
# say where it is.
end_case ()
{
  forget_case
  if test -z "${CASE-}"; then
    :
  elif $keep; then
    echo "# kept: $CASE"
  else
    rm -rf "$CASE"
  fi
  CASE=
}

# ---- Comparing -----------------------------------------------------------

# normalise: the program name as GNU and ktee print it, made the same, in
# any language: before a diagnostic ("ktee: ", "ktee : " in French), in
# "Try 'ktee --help'" and in the usage line.  A name with a directory is
# one of ASCII letters, digits and "+-./_".
normalise ()
{
  sed -e 's/^[^ :]*tee\([^[:alnum:]]\)/tee\1/' \
      -e 's|[[:alnum:]+./_-]*tee --help|tee --help|' \
      -e 's|[[:alnum:]+./_-]*tee \[|tee [|'
}

# is_prefix A B: true if file A is a prefix of file B.
is_prefix ()
{
  head -c "$(wc -c < "$1")" "$2" | cmp -s - "$1"
}

# same_bytes NAME GNU-FILE KTEE-FILE: compare, explaining any difference.
same_bytes ()
{
  cmp -s "$2" "$3" && return 0
  if test -n "$case_prefix_of" \
     && is_prefix "$2" "$case_prefix_of" && is_prefix "$3" "$case_prefix_of"
  then
    return 0
  fi
  echo "$1 differs: tee wrote $(wc -c < "$2") bytes, ktee $(wc -c < "$3")"
  cmp "$2" "$3" 2>&1
  test -z "$case_prefix_of" \
    || echo "and they are not both prefixes of the input"
  return 1
}

# differences_list KEY: the regular expressions of tests/differences
# given on lines "KEY: ERE".
differences_list ()
{
  sed -n "s/^$1: //p" "$srcdir/tests/differences"
}

# same_help GNU-FILE KTEE-FILE: the two --help texts are the same but for
# the lines that tests/differences lets differ.
same_help ()
{
  differences_list help-ignore > help-ignore
  for f; do
    normalise < "$f" | grep -Evf help-ignore > "$f.n"
  done
  test -s "$1.n" || fail "GNU --help printed nothing" || return 1
  cmp -s "$1.n" "$2.n" && return 0
  echo "--help differs (- tee, + ktee):"
  diff -u "$1.n" "$2.n" | sed 1,2d
  return 1
}

# same_version GNU-FILE KTEE-FILE: both are --version texts: a first line
# "NAME (PACKAGE) VERSION" and a copyright line.
same_version ()
{
  pattern=$(differences_list version-line)
  for f; do
    head -n 1 "$f" | grep -Eq "$pattern" \
      || fail "$f: first line does not match $pattern: $(head -n 1 "$f")" \
      || return 1
    grep -q '^Copyright ' "$f" || fail "$f: no Copyright line" || return 1
  done
}

# list_files DIR: every file below DIR with its type and permissions.
list_files ()
{
  (cd "$1" && find . -exec stat -c '%A %n' {} + | sed 's| \./| |' | sort)
}

# differences GNU-DIR KTEE-DIR: print how two runs differ; false if they do.
differences ()
{
  same=true
  g_status=$(cat "$1/status" 2>/dev/null || echo none)
  k_status=$(cat "$2/status" 2>/dev/null || echo none)
  if test "$g_status" != "$k_status"; then
    echo "exit status: tee $g_status, ktee $k_status"
    same=false
  fi
  for who in tee:$g_status ktee:$k_status; do
    test "${who#*:}" != 137 && continue
    echo "${who%:*} was killed after $KTEE_TEST_TIMEOUT s: it hung"
    same=false
  done

  normalise < "$1/stderr" > "$1/stderr.n"
  normalise < "$2/stderr" > "$2/stderr.n"
  if ! cmp -s "$1/stderr.n" "$2/stderr.n"; then
    echo "stderr differs (- tee, + ktee):"
    diff -u "$1/stderr.n" "$2/stderr.n" | sed 1,2d
    same=false
  fi

  case $case_stdout in
    help) same_help "$1/stdout" "$2/stdout" || same=false ;;
    version) same_version "$1/stdout" "$2/stdout" || same=false ;;
    *) same_bytes stdout "$1/stdout" "$2/stdout" || same=false ;;
  esac

  list_files "$1/files" > "$1/list"
  list_files "$2/files" > "$2/list"
  if ! cmp -s "$1/list" "$2/list"; then
    echo "files differ (- tee, + ktee):"
    diff -u "$1/list" "$2/list" | sed 1,2d
    same=false
  fi
  while read -r mode name; do
    case $mode in -*) ;; *) continue ;; esac
    test -f "$2/files/$name" || continue
    same_bytes "file $name" "$1/files/$name" "$2/files/$name" || same=false
  done < "$1/list"
  $same
}

# show_run DIR: what a run did, as TAP comments (KTEE_TEST_VERBOSE=1).
show_run ()
{
  echo "# status $(cat "$1/status" 2>/dev/null || echo none)," \
       "stdout $(wc -c < "$1/stdout") bytes, files:" \
       $(cd "$1/files" && find . -type f -exec wc -c {} + | sed 's| \./|:|')
  sed 's/^/# stderr: /' "$1/stderr"
}

compare_method ()
{
  point_selected "$3" || { skip_unselected "$@"; return; }
  run_case "$1" ktee "$2" "$case_command"
  if (cd "$CASE" && differences gnu "$1") > "$CASE/diag" 2>&1; then
    tap_ok "$3"
    test -z "${KTEE_TEST_VERBOSE-}" || show_run "$CASE/gnu"
  else
    tap_not_ok "$3" "$CASE/diag" "$(as_run "$case_command" "ktee${2:+ $2}")"
  fi
}

# compare DESCRIPTION COMMAND: run COMMAND with GNU tee and with ktee;
# one TAP point per copy method.
compare ()
{
  selected "$1" || return 0
  new_case
  case_command=$2
  run_case gnu tee '' "$case_command"
  for_each_method compare_method "$1"
  end_case
}

check_method ()
{
  point_selected "$3" || { skip_unselected "$@"; return; }
  run_case "$1" ktee "$2" "{ $case_command
echo \$? > \"\$AUX/status.check\"
} > \"\$AUX/log\" 2>&1"
  if test "$(cat "$CASE/$1/status.check" 2>/dev/null)" = 0 \
     && ! test -s "$CASE/$1/log"; then
    tap_ok "$3"
  else
    tap_not_ok "$3" "$CASE/$1/log" "$(as_run "$case_command" "ktee${2:+ $2}")"
  fi
}

# check DESCRIPTION COMMAND: run COMMAND with ktee only; it passes if the
# COMMAND prints nothing and its last status is 0.  What it prints, such as
# the complaints of fail and expect_*, becomes the diagnostic.
check ()
{
  selected "$1" || return 0
  new_case
  case_command=$2
  for_each_method check_method "$1"
  end_case
}

# ---- Expectations, for check() -------------------------------------------

# fail MESSAGE...: print MESSAGE, return false.
fail ()
{
  echo "$*"
  return 1
}

# expect_status N: TEE exited with status N.
expect_status ()
{
  got=$(cat "$AUX/status" 2>/dev/null || echo none)
  test "$got" != 137 \
    || fail "ktee was killed after $KTEE_TEST_TIMEOUT s: it hung"
  test "$got" = "$1" || fail "exit status $got, expected $1"
}

# expect_bytes FILE EXPECTED-FILE: FILE holds exactly EXPECTED-FILE.
expect_bytes ()
{
  cmp -s "$1" "$2" && return 0
  echo "$1 holds $(wc -c < "$1" 2>/dev/null || echo no) bytes," \
       "expected $(wc -c < "$2") bytes"
  cmp "$1" "$2" 2>&1
  return 1
}

# expect_empty FILE...: each FILE exists and is empty.
expect_empty ()
{
  for f; do
    test -f "$f" && ! test -s "$f" \
      || { fail "$f is not an empty file:"; head -c 300 "$f"; echo; return 1; }
  done
}
