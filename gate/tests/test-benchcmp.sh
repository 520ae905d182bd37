#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# TAP tests of benchcmp on synthetic samples from gensamples (fixed seeds,
# so every run sees the same numbers).  Run from the top of the build tree,
# or set BENCH_BINDIR to where benchcmp and gensamples are.

set -u

here=$(cd "$(dirname "$0")" && pwd)
gate_dir=$(cd "$here/.." && pwd)
. "$here/tap.sh"
find_bindir benchcmp
BENCHCMP=$bindir/benchcmp

# grep_ok DESCRIPTION PATTERN FILE
grep_ok() {
	if grep -q -- "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1 ('$2' not in output)"
		sed 's/^/# /' "$3" | head -20
	fi
}
gen() {
	"$bindir/gensamples" "$@"
}
have_python=false
command -v python3 >/dev/null 2>&1 && have_python=true
json_ok() {
	if ! $have_python; then
		skip "$1" "python3 not installed"
	elif python3 -m json.tool "$2" >/dev/null 2>"$tmp/jerr"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$tmp/jerr"
	fi
}

echo "TAP version 13"

# count_fails RUNS SEED_OFFSET SHIFT [BENCHCMP-OPTION...]: of RUNS pairs of
# draws of 10 with 1% noise, the second shifted by SHIFT percent, how many
# benchcmp FAILs: in $fails
count_fails() {
	runs=$1 offset=$2 shift_pct=$3
	shift 3
	fails=0
	for s in $(seq 1 "$runs"); do
		gen --seed "$s" --n 10 --noise 1 >"$tmp/a"
		gen --seed $((s + offset)) --n 10 --noise 1 --shift "$shift_pct" >"$tmp/b"
		"$BENCHCMP" "$@" "$tmp/a" "$tmp/b" >/dev/null 2>&1
		[ $? -eq 1 ] && fails=$((fails + 1))
	done
}

# -- A/A: the same distribution never FAILs -----------------------------
count_fails 40 1000 0
if [ "$fails" -eq 0 ]; then
	ok "A/A: 40 pairs of identical distributions, no FAIL"
else
	not_ok "A/A: $fails of 40 identical pairs FAILed"
fi

# -- the error rate holds at the edge: a true shift of exactly the margin
# -- FAILs in at most alpha = 5% of runs (allow sampling slack: <= 8/100)
count_fails 100 5000 1 --bootstrap 200
if [ "$fails" -le 8 ]; then
	ok "shift == margin: $fails of 100 runs FAIL (alpha 5%)"
else
	not_ok "shift == margin: $fails of 100 runs FAIL, more than alpha allows"
fi

# -- a real regression FAILs ---------------------------------------------
gen --seed 11 --n 10 --noise 1 >"$tmp/base"
gen --seed 12 --n 10 --noise 1 --shift 5 >"$tmp/slow"
check "5% slower, 1% noise, 10 a side: FAIL at 1% margin" 1 \
	"$BENCHCMP" --margin 1 "$tmp/base" "$tmp/slow"
grep_ok "the table says FAIL" "verdict: FAIL" "$tmp/out"
grep_ok "the table has a Student's t line" "Student's t, pooled s" "$tmp/out"
grep_ok "the table has the bootstrap cross-check" "bootstrap \[" "$tmp/out"
grep_ok "the table has the Mann-Whitney p" "Mann-Whitney p=" "$tmp/out"

# -- too few samples: never decide ---------------------------------------
gen --seed 21 --n 3 --noise 10 >"$tmp/a3"
gen --seed 22 --n 3 --noise 10 --shift 30 >"$tmp/b3"
check "3 a side, 10% noise: INCONCLUSIVE" 4 "$BENCHCMP" "$tmp/a3" "$tmp/b3"
grep_ok "it says why" "fewer than 5 samples" "$tmp/out"
gen --seed 23 --n 4 >"$tmp/a4"
gen --seed 24 --n 4 --shift 50 >"$tmp/b4"
check "4 a side, zero noise, 50% slower: still INCONCLUSIVE" 4 \
	"$BENCHCMP" "$tmp/a4" "$tmp/b4"

# -- a faster candidate is PASS, never FAIL ------------------------------
gen --seed 31 --n 10 --noise 1 --shift -5 >"$tmp/fast"
check "5% faster: PASS" 0 "$BENCHCMP" "$tmp/base" "$tmp/fast"
gen --seed 32 --n 10 --noise 1 --shift -50 >"$tmp/vfast"
check "50% faster: PASS" 0 "$BENCHCMP" "$tmp/base" "$tmp/vfast"

# -- noisy and undecided: INCONCLUSIVE, not PASS -------------------------
gen --seed 41 --n 10 --noise 20 >"$tmp/na"
gen --seed 42 --n 10 --noise 20 >"$tmp/nb"
check "20% noise, no shift: INCONCLUSIVE, not PASS" 4 \
	"$BENCHCMP" "$tmp/na" "$tmp/nb"

# -- --higher-is-better flips the direction ------------------------------
check "rates: 5% higher is PASS with --higher-is-better" 0 \
	"$BENCHCMP" --higher-is-better "$tmp/base" "$tmp/slow"
check "rates: 5% lower is FAIL with --higher-is-better" 1 \
	"$BENCHCMP" --higher-is-better "$tmp/base" "$tmp/fast"

# -- zero variance: the interval collapses to the observed ratio ---------
gen --n 5 --mean 104500 >"$tmp/z0"
gen --n 5 --mean 104500 >"$tmp/z1"
gen --n 5 --mean 104500 --shift 2 >"$tmp/z2"
check "zero variance, equal: PASS" 0 "$BENCHCMP" "$tmp/z0" "$tmp/z1"
grep_ok "zero variance, equal: interval [1, 1]" "\[1.00000, 1.00000\]" "$tmp/out"
check "zero variance, 2% slower: FAIL" 1 "$BENCHCMP" "$tmp/z0" "$tmp/z2"
grep_ok "zero variance, 2% slower: interval [1.02, 1.02]" "\[1.02000, 1.02000\]" "$tmp/out"
check "zero variance, 2% slower, 3% margin: PASS" 0 \
	"$BENCHCMP" --margin 3 "$tmp/z0" "$tmp/z2"

# -- the clock labels verdicts; the emulator's wall clock never PASSes ------
check "instruction clock: the verdict says so" 0 \
	"$BENCHCMP" --clock instruction "$tmp/z0" "$tmp/z1"
grep_ok "PASS (instruction model)" "PASS (instruction model)" "$tmp/out"
check "emulator wall clock: no PASS" 4 \
	"$BENCHCMP" --clock emulator "$tmp/z0" "$tmp/z1"
check "emulator wall clock: FAIL still FAILs" 1 \
	"$BENCHCMP" --clock emulator "$tmp/z0" "$tmp/z2"

# -- output formats -------------------------------------------------------
check "JSON output" 1 "$BENCHCMP" --json "$tmp/base" "$tmp/slow"
json_ok "JSON output parses" "$tmp/out"
check "JSON output with an unbounded interval" 4 "$BENCHCMP" --json "$tmp/a3" "$tmp/b3"
json_ok "JSON output with an unbounded interval parses" "$tmp/out"
check "KTAP output" 1 "$BENCHCMP" --ktap "$tmp/base" "$tmp/slow" "$tmp/fast" "$tmp/b3"
grep_ok "KTAP header" "^KTAP version 1" "$tmp/out"
grep_ok "KTAP: FAIL is not ok" "^not ok 1 " "$tmp/out"
grep_ok "KTAP: PASS is ok" "^ok 2 " "$tmp/out"
grep_ok "KTAP: INCONCLUSIVE is a skip" "^ok 3 .* # SKIP inconclusive" "$tmp/out"

# -- malformed input: exit 2 and a message naming file and line ----------
: >"$tmp/empty"
check "empty file: exit 2" 2 "$BENCHCMP" "$tmp/empty" "$tmp/base"
grep_ok "empty file: named" "$tmp/empty: no values" "$tmp/err"
printf '1\n# comment\n2 extra column\n\nabc\n' >"$tmp/bad"
check "not a number: exit 2" 2 "$BENCHCMP" "$tmp/base" "$tmp/bad"
grep_ok "not a number: file and line" "$tmp/bad:5: not a number: 'abc'" "$tmp/err"
check "missing file: exit 2" 2 "$BENCHCMP" "$tmp/base" "$tmp/nonexistent"
grep_ok "missing file: named" "$tmp/nonexistent: No such file" "$tmp/err"
printf '{"forkbench": 1, "workloads": [\n  {"name": "spawn", "samples": [1, ]}\n]}\n' >"$tmp/bad.json"
check "broken JSON: exit 2" 2 "$BENCHCMP" "$tmp/bad.json" "$tmp/bad.json"
grep_ok "broken JSON: file and line" "$tmp/bad.json: line 2:" "$tmp/err"
# well-formed JSON that is not what forkbench writes: named by its place
bad_json() {
	printf '%s\n' "$2" >"$tmp/odd.json"
	check "$1: exit 2" 2 "$BENCHCMP" "$tmp/odd.json" "$tmp/odd.json"
	grep_ok "$1: named" "$3" "$tmp/err"
}
bad_json "not forkbench's" '{"workloads": []}' \
	"$tmp/odd.json: not a forkbench document"
bad_json "a workload without a name" '{"forkbench": 1, "workloads": [{"samples": [{"ns_per_op": 1}]}]}' \
	"$tmp/odd.json: workload 1: no \"name\" or \"samples\""
bad_json "a workload twice" '{"forkbench": 1, "workloads": [{"name": "a", "samples": [{"ns_per_op": 1}]}, {"name": "a", "samples": [{"ns_per_op": 1}]}]}' \
	"$tmp/odd.json: workload 'a' appears twice"
bad_json "a sample without its number" '{"forkbench": 1, "workloads": [{"name": "a", "samples": [{"ns_per_op": 2}, {"batch": 5}]}]}' \
	"$tmp/odd.json: workload 'a': sample 2 without a number \"ns_per_op\""
bad_json "a sample at zero" '{"forkbench": 1, "workloads": [{"name": "a", "samples": [{"ns_per_op": 0}]}]}' \
	"$tmp/odd.json: workload 'a': sample 1: ns_per_op is not positive"
bad_json "a member twice" '{"forkbench": 1, "forkbench": 1, "workloads": []}' \
	"$tmp/odd.json: line 1: duplicate object key"
bad_json "data after the document" '{"forkbench": 1, "workloads": []} {}' \
	"$tmp/odd.json: line 1: end of file expected"
check "--look beyond --looks: exit 2" 2 \
	"$BENCHCMP" --look 3 --looks 2 "$tmp/base" "$tmp/slow"

# -- forkbench JSON, several workloads, per-boot medians ------------------
# boots DIR SEED COUNT [GEN-OPTION...]: COUNT boot files of four workloads
boots() {
	_dir=$1 _seed=$2 _count=$3
	shift 3
	mkdir "$_dir"
	for _boot in $(seq "$_count"); do
		gen --seed $((_seed + _boot)) --n 8 --noise 0.5 "$@" \
			>"$_dir/boot$_boot.json"
	done
}
four=spawn,exec,shell-1:secondary,syscall:control
boots "$tmp/A" 100 6 --json "$four"
boots "$tmp/B" 200 6 --shift 3 --json "$four"
boots "$tmp/C" 300 6 --json "$four"
boots "$tmp/D" 400 6 --json "spawn::3,${four#spawn,}"
check "JSON dirs: a control that moves makes the run INVALID" 3 \
	"$BENCHCMP" --margin 1 "$tmp/A" "$tmp/B"
grep_ok "one row per workload" "^shell-1 " "$tmp/out"
grep_ok "per-boot medians: n = 6 boots" "^spawn  *6  *6 " "$tmp/out"
grep_ok "the moving control is named" "verdict: MOVED" "$tmp/out"
check "JSON: --margin-for gives one workload its own margin" 1 \
	"$BENCHCMP" --margin 1 --margin-for syscall=5 "$tmp/A" "$tmp/B"
grep_ok "the control moved 3% holds a 5% margin: STEADY" "^syscall .* STEADY" "$tmp/out"
grep_ok "... its own margin is printed" "^syscall (control, margin 5%)" "$tmp/out"
grep_ok "... and the others keep theirs: spawn FAILs its 1%" "^spawn .* FAIL" "$tmp/out"
check "--margin-for without =PCT: exit 2" 2 "$BENCHCMP" --margin-for syscall "$tmp/A" "$tmp/B"
grep_ok "--margin-for: named" "expected NAME=PCT" "$tmp/err"
check "JSON: spawn 3% slower, control steady: FAIL" 1 \
	"$BENCHCMP" --margin 1 "$tmp/A" "$tmp/D"
grep_ok "only spawn FAILs" "^spawn .* FAIL" "$tmp/out"
grep_ok "... and the primary family FAILs" "^primary: FAIL$" "$tmp/out"
check "JSON: a comma list of files is a side" 1 \
	"$BENCHCMP" --margin 1 "$tmp/A" "$tmp/D/boot1.json,$tmp/D/boot2.json,$tmp/D/boot3.json,$tmp/D/boot4.json,$tmp/D/boot5.json"
grep_ok "the list gives 5 boots" "^spawn  *6  *5 " "$tmp/out"
check "JSON: A/A with a steady control: PASS" 0 \
	"$BENCHCMP" --margin 1 "$tmp/A" "$tmp/C"
grep_ok "the control is STEADY" "verdict: STEADY" "$tmp/out"
grep_ok "the primary family's own verdict, for the gate's schedule" "^primary: PASS$" "$tmp/out"

here=$(cd "$(dirname "$0")" && pwd)
# -- fit-margins.py: each non-primary workload's margin from its A/A spread
# 24 boots of one kernel: looks of 6 and 12 pairs, at 90% confidence.
boots "$tmp/P" 900 24 --json "$four"
check "fit-margins.py: a pool of one kernel's boots" 0 \
	env BENCH_BINDIR="$bindir" python3 "$gate_dir/fit-margins.py" -n 20 -l 6,12 \
	-o "$tmp/margins" "$tmp/P"
grep_ok "fit-margins.py: a margin for the control" "^syscall  *[0-9.]*$" "$tmp/margins"
cp "$tmp/err" "$tmp/err.j"
check "fit-margins.py -j 1: one benchcmp at a time" 0 \
	env BENCH_BINDIR="$bindir" python3 "$gate_dir/fit-margins.py" -n 20 -l 6,12 -j 1 \
	-o "$tmp/margins.j1" "$tmp/P"
if cmp -s "$tmp/margins" "$tmp/margins.j1" && cmp -s "$tmp/err" "$tmp/err.j"; then
	ok "fit-margins.py: ... the same margins and report as with several at once"
else
	not_ok "fit-margins.py: ... the same margins and report as with several at once"
fi
grep_ok "fit-margins.py: a margin for the secondary" "^shell-1  *[0-9.]*$" "$tmp/margins"
if grep -q '^spawn ' "$tmp/margins"; then
	not_ok "fit-margins.py: primaries keep the gate's margin (no line)"
else
	ok "fit-margins.py: primaries keep the gate's margin (no line)"
fi
# The fitted margins hold the pool's own A/A splits: never INVALID.
grep_ok "fit-margins.py: A/A splits judged again at every look" \
	"^A/A look 2 (12 pairs), fitted margins, 20 resamples: overall " "$tmp/err"
grep_ok "fit-margins.py: how often a primary's A/A interval missed 1" \
	"^  primary intervals that miss 1 (their level expects): spawn [0-9]* ([0-9.]*)" "$tmp/err"
if grep '^A/A look' "$tmp/err" | grep -q INVALID; then
	not_ok "fit-margins.py: ... never INVALID with the fitted margins"
else
	ok "fit-margins.py: ... never INVALID with the fitted margins"
fi
# -c: pairs by boot number; the candidate's 3% slower spawn FAILs.
boots "$tmp/E" 500 12 --json "$four"
boots "$tmp/F" 600 12 --json "spawn::3,${four#spawn,}"
check "fit-margins.py -c: A against a second kernel" 0 \
	env BENCH_BINDIR="$bindir" python3 "$gate_dir/fit-margins.py" -n 20 -l 6 \
	-c "$tmp/F" -o "$tmp/margins" "$tmp/E"
grep_ok "fit-margins.py: the A/B resamples see the 3% slower spawn" \
	"^A/B look 1 (6 pairs), fitted margins, 20 resamples: overall FAIL 20$" "$tmp/err"
check "fit-margins.py: a pool too small for the first look: exit 2" 2 \
	env BENCH_BINDIR="$bindir" python3 "$gate_dir/fit-margins.py" -l 4 "$tmp/A"
grep_ok "fit-margins.py: ... says so" "needs 8" "$tmp/err"

# -- setup-effect.py: a cost that the pad's place in its page sets ---------
# 24 pairs; boot k has pad 170k; spawn costs 1% more past half a page, on
# both kernels (the setup's), exec nothing (each boot's own noise).
if $have_python; then
	mkdir "$tmp/S"
	boots "$tmp/S/A" 700 24 --json spawn,exec
	boots "$tmp/S/B" 800 24 --json spawn,exec
	python3 - "$tmp/S" <<'PY'
import json, os, sys
for side in "AB":
    d = os.path.join(sys.argv[1], side)
    for k in range(1, 25):
        p = os.path.join(d, "boot%d.json" % k)
        run = json.load(open(p))
        run["env"] = {"tags": {"boot": str(k), "pad_length": str(170 * k)}}
        for w in run["workloads"]:
            if w["name"] == "spawn" and 170 * k > 2048:
                for x in w["samples"]:
                    x["ns_per_op"] *= 1.01
        json.dump(run, open(p, "w"))
PY
	python3 "$gate_dir/setup-effect.py" -w spawn,exec "$tmp/S" >"$tmp/out" 2>&1
	grep_ok "setup-effect.py: the pad explains spawn's spread" \
		"^     r(pad) +0\.[6-9][0-9]  eta2(pad, eighths of a page) 0\.[6-9]" "$tmp/out"
	grep_ok "setup-effect.py: ... and the same setup costs alike on both kernels" \
		"^  r(A,B) over 24 pairs of the same setup: +0\.[6-9]" "$tmp/out"
	if sed -n '/^exec:/,$p' "$tmp/out" | grep -q "r(A,B) .*: +0\.[5-9]"; then
		not_ok "setup-effect.py: ... not exec's, which is each boot's own noise"
	else
		ok "setup-effect.py: ... not exec's, which is each boot's own noise"
	fi
	check "setup-effect.py: a folder without A/ and B/: exit 2" 2 \
		python3 "$gate_dir/setup-effect.py" "$tmp/A"
else
	for i in 1 2 3 4; do skip "setup-effect.py" "python3 not installed"; done
fi

# -- resample.sh: A/A by random splits of one kernel's boots ---------------
check "resample.sh: one kernel's boots" 0 \
	env BENCH_BINDIR="$bindir" bash "$gate_dir/resample.sh" -n 12 -k 5 -l 1/1 "$tmp/A" "$tmp/C"
grep_ok "resample.sh: no false FAIL in 12 splits" "^splits with any FAIL: 0 of 12 " "$tmp/out"
grep_ok "resample.sh: a row per workload" "^spawn  *[0-9]" "$tmp/out"
check "resample.sh: a pool of two kernels (spawn 3% apart)" 0 \
	env BENCH_BINDIR="$bindir" bash "$gate_dir/resample.sh" -n 12 -k 5 -l 1/1 "$tmp/A" "$tmp/D"
# Mixed halves widen spawn's interval: it no longer PASSes in every split.
if [ "$(awk '$1 == "spawn" { print $2 }' "$tmp/out")" -lt 12 ]; then
	ok "resample.sh: ... spawn stops PASSing every split: the splits see the mix"
else
	not_ok "resample.sh: ... spawn stops PASSing every split: the splits see the mix"
	sed 's/^/# /' "$tmp/out"
fi
check "resample.sh: too few boots: exit 2" 2 \
	env BENCH_BINDIR="$bindir" bash "$gate_dir/resample.sh" -k 50 "$tmp/A"

# -- --per-boot: a boot's median or its mean ------------------------------
# Each candidate boot has batches 100, 100, 130: its median is the
# baseline's 100, its mean 110.
mkdir "$tmp/pbA" "$tmp/pbB"
for boot in 1 2 3 4 5 6; do
	printf '{"forkbench": 1, "workloads": [{"name": "spawn", "role": "primary", "samples": [%s]}]}\n' \
		"$(printf '{"ns_per_op": %s, "batch": 1}, ' 100 100 | sed 's/, $//')" \
		>"$tmp/pbA/boot$boot.json"
	sed 's/"ns_per_op": 100, "batch": 1}]/"ns_per_op": 100, "batch": 1}, {"ns_per_op": 130, "batch": 1}]/' \
		"$tmp/pbA/boot$boot.json" >"$tmp/pbB/boot$boot.json"
done
check "--per-boot median: the slow batch is ignored, PASS" 0 \
	"$BENCHCMP" "$tmp/pbA" "$tmp/pbB"
check "--per-boot mean: the slow batch counts, FAIL" 1 \
	"$BENCHCMP" --per-boot mean "$tmp/pbA" "$tmp/pbB"
grep_ok "--per-boot mean: ratio 1.1" "^spawn .* 1\.10000 " "$tmp/out"
grep_ok "the report states the smallest detectable slowdown" \
	"^smallest slowdown detectable in every primary workload: [0-9.]*%" "$tmp/out"
check "--per-boot: an unknown statistic is a usage error" 2 \
	"$BENCHCMP" --per-boot mode "$tmp/pbA" "$tmp/pbB"

# -- Holm: a family of zero-variance workloads, 5 boots each --------------
# With 5 against 5 the smallest one-sided p is 1/252 = 0.00397: 10
# workloads pass alpha/10 = 0.005, 15 do not reach alpha/15 = 0.0033.
mk_family() {
	names=$(seq -s, -f "w%g" 1 "$1")
	gen --n 5 --json "$names" >"$tmp/fam$1a.json"
	gen --n 5 --json "$names" >"$tmp/fam$1b.json"
}
mk_family 10
mk_family 15
check "Holm: 10 identical workloads, 5 a side: PASS" 0 \
	"$BENCHCMP" --min-samples 5 "$tmp/fam10a.json" "$tmp/fam10b.json"
check "Holm: 15 identical workloads, 5 a side: INCONCLUSIVE" 4 \
	"$BENCHCMP" --min-samples 5 "$tmp/fam15a.json" "$tmp/fam15b.json"
grep_ok "Holm: the reason names the correction" "not after Holm" "$tmp/out"
check "sequential looks: alpha split over 20 looks: INCONCLUSIVE" 4 \
	"$BENCHCMP" --look 1 --looks 20 "$tmp/z0" "$tmp/z1"

# -- files for other tools: a picture and ministat files --------------------
check "--svg and --ministat-dir" 1 "$BENCHCMP" --svg "$tmp/p.svg" \
	--ministat-dir "$tmp/ms" "$tmp/A" "$tmp/D"
if [ -s "$tmp/ms/spawn.baseline" ] && [ -s "$tmp/ms/spawn.candidate" ] &&
   [ "$(grep -cv '^#' "$tmp/ms/spawn.baseline")" -eq 6 ]; then
	ok "ministat files: one per workload and side, one value per boot"
else
	not_ok "ministat files: one per workload and side, one value per boot"
fi
if $have_python; then
	if python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); assert d.documentElement.tagName == "svg"' "$tmp/p.svg" 2>"$tmp/jerr"; then
		ok "the SVG is well-formed XML"
	else
		not_ok "the SVG is well-formed XML"
	fi
else
	skip "the SVG is well-formed XML" "python3 not installed"
fi
grep_ok "the SVG shows the verdict" "FAIL" "$tmp/p.svg"

# -- the statistics against their definitions (python3 does it by brute
# -- force: all n*m log differences, all relabellings) ----------------------
printf '1\n1\n2\n3\n3\n' >"$tmp/t1"
printf '2\n3\n4\n4\n5\n' >"$tmp/t2"
check "tied samples" 0 "$BENCHCMP" --margin 1000 "$tmp/t1" "$tmp/t2"
grep_ok "exact Mann-Whitney p with ties (22/252)" "Mann-Whitney p=0.0873" "$tmp/out"
if $have_python; then
	gen --seed 51 --n 7 --noise 3 >"$tmp/h1"
	gen --seed 52 --n 9 --noise 3 --shift 2 >"$tmp/h2"
	"$BENCHCMP" --json --confidence 80 "$tmp/h1" "$tmp/h2" >"$tmp/h.json" 2>/dev/null
	if python3 - "$tmp/h1" "$tmp/h2" "$tmp/h.json" >"$tmp/jerr" 2>&1 <<'EOF'
import itertools, json, math, sys
x = [float(l) for l in open(sys.argv[1])]
y = [float(l) for l in open(sys.argv[2])]
row = json.load(open(sys.argv[3]))["rows"][0]
n, m = len(x), len(y)
d = sorted(math.log(b) - math.log(a) for a in x for b in y)
# the null distribution of U by brute force over all relabellings
counts = {}
for ys in itertools.combinations(range(n + m), m):
    u = sum(1 for j in ys for i in range(n + m) if i not in ys and i < j)
    counts[u] = counts.get(u, 0) + 1
total = sum(counts.values())
cdf = lambda c: sum(v for u, v in counts.items() if u <= c) / total
alpha = 0.10
k = 0
while cdf(k) <= alpha:
    k += 1
lo, hi = math.exp(d[k - 1]), math.exp(d[n * m - k])
est = math.exp((d[(n * m - 1) // 2] + d[n * m // 2]) / 2)
got_lo, got_hi = row["ci"]
assert abs(got_lo / lo - 1) < 1e-9, (got_lo, lo)
assert abs(got_hi / hi - 1) < 1e-9, (got_hi, hi)
assert abs(row["ratio"] / est - 1) < 1e-9, (row["ratio"], est)
assert abs(row["ci_coverage"] - (1 - 2 * cdf(k - 1))) < 1e-9
EOF
	then
		ok "Hodges-Lehmann estimate and interval match their definition"
	else
		not_ok "Hodges-Lehmann estimate and interval match their definition"
		sed 's/^/# /' "$tmp/jerr"
	fi
else
	skip "Hodges-Lehmann estimate and interval match their definition" "python3 not installed"
fi

# -- ministat reads the same files ----------------------------------------
if command -v ministat >/dev/null 2>&1; then
	check "ministat reads the sample files" 0 ministat -c 90 "$tmp/base" "$tmp/slow"
	check "ministat reads benchcmp's files" 0 ministat "$tmp/ms/spawn.baseline" "$tmp/ms/spawn.candidate"
else
	skip "ministat reads the sample files" "ministat not installed"
	skip "ministat reads benchcmp's files" "ministat not installed"
fi

tap_done
