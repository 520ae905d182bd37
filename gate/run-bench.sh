#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-bench.sh - the guest side of the fork-path gate.  Installed as
# /opt/hijack/run-bench next to a static forkbench; tests/kernel/init.sh
# runs it for hijack_mode=bench.  It prints forkbench's JSON between two
# marker lines on the console, for gate.sh to cut out of the serial log.
#
# Kernel command-line words without a dot reach init, and so this script,
# as environment variables.  gate.sh gives its words a fixed width, so
# that the command line's length does not depend on the kernel or on the
# boot number (the length moves the kernel's own allocations):
#   fb_seed       workload order seed, five digits (recorded in the JSON),
#                 or "fixed" for forkbench's canonical order
#   fb_boot       boot number, recorded as a tag (leading zeros dropped)
#   fb_kernel     A or B, recorded as the tag kernel=baseline/candidate
#   fb_samples    samples per workload (default 10)
#   fb_others     samples per secondary and control workload (default
#                 fb_samples)
#   fb_minbatch   minimum batch length in ms (default 10)
#   fb_pidbase    forkbench --pid-base (default 1000)
#   fb_workloads  comma-separated workloads (default all), run in the
#                 canonical order whatever the list says
#   fb_order      "listed": run them as listed instead (forkbench --order;
#                 for experiments such as the warm-up test, never the gate)
#   fb_bigmib     memory of spawn-big in MiB (default 256)
#   fb_clock      clock tag (default instruction)
#   fb_pad        a length, four digits: forkbench's environment gets a
#                 variable of that many bytes, which moves its initial
#                 stack and everything laid out after it (METHOD.md)
#   fb_kpad       ignored: its length moves the kernel's copy of the
#                 command line; dropped before forkbench runs

cd "$(dirname "$0")" || exit 1
out=/tmp/forkbench.json
err=/tmp/forkbench.err

# "0042" as 42: in sh arithmetic a leading zero means octal
decimal() {
	echo "$1" | sed 's/^0*\(.\)/\1/'
}

seedopt=
case ${fb_seed:-fixed} in
fixed) ;;
*) seedopt=--seed=$(decimal "$fb_seed") ;;
esac
case ${fb_kernel:-} in
A) label=baseline ;;
B) label=candidate ;;
*) label=${fb_kernel:-unknown} ;;
esac
pad_length=$(decimal "${fb_pad:-0}")
fb_pad=$(head -c "$pad_length" /dev/zero | tr '\0' p)
export fb_pad
unset fb_kpad

# shellcheck disable=SC2086 # the optional words must split
./forkbench --json \
	$seedopt \
	--samples="${fb_samples:-10}" \
	--samples-other="${fb_others:-${fb_samples:-10}}" \
	--min-batch-ms="${fb_minbatch:-10}" \
	--pid-base="${fb_pidbase:-1000}" \
	--big-mib="${fb_bigmib:-256}" \
	${fb_workloads:+--workloads=$fb_workloads} \
	${fb_order:+--order=$fb_order} \
	--tag clock="${fb_clock:-instruction}" \
	--tag boot="$(decimal "${fb_boot:-0}")" \
	--tag kernel="$label" \
	--tag pad_length="${#fb_pad}" >"$out" 2>"$err"
rc=$?
echo "FORKBENCH-JSON-BEGIN"
cat "$out"
echo "FORKBENCH-JSON-END"
sed 's/^/# forkbench: /' "$err"
# On the instruction clock the guest's uptime counts the instructions it
# ran (1 ns each): the cost of a boot that no host load changes.
read -r up _ </proc/uptime
echo "# guest uptime: $up s"
exit $rc
