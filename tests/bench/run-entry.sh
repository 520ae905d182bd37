#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-entry.sh - the guest side of entry-vm.sh.  Installed as
# /opt/hijack/run-entry; tests/kernel/init.sh runs it for hijack_mode=entry.
#
# It starts a target in seven fresh namespaces (mnt, uts, ipc, net, pid,
# cgroup, time) and a child cgroup of its own, then times each way of
# starting the same static program inside it with entrybench, and prints
# one "ENTRY-ROW LABEL MEDIAN_NS" line per way between two marker lines.
#
# Kernel command-line words without a dot reach this script as variables:
#   en_samples    samples per row (default 5)
#   en_minbatch   minimum batch length in ms (default 300)

cd "$(dirname "$0")" || exit 1
opt=/opt/hijack
# hijack and nsenter are dynamically linked: their loader where they look.
loader=$(cat lib/LOADER)
[ -e "/lib64/$loader" ] || { mkdir -p /lib64 && ln -s "$opt/lib/$loader" "/lib64/$loader"; }
LD_LIBRARY_PATH=$opt/lib
export LD_LIBRARY_PATH

cg=/sys/fs/cgroup/entry-target
mkdir -p "$cg" || exit 1
# The shell joins the cgroup, then becomes unshare, whose child is the target.
sh -c "echo \$\$ >$cg/cgroup.procs && exec $opt/bin/unshare --mount --uts --ipc --net --pid --cgroup --time --fork sleep 100000" &
holder=$!

target=
tries=0
while [ -z "$target" ] && [ $tries -lt 100 ]; do
	while read -r p; do
		[ "$p" != "$holder" ] && [ "$(readlink "/proc/$p/ns/pid")" != "$(readlink /proc/self/ns/pid)" ] && target=$p
	done <"$cg/cgroup.procs"
	[ -n "$target" ] || { sleep 0.1; tries=$((tries + 1)); }
done
[ -n "$target" ] || { echo "# run-entry: the target did not start"; exit 1; }
echo "# run-entry: target pid $target in $(cat "/proc/$target/cgroup")"

bench() {
	label=$1
	shift
	# No terminal in: hijack would give the command a new one each time,
	# which nsenter does not.
	line=$("$opt/bin/entrybench" --samples="${en_samples:-5}" \
		--min-batch-ms="${en_minbatch:-300}" "$@" </dev/null 2>/tmp/entry.err) || {
		sed "s/^/# $label: /" /tmp/entry.err
		return 1
	}
	echo "# $label: $line"
	median=${line#*median_ns=}
	echo "ENTRY-ROW $label ${median%% *}"
}

true_=$opt/bin/true
rc=0
echo "ENTRY-BEGIN"
bench fork+exec exec "$true_" || rc=1
bench hijack-2 syscall "$target" "$true_" || rc=1
bench setns-pidfd setns "$target" "$true_" || rc=1
bench hijack-cli-syscall cmd "$opt/libexec/hijack" --method=syscall --pid "$target" -- "$true_" || rc=1
bench hijack-cli-pidfd cmd "$opt/libexec/hijack" --method=pidfd --pid "$target" -- "$true_" || rc=1
bench nsenter-a cmd "$opt/bin/nsenter" -a -t "$target" "$true_" || rc=1
echo "ENTRY-END"
# The init of a pid namespace takes from outside only what it cannot ignore.
kill -9 "$target" 2>/dev/null
read -r up _ </proc/uptime
echo "# guest uptime: $up s"
exit $rc
