#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-bench.sh - the guest side of the fork-path gate.  Installed as
# /opt/hijack/run-bench next to a static forkbench; tests/kernel/init.sh
# runs it for hijack_mode=bench.  It prints forkbench's JSON between two
# marker lines on the console, for gate.sh to cut out of the serial log.
#
# Kernel command-line words without a dot reach init, and so this script,
# as environment variables:
#   fb_seed       workload order seed (recorded in the JSON)
#   fb_boot       boot number, recorded as a tag
#   fb_kernel     kernel label (baseline/candidate), recorded as a tag
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
#   fb_pad        ignored: its random length shifts the environment, and
#                 with it the stack layout of every process (README.md)

cd "$(dirname "$0")" || exit 1
out=/tmp/forkbench.json
err=/tmp/forkbench.err

# shellcheck disable=SC2086 # the optional words must split
./forkbench --json \
	${fb_seed:+--seed=$fb_seed} \
	--samples="${fb_samples:-10}" \
	--samples-other="${fb_others:-${fb_samples:-10}}" \
	--min-batch-ms="${fb_minbatch:-10}" \
	--pid-base="${fb_pidbase:-1000}" \
	--big-mib="${fb_bigmib:-256}" \
	${fb_workloads:+--workloads=$fb_workloads} \
	${fb_order:+--order=$fb_order} \
	--tag clock="${fb_clock:-instruction}" \
	--tag boot="${fb_boot:-0}" \
	--tag kernel="${fb_kernel:-unknown}" \
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
