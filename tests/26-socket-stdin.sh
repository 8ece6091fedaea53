#!/bin/sh
# A stream socket on standard input (TCP, UNIX): the splice engine takes
# it as it takes a pipe, into a private pipe, and must end, fail and
# report as GNU tee's reads from the socket do.
. "${srcdir:=$(dirname "$0")/..}/tests/lib.sh"

if ! have_helper sockio; then
  skip 'socket stdin' "no $KTEE_TEST_BIN/sockio"
  done_testing
  exit 0
fi

gen_data 4097 65537 1048583 16777216

# sockio 0 KIND relays its own stdin into the socket, then shuts it down.
# Tried first: where the kernel has no TCP/IP (the test guest), both tees
# would fail alike, and the comparisons would pass without a socket.
kinds=
for kind in tcp unix; do
  if why=$(sockio 0 $kind true 2>&1 < /dev/null); then
    kinds="$kinds $kind"
  else
    skip "$kind sockets" "$why"
  fi
done

for kind in $kinds; do
  compare "$kind: 1 MiB to stdout a pipe and two FILEs" \
    'wrap="sockio 0 '$kind'"; TEE a b < $DATA/1048583 | cat > out'
  compare "$kind: 16 MiB from a pipe, stdout a file" \
    'cat $DATA/16777216 | { wrap="sockio 0 '$kind'"; TEE a > out; }'
  compare "$kind: a small input, all there at once" \
    'wrap="sockio 0 '$kind'"; TEE a < $DATA/4097 > out'
  compare "$kind: nothing" \
    'wrap="sockio 0 '$kind'"; TEE a < /dev/null > out'
  compare "$kind: a slow producer of odd pieces" \
    '{ printf a; sleep 0.1; printf "bc\n"; sleep 0.1; cat $DATA/65537; } |
     { wrap="sockio 0 '$kind'"; TEE a | cat > out; }'
  compare "$kind: stdout a socket too" \
    'wrap="sockio 0 '$kind' sockio 1 '$kind'"; TEE a < $DATA/1048583 > out'
  compare "$kind: O_APPEND FILE and /dev/full" \
    'printf "old\n" > a
     wrap="sockio 0 '$kind'"; TEE -a a /dev/full < $DATA/1048583 > out'
  # How much the exit modes let through depends on how the socket's
  # reads fell.
  prefix_of "$DATA/1048583"
  compare "$kind: exit mode, /dev/full after a FILE" \
    'wrap="sockio 0 '$kind'"
     TEE --output-error=exit a /dev/full b < $DATA/1048583 > out'
  prefix_of "$DATA/1048583"
  compare "$kind: stdout a reader that exits after 1000 bytes, -p" \
    'wrap="sockio 0 '$kind'"; TEE -p a < $DATA/1048583 | head -c 1000 > out'
  if have_helper nonblock; then
    # tests/differences, 1: GNU tee fails on an empty non-blocking input.
    check "$kind: a non-blocking socket, fed slowly" \
      'wrap="sockio 0 '$kind' nonblock 0"
       for i in 1 2 3; do sleep 0.1; cat $DATA/65537; done | TEE a > out 2> err
       cat $DATA/65537 $DATA/65537 $DATA/65537 > want
       expect_status 0 && expect_bytes out want && expect_bytes a want &&
       expect_empty err'
  else
    skip "$kind: a non-blocking socket" "no $KTEE_TEST_BIN/nonblock"
  fi
done

case $kinds in
  *tcp*)
    compare 'tcp: a connection reset by the peer' \
      'wrap="sockio 0 tcp-reset"; TEE a < /dev/null > out' ;;
esac

# socat LISTEN SYSTEM:"ktee log", as users run it: the tee's stdin and
# stdout are one socket to socat, which relays both ways to the client.
# (socat runs the tee by name, without the TEE function's timeout.)
if command -v socat > /dev/null 2>&1; then
  compare 'socat UNIX-LISTEN:s SYSTEM:"tee log", a client sends and reads' \
    '{ timeout $KTEE_TEST_TIMEOUT socat UNIX-LISTEN:s SYSTEM:"$TEE_PROG $TEE_OPT log" &
       timeout $KTEE_TEST_TIMEOUT socat -t 5 UNIX-CONNECT:s,retry=200,interval=0.05 \
         STDIO < $DATA/1048583 > out
       wait; }'
else
  skip 'socat SYSTEM:"tee log"' 'no socat'
fi

# ---- The bytes do not pass through user space ------------------------------

# Only the zero-copy engines make the calls traced (not --copy-method=rw).
if ! can_strace; then
  skip 'strace: zero copy from a socket' "$no_strace"
  done_testing
  exit 0
fi
zero_copy_only 'strace: zero copy from a socket' || { done_testing; exit 0; }

for kind in $kinds; do
  # auto reads at most 327679 bytes first, as GNU tee: see 80-splice.sh;
  # the end is a read(2) that returns 0, as splice's 0 is only a hint.
  check "strace: a 64 MiB $kind socket to a pipe and two files moves no byte through user space (auto: past its first 320 KiB)" \
    'head -c 67108864 /dev/zero > in
     wrap="sockio 0 '$kind' $NO_LEAK_CHECK strace -o $AUX/trace
           -e trace=openat,read,recvfrom,recvmsg,write,splice,tee --"
     TEE o1 o2 < in | cat > /dev/null
     expect_status 0 && expect_bytes o1 in && expect_bytes o2 in || exit
     fd1=$(opened_fd $AUX/trace o1) fd2=$(opened_fd $AUX/trace o2)
     from=1
     test "$TEE_OPT" = --copy-method=splice || from="/^splice(0,/"
     sed -n "$from,\$p" $AUX/trace |
       grep -E "^(read|recvfrom|recvmsg)\\(0,.* = [1-9]|^write\\((1|$fd1|$fd2)," |
       head -n 3
     grep -E "^(read|recvfrom|recvmsg)\\(0," $AUX/trace | sed "s/.* = //" |
       awk "{ n += \$1 } END { if (n > 327679) print n, \"bytes read\" }"
     test "$(grep -c "^splice(0," $AUX/trace)" -ge 64 ||
     fail "only $(grep -c "^splice(0," $AUX/trace) splices from the socket"'
done

done_testing
