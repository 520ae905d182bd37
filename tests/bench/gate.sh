#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gate.sh - the fork-path regression gate: boot two kernels alternately
# under QEMU, run forkbench in each boot, and let benchcmp decide.
#
# usage: gate.sh [options] BASELINE_BZIMAGE CANDIDATE_BZIMAGE
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
#   -w LIST     forkbench workloads (default all)
#   -S N        samples per workload and boot (default 10)
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
#   -x WORD     extra kernel command-line word for the baseline boots,
#               -X WORD for the candidate boots (repeatable; e.g. the
#               canary: -x fork_canary=000 -X fork_canary=150, the same
#               length, since the command line shifts the kernel's layout)
#
# Each pair of boots (A then B, same setup) draws from the master seed an
# environment pad of 1-46 bytes (and with -R a workload order), so hidden
# layout biases become variance that the interval contains (GATE.md).
# Environment: BENCH_BINDIR (forkbench, benchcmp; default the build tree),
# HIJACK_ACCEL (see tests/kernel/boot.sh).
#
# Exit status: benchcmp's (0 PASS, 1 FAIL, 3 INVALID, 4 INCONCLUSIVE), 2 on
# a usage error or a boot that produced no results.

set -eu

# Read the whole script before running any of it (it runs for a long time).
{

here=$(cd "$(dirname "$0")" && pwd)
kernel_dir=$here/../kernel
bindir=${BENCH_BINDIR:-${top_builddir:-$here/../..}/tests/bench}
[ -x "$bindir/forkbench" ] || bindir=$here
out=./gate-results
looks=8
clock=instruction
margin=
margin2=
workloads=
samples=10
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
	sed -n '7,39s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while getopts o:n:c:m:M:w:S:b:s:O:t:x:X:Rr opt; do
	case $opt in
	o) out=$OPTARG ;;
	n) looks=$OPTARG ;;
	c) clock=$OPTARG ;;
	m) margin=$OPTARG ;;
	M) margin2=$OPTARG ;;
	w) workloads=$OPTARG ;;
	S) samples=$OPTARG ;;
	b) minbatch=$OPTARG ;;
	s) seed=$OPTARG ;;
	O) kout=$OPTARG ;;
	t) timeout=$OPTARG ;;
	x) base_words+=(-a "$OPTARG") ;;
	X) cand_words+=(-a "$OPTARG") ;;
	R) shuffle=1 ;;
	r) resume=1 ;;
	*) usage ;;
	esac
	case $opt in
	c | o) ;;
	n | m | M | w | S | b | s | O | t | x | X) passthru+=("-$opt" "$OPTARG") ;;
	*) passthru+=("-$opt") ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
base=$(realpath "$1")
cand=$(realpath "$2")
[ -r "$base" ] || die "cannot read $1"
[ -r "$cand" ] || die "cannot read $2"

for p in forkbench benchcmp; do
	[ -x "$bindir/$p" ] || die "no $bindir/$p: build it first (make, or make -f tests/bench/Makefile.dev)"
done
# a bzImage lives in O/arch/x86/boot/
[ -n "$kout" ] || kout=$(cd "$(dirname "$base")/../../.." && pwd)

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
	"$BASH" "$0" ${passthru[@]+"${passthru[@]}"} -c instruction -o "$out" "$base" "$cand" || rc=$?
	# The probe boots the baseline with the plain test initramfs: under a
	# working KVM its /init prints its first line within seconds.
	accel=tcg
	why="/dev/kvm is missing or not writable"
	if [ -w /dev/kvm ]; then
		probe_dir=$(mktemp -d)
		"$kernel_dir/mkinitramfs.sh" -O "$kout" \
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

boot_flags=()
per_boot=median
case $clock in
instruction)
	boot_flags+=(-I)
	# no outliers on this clock: a boot's mean uses every tick it took
	per_boot=mean
	export HIJACK_ACCEL=tcg
	: "${margin:=0.25}"
	;;
real)
	export HIJACK_ACCEL=${HIJACK_ACCEL:-kvm}
	: "${margin:=1}"
	;;
emulator)
	export HIJACK_ACCEL=tcg
	: "${margin:=1}"
	;;
*) die "-c: expected instruction, real, emulator or both, not $clock" ;;
esac
: "${margin2:=$(echo "2 * $margin" | bc -l)}"

mkdir -p "$out/A" "$out/B" "$out/logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The payload: static forkbench and the guest script, as /opt/hijack.
mkdir "$tmp/payload"
cp "$bindir/forkbench" "$tmp/payload/forkbench"
cp "$here/run-bench.sh" "$tmp/payload/run-bench"
chmod 755 "$tmp/payload/run-bench"
"$kernel_dir/mkinitramfs.sh" -O "$kout" -o "$tmp/initramfs.cpio.gz" -p "$tmp/payload"

# A reproducible stream of numbers from the master seed, in $random (not
# printed: a $(...) subshell would lose the generator's state).
rng_state=$seed
random=0
next_random() {
	rng_state=$(( (rng_state * 1103515245 + 12345) % 2147483648 ))
	random=$(( rng_state / 65536 ))
}

# one_boot KERNEL LABEL DIR BOOT BOOTSEED PAD [-a WORD]...
one_boot() {
	local log=$out/logs/$(basename "$3")-boot$4.log json=$3/boot$4.json
	if [ -n "$resume" ] && grep -q '"forkbench"' "$json" 2>/dev/null; then
		echo "gate: reusing $json" >&2
		return 0
	fi
	local words=(-a hijack_mode=bench -a loglevel=1 -a "fb_seed=${shuffle:+$5}"
		     -a "fb_boot=$4" -a "fb_kernel=$2" -a "fb_pad=$6"
		     -a "fb_samples=$samples" -a "fb_minbatch=$minbatch"
		     -a "fb_clock=$clock" -a "hijack_accel=$HIJACK_ACCEL")
	[ -n "$workloads" ] && words+=(-a "fb_workloads=$workloads")
	words+=("${@:7}")
	"$kernel_dir/boot.sh" ${boot_flags[@]+"${boot_flags[@]}"} -t "$timeout" \
		-l "$log" "${words[@]}" "$1" "$tmp/initramfs.cpio.gz" ||
		echo "gate: boot $4 of $2 exited $?" >&2
	sed -n '/FORKBENCH-JSON-BEGIN/,/FORKBENCH-JSON-END/p' "$log" |
		tr -d '\r' | sed '1d;$d' >"$json"
	if ! grep -q '"forkbench"' "$json"; then
		rm -f "$json"
		die "boot $4 of $2 gave no forkbench results: see $log"
	fi
}

judge() {
	# judge LOOK NR_LOOKS PAIRS: prints the table, leaves the files,
	# returns benchcmp's exit status.  Only boots 1..PAIRS count: a
	# resumed folder (-r) may hold more, which belong to later looks.
	local rc=0 i a="" b="" args=(--clock "$clock" --per-boot "$per_boot"
			 --margin "$margin" --margin-secondary "$margin2"
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

IFS=, read -r -a schedule <<<"$looks"
nr_looks=${#schedule[@]}
done_pairs=0
rc=4
for ((look = 1; look <= nr_looks; look++)); do
	target=${schedule[look - 1]}
	while [ "$done_pairs" -lt "$target" ]; do
		done_pairs=$((done_pairs + 1))
		next_random
		bootseed=$random
		next_random
		pad=$(head -c $(( random % 46 + 1 )) /dev/zero | tr '\0' p)
		echo "gate: pair $done_pairs: seed $bootseed, pad ${#pad}" >&2
		# the same setup for both kernels of a pair
		one_boot "$base" baseline "$out/A" "$done_pairs" "$bootseed" "$pad" \
			${base_words[@]+"${base_words[@]}"}
		one_boot "$cand" candidate "$out/B" "$done_pairs" "$bootseed" "$pad" \
			${cand_words[@]+"${cand_words[@]}"}
	done
	echo "gate: look $look of $nr_looks after $done_pairs pairs" >&2
	rc=0
	judge "$look" "$nr_looks" "$done_pairs" || rc=$?
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
