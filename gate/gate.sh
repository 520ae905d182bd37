#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gate.sh - the fork-path regression gate: boot two kernels alternately
# under QEMU, run forkbench in each boot, and let benchcmp decide.
#
# usage: gate.sh [options] BASELINE_BZIMAGE CANDIDATE_BZIMAGE
#        gate.sh [options] --boots-only LIST BASELINE_BZIMAGE CANDIDATE_BZIMAGE
#        gate.sh [options] --judge DIR...
#        gate.sh [-s SEED] [-R] --setups N
#
#   -o DIR      results (default ./gate-results): A/ and B/ hold one JSON
#               per boot, logs/ the serial logs; verdict.txt, verdict.json,
#               verdict.ktap, gate.svg and ministat/ the judgement
#   -n LIST     boot pairs at each look, e.g. 5,10,20 (default 8): after
#               each look the gate stops unless a primary workload (or,
#               with none, any workload) is INCONCLUSIVE and none FAILed
#   -c CLOCK    instruction (default; TCG -icount), real (KVM),
#               emulator (plain TCG wall clock, never PASSes) or both:
#               the instruction clock into DIR, then, if a probe boot
#               shows KVM works, real time into DIR/real-time (otherwise
#               DIR/real-time.txt says why not); the worse verdict wins
#   -m PCT      margin of primary workloads (default 0.25 instruction,
#               1 otherwise); -M PCT for secondary ones (default 2x)
#   -F FILE     margins of single workloads, "NAME PCT" lines, over -m and
#               -M (default, on the instruction clock: margins.instruction
#               beside this script, fitted to each workload's A/A spread
#               by fit-margins.py; "none" for no such file)
#   -w LIST     forkbench workloads (default all); they run in the order
#               of forkbench --list, whatever the order of LIST
#   -S N        samples per workload and boot (default 10)
#   -T N        samples per secondary and control workload (default: -S)
#   -b MS       minimum batch length in ms (default 10)
#   -s SEED     master seed of the per-boot randomisation (default 1)
#   -r          resume: keep the boots already in -o DIR (same kernels,
#               options and seed, or the result means nothing) and run
#               only the missing ones, e.g. to add a look
#   -R          also shuffle the workload order per boot pair (off: the
#               order a workload runs in changes its cost by up to 1.5%,
#               see README.md, and that would swamp a 0.25% margin)
#   -O DIR      a kernel O= build directory, for gen_init_cpio (default:
#               the one BASELINE_BZIMAGE was built in)
#   -t SECS     timeout of one boot (default 900)
#   -j N        boots at once, instruction clock only (default: $HIJACK_JOBS,
#               else the number of CPUs): its figures count instructions,
#               so they do not depend on what else the host runs. Real
#               time and the emulator clock refuse -j N > 1
#   --boots-only LIST  run just these boots into -o DIR and judge nothing:
#               pairs 3, 1-8, or one kernel's boot, A3 / B3 (comma-separated)
#   --judge DIR...  merge the boots of result directories (same kernels,
#               options and seed: DIR/gate.conf must agree) into -o DIR and
#               judge them look by look, as the whole gate would have
#   -x WORD     extra kernel command-line word for the baseline boots,
#               -X WORD for the candidate boots (repeatable; e.g. the
#               canary: -x fork_canary=000 -X fork_canary=150, the same
#               length, since the command line shifts the kernel's layout)
#
# Each pair of boots (A then B, same setup) gets from the master seed a
# setup of its own: an environment pad of 1-4096 bytes, drawn without
# replacement so that no two pairs share one, a command-line pad of 1-64
# bytes (and with -R a workload order), so that hidden layout biases
# become variance that the interval contains (METHOD.md).
#   --setups N  print the setups of pairs 1..N and how many are distinct,
#               and exit (no boot, no kernel needed)
#
# Environment: BENCH_BINDIR (forkbench, benchcmp; default the build tree),
# HIJACK_ACCEL (see tests/kernel/boot.sh).
#
# Exit status: benchcmp's (0 PASS, 1 FAIL, 3 INVALID, 4 INCONCLUSIVE), 2 on
# a usage error or a boot that produced no results; --boots-only: 0 when
# every boot gave results.

set -eu

# Read the whole script before running any of it (it runs for a long time).
{

here=$(cd "$(dirname "$0")" && pwd)
kernel_dir=$here/../tests/kernel
bindir=${BENCH_BINDIR:-${top_builddir:-$here/..}/gate}
[ -x "$bindir/forkbench" ] || bindir=$here
out=./gate-results
looks=8
clock=instruction
margin=
margin2=
margins_file=
workloads=
samples=10
samples_other=
minbatch=10
seed=1
kout=
timeout=900
shuffle=
resume=
base_words=()
cand_words=()
passthru=()	# every option but -c and -o, for -c both

die() {
	echo "gate: $*" >&2
	exit 2
}

usage() {
	sed -n '7,/^# Exit status/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

jobs=
clock_given=
mode=gate
only=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--boots-only) [ $# -ge 2 ] || usage; mode=boots; only=$2; shift 2 ;;
	--boots-only=*) mode=boots; only=${1#*=}; shift ;;
	--judge) mode=judge; shift ;;
	--setups) [ $# -ge 2 ] || usage; mode=setups; only=$2; shift 2 ;;
	--) args+=("$@"); break ;;
	--*) die "unknown option $1" ;;
	*) args+=("$1"); shift ;;
	esac
done
set -- ${args[@]+"${args[@]}"}

while getopts o:n:c:m:M:F:w:S:T:b:s:O:t:x:X:j:Rr opt; do
	case $opt in
	o) out=$OPTARG ;;
	n) looks=$OPTARG ;;
	c) clock=$OPTARG clock_given=1 ;;
	m) margin=$OPTARG ;;
	M) margin2=$OPTARG ;;
	F) margins_file=$OPTARG ;;
	w) workloads=$OPTARG ;;
	S) samples=$OPTARG ;;
	T) samples_other=$OPTARG ;;
	b) minbatch=$OPTARG ;;
	s) seed=$OPTARG ;;
	O) kout=$OPTARG ;;
	t) timeout=$OPTARG ;;
	j) jobs=$OPTARG ;;
	x) base_words+=(-a "$OPTARG") ;;
	X) cand_words+=(-a "$OPTARG") ;;
	R) shuffle=1 ;;
	r) resume=1 ;;
	*) usage ;;
	esac
	case $opt in
	c | o) ;;
	j) ;;
	n | m | M | F | w | S | T | b | s | O | t | x | X) passthru+=("-$opt" "$OPTARG") ;;
	*) passthru+=("-$opt") ;;
	esac
done
shift $((OPTIND - 1))
# Each pair's setup, drawn from the master seed, so that a pair has the
# same setup whoever boots it and in whatever order.
#
# The environment pad (fb_pad) moves forkbench's initial stack, and with
# it every address on the stack: its lengths are a permutation of
# 1..PAD_SPAN, a whole page, drawn once (Fisher-Yates), and pair k takes
# the k-th.  So no two pairs share a stack layout, and every look adds
# layouts not seen before.  The command-line pad (fb_kpad, 1..KPAD_SPAN
# bytes, drawn with replacement) moves what the kernel allocates for its
# command line; the pairs differ by the stack pad already.
PAD_SPAN=4096
KPAD_SPAN=64
rng_state=$seed
random=0
next_random() {
	rng_state=$(( (rng_state * 1103515245 + 12345) % 2147483648 ))
	random=$(( rng_state / 65536 ))
}
pad_perm=()
for ((i = 0; i < PAD_SPAN; i++)); do
	pad_perm[i]=$((i + 1))
done
for ((i = PAD_SPAN - 1; i > 0; i--)); do
	# two draws: 30 bits, so that the modulo's bias is negligible
	next_random
	j=$random
	next_random
	j=$(( (j * 32768 + random) % (i + 1) ))
	t=${pad_perm[i]} pad_perm[i]=${pad_perm[j]} pad_perm[j]=$t
done
pair_seed=()
pair_pad=()
pair_kpad=()
setups_for() {
	local k
	[ "$1" -le "$PAD_SPAN" ] || die "more than $PAD_SPAN pairs: the pads would repeat"
	for ((k = ${#pair_seed[@]} + 1; k <= $1; k++)); do
		next_random
		pair_seed[k]=$random
		pair_pad[k]=${pad_perm[k - 1]}
		next_random
		pair_kpad[k]=$(( random % KPAD_SPAN + 1 ))
	done
}

# setup_line PREFIX K: PREFIX and what pair K's boots get (no subshell:
# --setups prints up to 4096 of them)
setup_line() {
	echo "$1 seed ${pair_seed[$2]}, pad ${pair_pad[$2]}, kpad ${pair_kpad[$2]}"
}

# distinct_setups N: how many different setups pairs 1..N hold
distinct_setups() {
	local k
	declare -A seen=()
	for ((k = 1; k <= $1; k++)); do
		seen["${pair_pad[k]}/${pair_kpad[k]}/${shuffle:+${pair_seed[k]}}"]=1
	done
	echo ${#seen[@]}
}

if [ "$mode" = setups ]; then
	case $only in
	[1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
	*) die "--setups: expected a number of pairs, not '$only'" ;;
	esac
	setups_for "$only"
	for ((k = 1; k <= only; k++)); do
		setup_line "pair $k:" "$k"
	done
	echo "distinct: $(distinct_setups "$only") of $only"
	exit 0
fi

case $jobs in
'' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
*) die "-j: expected a number of boots from 1 to 999, not '$jobs'" ;;
esac
for n in "$samples" "${samples_other:-$samples}"; do
	case $n in
	[1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
	*) die "-S, -T: expected a number of samples from 1 to 999, not '$n'" ;;
	esac
done
if [ "$mode" = judge ]; then
	[ $# -ge 1 ] || usage
	[ "$clock" != both ] || die "--judge: judge each clock's directory on its own (-c instruction or -c real)"
else
	[ $# -eq 2 ] || usage
	base=$(realpath "$1")
	cand=$(realpath "$2")
	[ -r "$base" ] || die "cannot read $1"
	[ -r "$cand" ] || die "cannot read $2"
	[ "$mode" = gate ] || [ "$clock" != both ] ||
		die "--boots-only: shard each clock on its own (-c instruction or -c real)"
	# a freshly built bzImage lives in O/arch/x86/boot/; for a copy
	# elsewhere, mkinitramfs.sh finds gen_init_cpio in $HIJACK_KCACHE
	if [ -z "$kout" ]; then
		d=$(cd "$(dirname "$base")/../../.." 2>/dev/null && pwd) || d=
		for f in usr/gen_init_cpio usr/gen_init_cpio.c source/usr/gen_init_cpio.c; do
			if [ -n "$d" ] && [ -e "$d/$f" ]; then
				kout=$d
				break
			fi
		done
	fi
fi

for p in forkbench benchcmp; do
	[ "$mode:$p" != judge:forkbench ] || continue
	[ -x "$bindir/$p" ] || die "no $bindir/$p: build it first (make, or make -f gate/Makefile.dev)"
done

# -w chooses workloads, never their order: a workload's cost depends on
# what ran before it in the boot (spawn-big slowed exec's first batches by
# up to 45%), and the list is on the kernel command line, whose length
# shifts the layout.  So the list is rewritten in forkbench's order.
if [ -n "$workloads" ] && [ "$mode" != judge ]; then
	canon=$("$bindir/forkbench" --list | cut -d' ' -f1) ||
		die "$bindir/forkbench --list failed"
	declare -A wanted=()
	IFS=, read -r -a items <<<"$workloads"
	for w in ${items[@]+"${items[@]}"}; do
		grep -qxF -- "$w" <<<"$canon" || die "-w: unknown workload '$w' (see forkbench --list)"
		[ -z "${wanted[$w]-}" ] || die "-w: '$w' is listed twice"
		wanted[$w]=1
	done
	[ ${#wanted[@]} -gt 0 ] || die "-w: empty list"
	workloads=
	while read -r w; do
		[ -z "${wanted[$w]-}" ] || workloads+=${workloads:+,}$w
	done <<<"$canon"
fi

# The worse of two gate exit statuses: no result, FAIL, INVALID,
# INCONCLUSIVE, PASS.
worse() {
	local r
	for r in 2 1 3 4; do
		if [ "$1" -eq $r ] || [ "$2" -eq $r ]; then
			echo $r
			return
		fi
	done
	echo 0
}

if [ "$clock" = both ]; then
	rc=0
	"$BASH" "$0" ${passthru[@]+"${passthru[@]}"} ${jobs:+-j "$jobs"} \
		-c instruction -o "$out" "$base" "$cand" || rc=$?
	# The probe boots the baseline with the plain test initramfs: under a
	# working KVM its /init prints its first line within seconds.
	accel=tcg
	why="/dev/kvm is missing or not writable"
	if [ -w /dev/kvm ]; then
		probe_dir=$(mktemp -d)
		"$kernel_dir/mkinitramfs.sh" ${kout:+-O "$kout"} \
			-o "$probe_dir/initramfs.cpio.gz" >/dev/null 2>&1 || die "cannot pack the probe initramfs"
		accel=$(HIJACK_ACCEL= "$kernel_dir/boot.sh" --probe "$base" \
			"$probe_dir/initramfs.cpio.gz" 2>/dev/null) || accel=tcg
		rm -rf "$probe_dir"
		why="a probe boot under KVM did not reach init (a /dev/kvm that cannot run an ordinary guest, e.g. nested PVM)"
	fi
	if [ "$accel" = kvm ]; then
		echo "gate: KVM works: real-time clock into $out/real-time" >&2
		r=0
		HIJACK_ACCEL=kvm "$BASH" "$0" ${passthru[@]+"${passthru[@]}"} -c real \
			-o "$out/real-time" "$base" "$cand" || r=$?
		rc=$(worse "$rc" "$r")
	else
		echo "real-time clock: not run: $why; the verdict above is the instruction clock's alone" |
			tee "$out/real-time.txt"
	fi
	exit "$rc"
fi

if [ "$mode" = judge ]; then
	[ -r "$1/gate.conf" ] || die "--judge: $1 has no gate.conf: not a gate result directory"
	conf_clock=$(sed -n 's/^clock=//p' "$1/gate.conf")
	if [ "$clock_given" ] && [ "$clock" != "$conf_clock" ]; then
		die "--judge: -c $clock, but the boots in $1 are on the $conf_clock clock"
	fi
	clock=$conf_clock
fi

boot_flags=()
per_boot=median
case $clock in
instruction)
	boot_flags+=(-I)
	# no outliers on this clock: a boot's mean uses every tick it took
	per_boot=mean
	export HIJACK_ACCEL=tcg
	: "${margin:=0.25}"
	# The instruction clock counts guest instructions: a boot's figures
	# are the same whatever else the host runs, so boots may overlap.
	: "${jobs:=${HIJACK_JOBS:-$(nproc)}}"
	;;
real | emulator)
	if [ "$clock" = real ]; then
		export HIJACK_ACCEL=${HIJACK_ACCEL:-kvm}
	else
		export HIJACK_ACCEL=tcg
	fi
	: "${margin:=1}"
	[ "${jobs:-1}" -eq 1 ] ||
		die "-j $jobs: the $clock clock is wall time, where boots running at once would slow each other down and the gate would measure that, not the kernels: its boots run one at a time (-j is for -c instruction)"
	jobs=1
	;;
*) die "-c: expected instruction, real, emulator or both, not $clock" ;;
esac
: "${margin2:=$(echo "2 * $margin" | bc -l)}"

# Margins of single workloads: fitted on the instruction clock, whose
# spread is the setups', not the host's; on wall time a file must be given.
margin_for=()
if [ -z "$margins_file" ] && [ "$clock" = instruction ] && [ -r "$here/margins.instruction" ]; then
	margins_file=$here/margins.instruction
fi
if [ -n "$margins_file" ] && [ "$margins_file" != none ]; then
	[ -r "$margins_file" ] || die "-F: cannot read $margins_file"
	while read -r name pct _; do
		case $name in '' | '#'*) continue ;; esac
		case $pct in
		[0-9]*) ;;
		*) die "-F: $margins_file: expected NAME PCT lines, not '$name $pct'" ;;
		esac
		margin_for+=(--margin-for "$name=$pct")
	done <"$margins_file"
fi

[ "$mode" = judge ] || mkdir -p "$out/A" "$out/B" "$out/logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What makes boots comparable: the same kernels, guest programs, options
# and master seed.  Written into DIR/gate.conf by every run; a resumed run
# or a shard must match it, and --judge merges only directories that agree.
write_conf() {
	local f
	{
		echo "# gate.sh: boots are comparable only under the same settings"
		echo "baseline=$(sha256sum <"$base" | cut -d' ' -f1)"
		echo "candidate=$(sha256sum <"$cand" | cut -d' ' -f1)"
		for f in "$bindir/forkbench" "$here/run-bench.sh"; do
			echo "$(basename "$f")=$(sha256sum <"$f" | cut -d' ' -f1)"
		done
		echo "clock=$clock"
		echo "seed=$seed"
		echo "shuffle=${shuffle:-0}"
		echo "workloads=$workloads"
		echo "samples=$samples"
		echo "samples_other=${samples_other:-$samples}"
		echo "minbatch=$minbatch"
		echo "baseline_words=${base_words[*]-}"
		echo "candidate_words=${cand_words[*]-}"
	} >"$1"
}

if [ "$mode" != judge ]; then
	write_conf "$tmp/gate.conf"
	if [ -e "$out/gate.conf" ] && ! cmp -s "$tmp/gate.conf" "$out/gate.conf"; then
		diff "$out/gate.conf" "$tmp/gate.conf" | sed -n 's/^[<>] /gate:   /p' >&2
		die "$out holds boots of other settings (its gate.conf differs as above): use another -o DIR"
	fi
	cp "$tmp/gate.conf" "$out/gate.conf"

	# The payload: static forkbench and the guest script, as /opt/hijack.
	mkdir "$tmp/payload"
	cp "$bindir/forkbench" "$tmp/payload/forkbench"
	cp "$here/run-bench.sh" "$tmp/payload/run-bench"
	chmod 755 "$tmp/payload/run-bench"
	"$kernel_dir/mkinitramfs.sh" ${kout:+-O "$kout"} -o "$tmp/initramfs.cpio.gz" -p "$tmp/payload"
fi

# one_boot SIDE PAIR: boot the baseline (A) or the candidate (B) of a pair.
one_boot() {
	local side=$1 k=$2 kernel label dir kpad seed log json rc=0
	local -a extra
	if [ "$side" = A ]; then
		kernel=$base label=baseline extra=(${base_words[@]+"${base_words[@]}"})
	else
		kernel=$cand label=candidate extra=(${cand_words[@]+"${cand_words[@]}"})
	fi
	dir=$out/$side
	log=$out/logs/$side-boot$k.log
	json=$dir/boot$k.json
	if [ -n "$resume" ] && grep -q '"forkbench"' "$json" 2>/dev/null; then
		echo "gate: reusing $json" >&2
		return 0
	fi
	# Every word of a fixed width: the command line's length is then
	# the same for both kernels and for every boot number, and only
	# fb_kpad, the same for A and B, changes it.
	kpad=$(head -c "${pair_kpad[k]}" /dev/zero | tr '\0' k)
	seed=fixed	# the canonical order; else a seed of five digits
	[ -z "$shuffle" ] || seed=$(printf '%05d' "${pair_seed[k]}")
	local words=(-a hijack_mode=bench -a loglevel=1 -a "fb_seed=$seed"
		     -a "fb_boot=$(printf '%03d' "$k")" -a "fb_kernel=$side"
		     -a "fb_pad=$(printf '%04d' "${pair_pad[k]}")" -a "fb_kpad=$kpad"
		     -a "fb_samples=$samples" -a "fb_others=${samples_other:-$samples}"
		     -a "fb_minbatch=$minbatch"
		     -a "fb_clock=$clock" -a "hijack_accel=$HIJACK_ACCEL")
	[ -n "$workloads" ] && words+=(-a "fb_workloads=$workloads")
	words+=(${extra[@]+"${extra[@]}"})
	"$kernel_dir/boot.sh" ${boot_flags[@]+"${boot_flags[@]}"} -t "$timeout" \
		-l "$log" "${words[@]}" "$kernel" "$tmp/initramfs.cpio.gz" || rc=$?
	[ "$rc" -eq 0 ] || echo "gate: boot $k of $label exited $rc" >&2
	# written under another name and renamed: a boot cut short leaves
	# no half file that -r or --judge could take for a result
	sed -n '/FORKBENCH-JSON-BEGIN/,/FORKBENCH-JSON-END/p' "$log" |
		tr -d '\r' | sed '1d;$d' >"$json.part"
	if ! grep -q '"forkbench"' "$json.part"; then
		rm -f "$json.part"
		echo "gate: boot $k of $label gave no forkbench results: see $log" >&2
		return 1
	fi
	mv "$json.part" "$json"
}

# run_boots BOOT...: each BOOT is A<k> or B<k>; up to $jobs at once.
# Returns 1 if any gave no results (after letting the others finish).
run_boots() {
	local b failed=0 running=0
	for b in "$@"; do
		if [ "$jobs" -le 1 ]; then
			one_boot "${b:0:1}" "${b:1}" || failed=1
			continue
		fi
		if [ "$running" -ge "$jobs" ]; then
			wait -n || failed=1
			running=$((running - 1))
		fi
		one_boot "${b:0:1}" "${b:1}" &
		running=$((running + 1))
	done
	while [ "$running" -gt 0 ]; do
		wait -n || failed=1
		running=$((running - 1))
	done
	return $failed
}

# pairs_boots FROM TO: the boots of pairs FROM..TO, A before B (call
# setups_for TO first: this runs in a $(...) subshell)
pairs_boots() {
	local k
	for ((k = $1; k <= $2; k++)); do
		setup_line "gate: pair $k:" "$k" >&2
		echo "A$k B$k"
	done
}

judge() {
	# judge LOOK NR_LOOKS PAIRS: prints the table, leaves the files,
	# returns benchcmp's exit status.  Only boots 1..PAIRS count: a
	# resumed folder (-r) may hold more, which belong to later looks.
	local rc=0 i a="" b="" args=(--clock "$clock" --per-boot "$per_boot"
			 --margin "$margin" --margin-secondary "$margin2"
			 ${margin_for[@]+"${margin_for[@]}"}
			 --look "$1" --looks "$2")
	for ((i = 1; i <= $3; i++)); do
		a+="${a:+,}$out/A/boot$i.json"
		b+="${b:+,}$out/B/boot$i.json"
	done
	"$bindir/benchcmp" "${args[@]}" --json "$a" "$b" >"$out/verdict.json" || true
	"$bindir/benchcmp" "${args[@]}" --ktap "$a" "$b" >"$out/verdict.ktap" || true
	"$bindir/benchcmp" "${args[@]}" --svg "$out/gate.svg" \
		--ministat-dir "$out/ministat" "$a" "$b" >"$out/verdict.txt" || rc=$?
	cat "$out/verdict.txt"
	return $rc
}

# How many warm-up batches forkbench discarded (beyond calibration) in the
# boots judged: the warm-up goes on until two batches agree, so a workload
# disturbed by what ran before shows here (gate/RESULTS.md).
warmup_summary() {
	local i files=()
	for ((i = 1; i <= $1; i++)); do
		files+=("$out/A/boot$i.json" "$out/B/boot$i.json")
	done
	awk '
	/"name": /   { name = $2; gsub(/[",]/, "", name) }
	/"warmup": / { w = $2 + 0; runs++; hist[w]++
		       if (w > max) { max = w; where = name " in " FILENAME } }
	/"settled": false/ { unsettled++ }
	END {
		if (!runs) { print "warm-up: not reported (an older forkbench)"; exit }
		line = "warm-up: batches discarded per workload run:"
		for (w = 0; w <= max; w++)
			if (hist[w]) line = line " " w "x" hist[w]
		print line " (" runs " runs); most: " max " (" where "); not settled: " unsettled + 0
	}' "${files[@]}"
}

# The guest time of the boots judged, from run-bench's last line: on the
# instruction clock it is their instruction count, the part of the gate's
# cost that no host load changes (wall time = this / the emulator's speed).
guest_time() {
	local i logs=()
	for ((i = 1; i <= $1; i++)); do
		logs+=("$out/logs/A-boot$i.log" "$out/logs/B-boot$i.log")
	done
	cat "${logs[@]}" 2>/dev/null | tr -d '\r' | awk -v wall="$(( $(date +%s) - start ))" '
	/^# guest uptime: / { t += $4; n++ }
	END { if (n) printf "gate: %d boots, %.1f s of guest time (%s clock), %d s of wall time so far\n",
			    n, t, "'"$clock"'", wall }' >&2
}

IFS=, read -r -a schedule <<<"$looks"
nr_looks=${#schedule[@]}
for t in "${schedule[@]}"; do
	case $t in
	[1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;;
	*) die "-n: expected pair counts like 8,16,24, not '$looks'" ;;
	esac
done

if [ "$mode" = boots ]; then
	todo=()
	declare -A seen=()
	IFS=, read -r -a items <<<"$only"
	for item in ${items[@]+"${items[@]}"}; do
		case $item in
		[AB][1-9] | [AB][1-9][0-9] | [AB][1-9][0-9][0-9])
			lo=${item:1} hi=${item:1} sides=${item:0:1} ;;
		[1-9] | [1-9][0-9] | [1-9][0-9][0-9])
			lo=$item hi=$item sides=AB ;;
		[1-9]*-[1-9]*)
			lo=${item%-*} hi=${item#*-} sides=AB
			case $lo$hi in *[!0-9]*) die "--boots-only: bad item '$item' in '$only'" ;; esac
			if [ "$lo" -gt "$hi" ] || [ "$hi" -gt 999 ]; then
				die "--boots-only: bad range '$item' in '$only'"
			fi ;;
		*) die "--boots-only: bad item '$item' in '$only' (pairs 3 or 1-8, boots A3 or B3)" ;;
		esac
		setups_for "$hi"
		for ((k = lo; k <= hi; k++)); do
			for side in A B; do
				case $sides in *$side*) ;; *) continue ;; esac
				[ -z "${seen[$side$k]-}" ] || continue
				seen[$side$k]=1
				setup_line "gate: boot $side$k:" "$k" >&2
				todo+=("$side$k")
			done
		done
	done
	[ ${#todo[@]} -gt 0 ] || die "--boots-only: empty list"
	rc=0
	run_boots "${todo[@]}" || rc=2
	echo "gate: boots $only in $out (clock: $clock); judge with gate.sh --judge" >&2
	exit $rc
fi

if [ "$mode" = judge ]; then
	# Merge: every directory must hold boots of the same settings, and a
	# boot found twice must be the same bytes (the instruction clock
	# makes it so; a difference means something else differed).
	first=
	for d in "$@"; do
		[ -r "$d/gate.conf" ] || die "--judge: $d has no gate.conf: not a gate result directory"
		if [ -z "$first" ]; then
			first=$d
		elif ! cmp -s "$first/gate.conf" "$d/gate.conf"; then
			die "--judge: $d and $first hold boots of different settings (gate.conf differs)"
		fi
	done
	if [ -e "$out/gate.conf" ] && ! cmp -s "$first/gate.conf" "$out/gate.conf"; then
		die "--judge: $out holds boots of other settings (gate.conf differs from $first's)"
	fi
	# Check every file first, copy after: a refused merge leaves -o DIR
	# as it was.
	copies=()
	declare -A from=()
	for d in "$@"; do
		for f in "$d"/A/boot*.json "$d"/B/boot*.json "$d"/logs/*; do
			[ -f "$f" ] || continue
			case $f in
			*/A/*) to=$out/A/${f##*/} ;;
			*/B/*) to=$out/B/${f##*/} ;;
			*) to=$out/logs/${f##*/} ;;
			esac
			# a boot's file must say it is that boot of that kernel
			case $f in
			*/A/boot*.json | */B/boot*.json)
				k=${f##*/boot} k=${k%.json} side=${f%/boot*} want=baseline
				[ "${side##*/}" = A ] || want=candidate
				grep -q "\"boot\": \"$k\"" "$f" && grep -q "\"kernel\": \"$want\"" "$f" ||
					die "--judge: $f is not boot $k of the $want (its tags say otherwise)"
				;;
			esac
			[ "$(realpath "$f")" != "$(realpath -m "$to")" ] || continue
			# the same boot twice must be the same bytes
			other=${from[$to]-}
			[ -n "$other" ] || { [ ! -e "$to" ] || other=$to; }
			if [ -n "$other" ]; then
				case $f in
				*.json) cmp -s "$f" "$other" || die "--judge: $f differs from the same boot in $other" ;;
				esac
				continue
			fi
			from[$to]=$f
			copies+=("$f" "$to")
		done
	done
	mkdir -p "$out/A" "$out/B" "$out/logs"
	cp "$first/gate.conf" "$out/gate.conf"
	for ((i = 0; i < ${#copies[@]}; i += 2)); do
		cp "${copies[i]}" "${copies[i + 1]}"
	done
fi

start=$(date +%s)
done_pairs=0
rc=2
for ((look = 1; look <= nr_looks; look++)); do
	target=${schedule[look - 1]}
	[ "$target" -gt "$done_pairs" ] || die "-n: looks must grow, not $looks"
	if [ "$mode" = judge ]; then
		missing=()
		for ((k = done_pairs + 1; k <= target; k++)); do
			[ -f "$out/A/boot$k.json" ] || missing+=("A$k")
			[ -f "$out/B/boot$k.json" ] || missing+=("B$k")
		done
		if [ ${#missing[@]} -gt 0 ]; then
			echo "gate: look $look of $nr_looks needs pairs $((done_pairs + 1))-$target; missing: ${missing[*]} (gate.sh --boots-only $((done_pairs + 1))-$target)" >&2
			[ "$look" -gt 1 ] || die "--judge: not even the first look can be judged"
			rc=4
			break
		fi
	else
		setups_for "$target"
		# shellcheck disable=SC2046 # "A1 B1 A2 B2 ..."
		run_boots $(pairs_boots $((done_pairs + 1)) "$target") ||
			die "a boot gave no results (see above)"
	fi
	done_pairs=$target
	setups_for "$target"
	echo "gate: look $look of $nr_looks after $done_pairs pairs, $(distinct_setups "$done_pairs") distinct setups" >&2
	rc=0
	judge "$look" "$nr_looks" "$done_pairs" || rc=$?
	warmup_summary "$done_pairs" | tee "$out/warmup.txt"
	guest_time "$done_pairs"
	[ "$rc" -eq 4 ] || break
	# More boots only while a primary workload is undecided: a noisy
	# secondary one alone is reported INCONCLUSIVE, not chased.
	case $(sed -n 's/^primary: //p' "$out/verdict.txt") in
	INCONCLUSIVE | none) ;;
	*) break ;;
	esac
done
echo "gate: results in $out (clock: $clock)" >&2
exit "$rc"
}
