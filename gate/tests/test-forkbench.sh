#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# TAP smoke test of forkbench on the host: a short pass of every workload,
# its JSON parses and benchcmp reads it.  It checks that the workloads run,
# not what they measure.  Run from the top of the build tree, or set
# BENCH_BINDIR to where forkbench and benchcmp are.

set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
find_bindir forkbench
FORKBENCH=$bindir/forkbench
BENCHCMP=$bindir/benchcmp

echo "TAP version 13"

check "--list" 0 "$FORKBENCH" --list
nr_workloads=$(wc -l <"$tmp/out")
if [ "$nr_workloads" -ge 20 ] && grep -q '^spawn  *primary' "$tmp/out" &&
   grep -q '^syscall  *control' "$tmp/out"; then
	ok "--list names $nr_workloads workloads with their roles"
else
	not_ok "--list output"
fi

# a short pass of everything; small spawn-big to spare CI memory
check "every workload runs (--samples 2 --min-batch-ms 1)" 0 \
	"$FORKBENCH" --samples 2 --min-batch-ms 1 --warmup 1 --big-mib 16 \
	--seed 42 --tag clock=host --json
cp "$tmp/out" "$tmp/run.json"
sed 's/^/# /' "$tmp/err"

if command -v python3 >/dev/null 2>&1; then
	if python3 -m json.tool "$tmp/run.json" >/dev/null 2>"$tmp/err"; then
		ok "the JSON parses"
	else
		not_ok "the JSON parses"
		sed 's/^/# /' "$tmp/err"
	fi
	# every workload is there, with 2 samples, or skipped with a reason
	if python3 - "$tmp/run.json" "$nr_workloads" >"$tmp/err" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
wl = doc["workloads"]
assert len(wl) == int(sys.argv[2]), "workload count %d" % len(wl)
for w in wl:
    if "skipped" in w:
        print("skipped:", w["name"], w["skipped"])
        continue
    assert "error" not in w, w["name"] + ": " + w["error"]
    assert len(w["samples"]) == 2, w["name"]
    for s in w["samples"]:
        assert s["ns_per_op"] > 0 and s["batch"] > 0, w["name"]
        for k in ("user_ns", "sys_ns", "cusr_ns", "csys_ns"):
            assert s[k] >= 0, w["name"] + " " + k
env = doc["env"]
for k in ("release", "version", "build_id", "proc_version", "cmdline", "nr_cpus", "cpu_model"):
    assert k in env, k
assert env["tags"]["clock"] == "host"
assert doc["options"]["seed"] == 42
EOF
	then
		ok "every workload has 2 samples or a reason to skip"
	else
		not_ok "every workload has 2 samples or a reason to skip"
	fi
	sed 's/^/# /' "$tmp/err"
else
	skip "the JSON parses" "python3 not installed"
	skip "every workload has 2 samples or a reason to skip" "python3 not installed"
fi

# the same seed gives the same order
"$FORKBENCH" --samples 1 --min-batch-ms 1 --warmup 0 --seed 42 \
	--workloads syscall,getpid,pipe,threads --json >"$tmp/o1" 2>/dev/null
"$FORKBENCH" --samples 1 --min-batch-ms 1 --warmup 0 --seed 42 \
	--workloads syscall,getpid,pipe,threads --json >"$tmp/o2" 2>/dev/null
if grep '"order"' "$tmp/o1" >"$tmp/order1" && grep '"order"' "$tmp/o2" |
   cmp -s - "$tmp/order1"; then
	ok "--seed reproduces the workload order"
else
	not_ok "--seed reproduces the workload order"
fi

check "human table" 0 "$FORKBENCH" --samples 2 --min-batch-ms 1 \
	--workloads spawn,execl,syscall
if grep -q '^spawn  *primary  *2 ' "$tmp/out" &&
   grep -q '^execl  *secondary  *2 ' "$tmp/out"; then
	ok "the table has a row per workload"
else
	not_ok "the table has a row per workload"
	sed 's/^/# /' "$tmp/out"
fi

# -w chooses, the canonical order decides: spawn-big, listed first, runs last
check "-w spawn-big,exec,spawn" 0 "$FORKBENCH" --samples 1 --min-batch-ms 1 \
	--big-mib 16 --workloads spawn-big,exec,spawn --json
if grep -q '"order": \["spawn", "exec", "spawn-big"\]' "$tmp/out"; then
	ok "they run in the order of --list"
else
	not_ok "they run in the order of --list"
	grep '"order"' "$tmp/out" | sed 's/^/# /'
fi
check "a workload listed twice: exit 2" 2 "$FORKBENCH" --workloads spawn,exec,spawn
grep -q "'spawn' is listed twice" "$tmp/err" && ok "it names the workload" ||
	not_ok "it names the workload"
check "--order=listed keeps the list, repeats and all" 0 "$FORKBENCH" \
	--samples 1 --min-batch-ms 1 --big-mib 16 --order=listed \
	--workloads exec,spawn-big,exec --json
grep -q '"order": \["exec", "spawn-big", "exec"\]' "$tmp/out" &&
	ok "the JSON records that order" || not_ok "the JSON records that order"
# the warm-up: at least --warmup batches, at most --warmup-max, reported
check "--warmup 3 --warmup-max 5" 0 "$FORKBENCH" --samples 1 --min-batch-ms 1 \
	--warmup 3 --warmup-max 5 --workloads getpid,spawn --json
if grep -q '"warmup_max": 5' "$tmp/out" &&
   [ "$(grep -c '"warmup": [345],' "$tmp/out")" -eq 2 ] &&
   [ "$(grep -c '"settled": ' "$tmp/out")" -eq 2 ]; then
	ok "each workload reports 3-5 warm-up batches and whether they settled"
else
	not_ok "each workload reports 3-5 warm-up batches and whether they settled"
	grep -E '"warmup|"settled' "$tmp/out" | sed 's/^/# /'
fi
check "--samples 3 --samples-other 2" 0 "$FORKBENCH" --samples 3 --samples-other 2 \
	--min-batch-ms 1 --warmup 1 --workloads spawn,execl,syscall --json
if grep -q '"samples_other": 2,' "$tmp/out" &&
   [ "$(grep -c '"ns_per_op"' "$tmp/out")" -eq 7 ]; then
	ok "3 samples of the primary, 2 of the secondary and the control"
else
	not_ok "3 samples of the primary, 2 of the secondary and the control"
fi
check "--samples-other 0: exit 2" 2 "$FORKBENCH" --samples-other 0
grep -q "samples-other" "$tmp/err" && ok "it names the option" ||
	not_ok "it names the option"
check "--settle 0: exactly --warmup batches" 0 "$FORKBENCH" --samples 1 \
	--min-batch-ms 1 --warmup 3 --settle 0 --workloads getpid --json
grep -q '"warmup": 3,' "$tmp/out" && ok "3 warm-up batches" || not_ok "3 warm-up batches"
check "--warmup-max below --warmup: exit 2" 2 "$FORKBENCH" --warmup 4 --warmup-max 2

check "unknown workload: exit 2" 2 "$FORKBENCH" --workloads spawn,nosuch
grep -q "unknown workload 'nosuch'" "$tmp/err" && ok "it names the workload" ||
	not_ok "it names the workload"
check "bad number: exit 2" 2 "$FORKBENCH" --samples x

# benchcmp reads forkbench's JSON: 2 samples a side can never decide
check "benchcmp reads forkbench JSON (INCONCLUSIVE with 2 samples)" 4 \
	"$BENCHCMP" "$tmp/run.json" "$tmp/run.json"

tap_done
