#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# resample.sh - the gate's false-FAIL rate, measured on boots of one kernel:
# A/A runs without booting again.
#
# usage: resample.sh [-n SPLITS] [-k PAIRS] [-l LOOK/LOOKS] [-s SEED] DIR...
#
#   DIR...      gate result folders (A/ or B/ of gate.sh -o, any number):
#               every boot JSON in them must come from the same kernel
#   -n SPLITS   random splits to judge (default 200)
#   -k PAIRS    boots on each side of a split (default 8)
#   -l L/M      judge as look L of M, as gate.sh does (default 1/3)
#   -s SEED     seed of the draws (default 1)
#
# Each split draws 2*PAIRS distinct boots from the pool and judges the first
# half against the second with the gate's settings (instruction clock,
# per-boot means, margins 0.25% and 0.5%).  Both halves are the same kernel,
# so every FAIL is a false one.  Prints, per workload, how often each
# verdict came, and the share of splits with any FAIL, with its one-sided
# 95% upper bound (Clopper-Pearson).  The splits share boots, so they are
# not independent: read the bound as a check of the calibration, not as a
# rate measured on independent runs.
#
# Environment: BENCH_BINDIR (benchcmp; default the build tree).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
bindir=${BENCH_BINDIR:-${top_builddir:-$here/..}/gate}
[ -x "$bindir/benchcmp" ] || bindir=$here
splits=200
pairs=8
look=1/3
seed=1

usage() {
	sed -n '6,14s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while getopts n:k:l:s: opt; do
	case $opt in
	n) splits=$OPTARG ;;
	k) pairs=$OPTARG ;;
	l) look=$OPTARG ;;
	s) seed=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[ -x "$bindir/benchcmp" ] || { echo "resample: no benchcmp in $bindir" >&2; exit 2; }

pool=()
for d in "$@"; do
	for f in "$d"/*.json; do
		[ -e "$f" ] && pool+=("$(realpath "$f")")
	done
done
n=${#pool[@]}
if [ "$n" -lt $((2 * pairs)) ]; then
	echo "resample: $n boots in the pool, $((2 * pairs)) needed" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RANDOM=$seed
any_fail=0
declare -A count

for ((s = 1; s <= splits; s++)); do
	# A partial Fisher-Yates shuffle of the pool's indices.
	idx=("${!pool[@]}")
	for ((i = 0; i < 2 * pairs; i++)); do
		j=$((i + (RANDOM * 32768 + RANDOM) % (n - i)))
		t=${idx[i]} idx[i]=${idx[j]} idx[j]=$t
	done
	rm -rf "$tmp/A" "$tmp/B"
	mkdir "$tmp/A" "$tmp/B"
	for ((i = 0; i < pairs; i++)); do
		ln -s "${pool[idx[i]]}" "$tmp/A/boot$i.json"
		ln -s "${pool[idx[pairs + i]]}" "$tmp/B/boot$i.json"
	done
	rc=0
	"$bindir/benchcmp" --clock instruction --per-boot mean --margin 0.25 \
		--margin-secondary 0.5 --look "${look%/*}" --looks "${look#*/}" \
		"$tmp/A" "$tmp/B" >"$tmp/out" 2>/dev/null || rc=$?
	[ "$rc" -eq 1 ] && any_fail=$((any_fail + 1))
	while read -r w verdict; do
		count[$w,$verdict]=$((${count[$w,$verdict]:-0} + 1))
	done < <(awk '/^workload /{t=1; next} /^overall:/{t=0} t && NF {print $1, $(NF-2) == "PASS" || $(NF-2) == "FAIL" ? $(NF-2) : $NF}' "$tmp/out")
done

printf '%s boots of one kernel, %d splits of %d against %d, judged as look %s\n\n' \
	"$n" "$splits" "$pairs" "$pairs" "$look"
printf '%-12s %6s %6s %6s %6s %6s\n' workload PASS FAIL INCONC STEADY MOVED
for w in $(awk '/^workload /{t=1; next} /^overall:/{t=0} t && NF {print $1}' "$tmp/out"); do
	printf '%-12s %6d %6d %6d %6d %6d\n' "$w" "${count[$w,PASS]:-0}" \
		"${count[$w,FAIL]:-0}" "${count[$w,INCONCLUSIVE]:-0}" \
		"${count[$w,STEADY]:-0}" "${count[$w,MOVED]:-0}"
done
# Clopper-Pearson upper bound, one-sided 95%: the p at which seeing at most
# any_fail FAILs in splits draws has probability 5%.
bound=$(awk -v k="$any_fail" -v n="$splits" 'function binom_cdf(p,   i, c, s) {
		s = 0; c = (1 - p) ^ n
		for (i = 0; i <= k; i++) { s += c; c *= (n - i) / (i + 1) * p / (1 - p) }
		return s
	}
	BEGIN {
		lo = k / n; hi = 1
		for (it = 0; it < 60; it++) { m = (lo + hi) / 2; if (binom_cdf(m) > 0.05) lo = m; else hi = m }
		printf "%.2f", 100 * hi
	}')
printf '\nsplits with any FAIL: %d of %d (%.2f%%; 95%% upper bound %s%%)\n' \
	"$any_fail" "$splits" "$(awk -v k="$any_fail" -v n="$splits" 'BEGIN{printf "%.2f", 100*k/n}')" "$bound"
