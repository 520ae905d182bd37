#!/bin/sh
# [ROUNDS=N] [BATCH=N] audit-latency.sh [BASELINE-HIJACK]
#
# What the audit records cost an entry: "hijack --pid P -- true" with
# auditing on (a real journald takes the records) against auditing off
# (audit = off in /etc/hijack/hijack.conf), and, if given, against a
# BASELINE-HIJACK built without the records; interleaved in batches
# (on, off, baseline, then baseline, off, on, ...) so that the load of a shared machine
# falls on all of them alike.  Prints the median wall time of an entry
# in each mode and the ratios, over ROUNDS (20) rounds of BATCH (10)
# entries a mode, and, when perf(1) is there (a second batch each time),
# the median CPU time of an entry: hijack's and its children's, without
# journald's, which on a machine of few cores competes with the entry
# for the wall clock.  A benchmark: it asserts nothing.
#
# Runs itself in a private mount namespace (its own journald on
# /run/systemd/journal, its own /etc/hijack), as root.  HIJACK is the
# binary to measure (the real one, not libtool's wrapper script:
# src/cli/.libs/hijack with LD_LIBRARY_PATH=.libs).
set -eu
. "$(dirname "$0")/private-etc.sh"
rounds=${ROUNDS:-20}
batch=${BATCH:-10}
base=${1:-}
: "${HIJACK:?HIJACK must name the hijack binary}"

mount -t tmpfs tmpfs /run/systemd
mkdir -p /run/systemd/journal /run/log
mount -t tmpfs tmpfs /run/log
mount -t tmpfs -o mode=755 tmpfs /etc/hijack
/lib/systemd/systemd-journald >/dev/null 2>&1 &
jd=$!
sleep 300 &
target=$!
trap 'kill $jd $target 2>/dev/null' EXIT
while [ ! -S /run/systemd/journal/socket ]; do sleep 0.1; done

# batch MODE: the wall time of one batch, in microseconds.
batch() {
	case $1 in
	on) printf '# defaults\n' >/etc/hijack/hijack.conf; exe=$HIJACK ;;
	off) printf 'audit = off\n' >/etc/hijack/hijack.conf; exe=$HIJACK ;;
	base) exe=$base ;;
	esac
	t0=$(date +%s%N)
	i=0
	while [ $i -lt "$batch" ]; do
		"$exe" --pid "$target" --no-pty -- true
		i=$((i + 1))
	done
	wall=$((($(date +%s%N) - t0) / 1000 / batch))
	cpu=-
	if [ -n "$perf" ]; then
		# The same entries again, counted (perf's start-up would blur
		# the wall clock): the CPU time of hijack and what it starts,
		# without journald's, which runs beside it.
		"$perf" stat -x, -e task-clock -r "$batch" -o "/tmp/audit-bench.$$.perf" \
			-- "$exe" --pid "$target" --no-pty -- true
		cpu=$(awk -F, '$3 == "task-clock" { printf "%d", $1 * 1000 }' "/tmp/audit-bench.$$.perf")
	fi
	echo "$wall $cpu"
}
perf=$(command -v perf || true)
modes="on off"
[ -z "$base" ] || modes="$modes base"
for m in $modes; do : >"/tmp/audit-bench.$$.$m"; done
r=0
# Every other round in the reverse order, so that what one mode leaves
# behind (journald still writing the last batch's records) falls on
# each mode alike.
rev=$(echo $modes | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
while [ $r -lt "$rounds" ]; do
	order=$modes
	[ $((r % 2)) = 0 ] || order=$rev
	for m in $order; do
		batch $m >>"/tmp/audit-bench.$$.$m"
	done
	r=$((r + 1))
done
# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
on=$(median /tmp/audit-bench.$$.on 1)
off=$(median /tmp/audit-bench.$$.off 1)
echo "rounds=$rounds batch=$batch load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median entry, audit on (journald):  $on us"
echo "median entry, audit off:            $off us"
echo "on/off: $(echo "scale=4; $on / $off" | bc)"
if [ -n "$perf" ]; then
	con=$(median /tmp/audit-bench.$$.on 2)
	coff=$(median /tmp/audit-bench.$$.off 2)
	echo "median CPU time of an entry (hijack and its children, not journald): on $con us, off $coff us, on/off $(echo "scale=4; $con / $coff" | bc)"
fi
if [ -n "$base" ]; then
	b=$(median /tmp/audit-bench.$$.base 1)
	echo "median entry, baseline build:       $b us"
	echo "on/baseline: $(echo "scale=4; $on / $b" | bc)  off/baseline: $(echo "scale=4; $off / $b" | bc)"
fi
rm -f /tmp/audit-bench.$$.*
