# Shell functions for ktee's autopkgtests (debian/tests/control).
# Copyright (C) 2026 the ktee developers.  GPLv3+, see src/ktee.c.
#
# Each test prints one line per check, "PASS: name", "SKIP: name
# (reason)" or "FAIL: name (reason)" with the end of the check's log, and
# exits 1 if any failed.

# The checks are functions that check() runs, hence "unreachable".
# shellcheck disable=SC2317
set -u
export LC_ALL=C
work=${AUTOPKGTEST_TMP:-$(mktemp -d)}
src=$(pwd)
failures=0
version=$(dpkg-query -W -f '${Version}' ktee)
# shellcheck disable=SC2034 # the tests' --version checks
upstream=${version%-*}

# check NAME CMD...: a check that passes when CMD succeeds, and is
# skipped when CMD exits with 77, its last line saying why.
check ()
{
  name=$1
  shift
  log=$work/$(printf '%s' "$name" | tr -c 'a-zA-Z0-9' '-').log
  "$@" > "$log" 2>&1
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "PASS: $name"
  elif [ "$status" -eq 77 ]; then
    echo "SKIP: $name ($(tail -n 1 "$log"))"
  else
    echo "FAIL: $name (exit status $status)"
    failures=$((failures + 1))
    tail -n 25 "$log" | sed 's/^/  | /'
  fi
  return "$status"
}

finish ()
{
  [ "$failures" -eq 0 ]
  exit
}

# pipeline KTEE TEE: KTEE in real pipelines gives what TEE gives: the same
# stdout, files and exit status, for text and for 8 MiB of binary data,
# with stdin a pipe (zero-copy) and a regular file, and the same death by
# SIGPIPE when the reader leaves early.
# shellcheck disable=SC2002 # cat: stdin must be a pipe
pipeline ()
{
  ktee=$1 tee=$2
  d=$(mktemp -d "$work/pipe.XXXXXX") || return
  seq 100000 > "$d/text" &&
  head -c 8388608 /dev/urandom > "$d/bin" || return
  for data in text bin; do
    cat "$d/$data" | "$ktee" "$d/k1" "$d/k2" | cat > "$d/kout" || return
    cat "$d/$data" | "$tee" "$d/t1" "$d/t2" | cat > "$d/tout" || return
    for f in out 1 2; do
      cmp "$d/k$f" "$d/t$f" && cmp "$d/k$f" "$d/$data" || return
    done
    "$ktee" -a "$d/k1" < "$d/$data" | cmp - "$d/$data" || return
    cat "$d/$data" "$d/$data" | cmp - "$d/k1" || return
  done
  k=$(cat "$d/bin" | { "$ktee" "$d/k3"; echo $? > "$d/kst"; } |
      head -c 10 | wc -c)
  t=$(cat "$d/bin" | { "$tee" "$d/t3"; echo $? > "$d/tst"; } |
      head -c 10 | wc -c)
  [ "$k" = "$t" ] && cmp "$d/kst" "$d/tst"
}

# suite KTEE GNU_TEE: the upstream suite's files that need none of its
# compiled helpers, KTEE against GNU_TEE.
suite ()
{
  KTEE=$1 GNU_TEE=$2 TMPDIR=$work \
    sh "$src/tests/run-suite" "$src/tests/10-sizes.sh" \
      "$src/tests/40-operands.sh" "$src/tests/45-aliases.sh" \
      "$src/tests/50-options.sh" "$src/tests/60-errors.sh"
}

# tee_is_ktee: /usr/bin/tee is ktee-as-tee's link to ktee, and GNU's tee
# runs at its diverted name.
tee_is_ktee ()
{
  [ "$(readlink /usr/bin/tee)" = ktee ] &&
  [ "$(dpkg-divert --listpackage /usr/bin/tee)" = ktee-as-tee ] &&
  tee --version | head -n 1 | grep -x "ktee (ktee) $upstream" &&
  /usr/bin/tee.coreutils --version | head -n 1 | grep -F '(GNU coreutils)'
}
