#!/bin/sh
# file-copy.sh [-r ROUNDS] [-s MIB]
#
# What --read-file and --write-file cost against cat(1) run through hijack
# in the same container: a Docker-like busybox runc container (as in
# 16-tools.t), a file of MIB MiB of random data (default 1024), and per
# round, interleaved:
#   write-file   hijack C --write-file=/f1 < data     (temp file, fsync, rename)
#   cat-write    hijack C -- sh -c 'cat > /f2' < data  (no fsync)
#   read-file    hijack C --read-file=/f1 --max-size=SIZE | wc -c
#   cat-read     hijack C -- cat /f1 | wc -c
# A benchmark, not a test: it prints the median and range of each, in
# seconds, and asserts nothing.  Needs root.
# Environment: HIJACK (default: the build tree's src/cli/hijack).
set -eu

rounds=5
mib=1024
while getopts "r:s:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	s) mib=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-s MIB]" >&2; exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
: "${HIJACK:=$here/../../src/cli/hijack}"
. "$here/../integration/containers.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hijack-copy.XXXXXX")
name=hj-copy-$$
trap 'dockerlike_down "$name" "$tmp/ct"; rm -rf "$tmp"' EXIT
dockerlike_up "$name" "$tmp/ct" || { echo "no runc container" >&2; exit 1; }
head -c "$((mib * 1048576))" /dev/urandom >"$tmp/data"

now() { date +%s%N; }
# time NAME COMMAND...: append the seconds COMMAND took to $tmp/NAME
time_it() {
	_n=$1
	shift
	_s=$(now)
	"$@" >/dev/null
	_e=$(now)
	echo "$_s $_e" | awk '{ printf "%.3f\n", ($2 - $1) / 1e9 }' >>"$tmp/$_n"
}
c="runc:$name"
i=0
while [ $i -lt "$rounds" ]; do
	time_it write-file sh -c "\"$HIJACK\" $c --write-file=/f1 <\"$tmp/data\""
	time_it cat-write sh -c "\"$HIJACK\" $c -- sh -c 'cat > /f2' <\"$tmp/data\""
	# The bound is the data's size: -s may ask for more than the default.
	time_it read-file sh -c "\"$HIJACK\" $c --read-file=/f1 --max-size=${mib}M | wc -c"
	time_it cat-read sh -c "\"$HIJACK\" $c -- cat /f1 | wc -c"
	i=$((i + 1))
done
cmp -s "$tmp/data" "$tmp/ct/rootfs/f1" || { echo "the copy differs" >&2; exit 1; }
echo "# $mib MiB, $rounds interleaved rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in write-file cat-write read-file cat-read; do
	sort -n "$tmp/$n" | awk -v n="$n" '{ v[NR] = $1 }
		END { printf "%-11s median %6.3f s  range %.3f-%.3f\n", n,
			(NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
done
