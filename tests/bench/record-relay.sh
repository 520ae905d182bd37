#!/bin/sh
# [ROUNDS=N] [MB=N] record-relay.sh
#
# Whether a recorded session relays as fast as an unrecorded one:
# "hijack --pid P --pty -- cat FILE" of MB (50) megabytes of text, with
# --record and without, interleaved (plain, recorded, plain, ...) so that
# the load of a shared machine falls on both alike.  Prints each run's
# wall, user and system time, then the median of each mode and their
# ratio, over ROUNDS (7) rounds.  A benchmark: it asserts nothing.
#
# Runs in a private mount namespace, with the recordings on a tmpfs of
# its own (record-dir in its own /etc/hijack/hijack.conf), as root.
# HIJACK is the binary to measure (src/cli/.libs/hijack with
# LD_LIBRARY_PATH=.libs, not libtool's wrapper script).
set -eu
. "$(dirname "$0")/private-etc.sh"
rounds=${ROUNDS:-7}
mb=${MB:-50}
: "${HIJACK:?HIJACK must name the hijack binary}"

tmp=$(mktemp -d)
sleep 600 &
target=$!
trap 'kill $target 2>/dev/null; umount "$tmp/rec" 2>/dev/null; rm -rf "$tmp"' EXIT
mount -t tmpfs -o mode=755 tmpfs /etc/hijack
mkdir -m 700 "$tmp/rec"
mount -t tmpfs -o mode=700 tmpfs "$tmp/rec"
printf 'audit = off\nrecord-dir = %s\n' "$tmp/rec" >/etc/hijack/hijack.conf
# Text, lines of 76: what a terminal shows, and what a recording escapes
# least; the cost of the worst case (control bytes) is the writer's, which
# the ring and its bound keep off the relay.
head -c $((mb * 1000000 * 3 / 4)) /dev/urandom | base64 >"$tmp/text"

run() {
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" \
		"$HIJACK" $1 --pid "$target" --pty -- cat "$tmp/text" </dev/null >/dev/null
	rm -f "$tmp/rec"/*
	cat "$tmp/t"
}
: >"$tmp/plain"
: >"$tmp/record"
echo "# mode      wall    user    sys   (s, $(du -m "$tmp/text" | cut -f1) MB through cat)"
i=0
while [ $i -lt "$rounds" ]; do
	p=$(run "")
	r=$(run --record)
	echo "$p" >>"$tmp/plain"
	echo "$r" >>"$tmp/record"
	echo "plain       $p"
	echo "recorded    $r"
	i=$((i + 1))
done
median() { cut -d' ' -f1 "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mp=$(median "$tmp/plain")
mr=$(median "$tmp/record")
echo "median wall: plain $mp s, recorded $mr s, ratio $(echo "scale=3; $mr / $mp" | bc)"
