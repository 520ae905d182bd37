#!/bin/bash
# entry-latency.sh [-r ROUNDS] [-k BATCH] [-c | -t PID] [-n TARGET]... [-- EXTRA HIJACK OPTIONS]
#
# How long it takes to start a command inside a container: hijack next to
# nsenter(1) and a bare /bin/true, against a fixture target in fresh
# mnt/uts/ipc/net/pid/cgroup/time namespaces.  With -c the target is also
# confined (uid 1000, groups, two capabilities, no_new_privs, a seccomp
# filter, child cgroups).  With -t PID the target is that task instead
# (an LXC container's init: lxc-info -pHn NAME).  hijack is measured with
# full confinement (the default) and entering namespaces only, and, in CPU
# time (perf stat's task-clock, far less disturbed by load than the wall
# clock), phase by phase: start-up and dynamic loading, the plan's /proc
# reads, fork + setns + exec, the cgroup joins, the rest of the
# confinement; then system calls per entry (strace -c) and peak RSS.  A
# benchmark, not a test: it prints figures and asserts nothing.
#
# This machine is shared and noisy, so the commands are interleaved
# (A B C D, A B C D, ...) in one run, each sample is a batch, and the
# report is medians and ratios of medians, never absolute promises.
# With -n (repeatable), also what naming a container costs: "hijack
# TARGET" against "hijack --pid PID" of the same container, interleaved,
# and "hijack --list" (what the completions run).
# Environment: HIJACK and FIXTURE (defaults: the build tree in ./build).
set -eu

rounds=30
batch=20
confined=""
named=()
given=""
while getopts "r:k:cn:t:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	k) batch=$OPTARG ;;
	c) confined="--cgroup hijack-bench-$$ --uid 1000 --gid 1000 --groups 1000,100 --caps 5,10 --nnp --deny-mkdir" ;;
	n) named+=("$OPTARG") ;;
	t) given=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-k BATCH] [-c | -t PID] [-n TARGET]... [-- HIJACK-OPTIONS]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
extra=("$@")

# shellcheck source=tests/bench/entry-lib.sh
. "$(dirname "$0")/entry-lib.sh"
command -v nsenter >/dev/null || { echo "entry-latency: needs nsenter (util-linux)" >&2; exit 1; }

perf=$(command -v perf || true)
# Re-run by csample and the syscall count: the target is known already.
# With -t the target is given (an LXC container's init, say).
if [ "${batch_of:-}" ]; then
	target=${target:?}
elif [ -n "$given" ]; then
	target=$given
else
	out=$(mktemp)
	# shellcheck disable=SC2086
	"$FIXTURE" $confined >"$out" &
	fixture=$!
	trap 'kill $fixture 2>/dev/null; wait $fixture 2>/dev/null; rm -f "$out"' EXIT
	for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
	target=$(cat "$out")
fi

nsonly=(--preserve-credentials --caps=keep --cgroups=keep --seccomp=none --lsm=keep --env=keep --limits=keep)
nscg=(--preserve-credentials --caps=keep --seccomp=none --lsm=keep --env=keep --limits=keep)
names=("bare /bin/true" "nsenter -a" "nsenter -a -r -w" "hijack ${extra[*]}" "hijack, namespaces only"
	"nsenter --version" "hijack --version" "hijack --explain" "hijack --explain, ns only" "hijack, ns + cgroups")
# cmd K: the command line of command K, in the array cmd.
cmd() {
	case $1 in
	0) cmd=(/bin/true) ;;
	1) cmd=(nsenter -t "$target" -a /bin/true) ;;
	2) cmd=(nsenter -t "$target" -a -r -w /bin/true) ;;
	3) cmd=("$HIJACK" --pid "$target" "${extra[@]}" -- /bin/true) ;;
	4) cmd=("$HIJACK" --pid "$target" "${nsonly[@]}" "${extra[@]}" -- /bin/true) ;;
	5) cmd=(nsenter --version) ;;
	6) cmd=("$HIJACK" --version) ;;
	7) cmd=("$HIJACK" --explain --pid "$target" "${extra[@]}") ;;
	8) cmd=("$HIJACK" --explain --pid "$target" "${nsonly[@]}" "${extra[@]}") ;;
	9) cmd=("$HIJACK" --pid "$target" "${nscg[@]}" "${extra[@]}" -- /bin/true) ;;
	esac
}
run() {
	cmd "$1"
	"${cmd[@]}" >/dev/null
}
# --batch C N: N runs of command C, for perf stat (below) to count.
if [ "${batch_of:-}" ]; then
	for ((i = 0; i < batch; i++)); do run "$batch_of" || exit 1; done
	exit 0
fi

# One sample: BATCH runs of one command, in microseconds per run.
sample() {
	local t0 t1 i
	t0=$EPOCHREALTIME
	for ((i = 0; i < batch; i++)); do run "$1" || { echo "entry-latency: '${names[$1]}' failed" >&2; exit 1; }; done
	t1=$EPOCHREALTIME
	echo "(${t1/./} - ${t0/./}) / $batch" | bc
}
# The same in CPU time (task-clock of the whole process tree, in us per
# run), which a loaded machine disturbs far less than the wall clock: the
# per-phase breakdown is made of these.  The batch runs in a fresh shell
# under perf stat; the shell's own cost is the same for every command and
# cancels in the differences.
csample() {
	local f
	f=$(mktemp)
	batch_of=$1 target=$target perf stat -x, -e task-clock -o "$f" -- "$0" -r 1 -k "$batch" -- "${extra[@]}" ||
		{ echo "entry-latency: '${names[$1]}' failed under perf" >&2; rm -f "$f"; exit 1; }
	awk -F, -v b="$batch" '$3 == "task-clock" { printf "%d\n", $1 * 1000 / b }' "$f"
	rm -f "$f"
}
export HIJACK FIXTURE

ncmd=${#names[@]}
declare -A s c
for ((k = 0; k < ncmd; k++)); do run $k >/dev/null; done	# warm the page cache
for ((r = 0; r < rounds; r++)); do
	for ((k = 0; k < ncmd; k++)); do
		s[$k]+=" $(sample $k)"
		[ -z "$perf" ] || c[$k]+=" $(csample $k)"
	done
done

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -a m cm
for ((k = 0; k < ncmd; k++)); do
	# shellcheck disable=SC2086
	m[k]=$(median ${s[$k]})
	# shellcheck disable=SC2086
	[ -z "$perf" ] || cm[k]=$(median ${c[$k]})
done
m0=${m[0]} m1=${m[1]} m2=${m[2]} m3=${m[3]} m4=${m[4]}

echo "entry latency, target pid $target${confined:+ (confined)}, $rounds interleaved rounds x $batch runs, $(nproc) cpus, $(uname -r)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %12s %12s %12s\n' command "median us" "over bare" "cpu us"
for ((k = 0; k < ncmd; k++)); do
	over=-
	[ "$k" = 0 ] || over=$(echo "${m[$k]} - $m0" | bc)
	printf '%-28s %12s %12s %12s\n' "${names[$k]}" "${m[$k]}" "$over" "${cm[$k]:--}"
done
echo
ratio() { echo "scale=3; $1 / $2" | bc; }
printf 'hijack / nsenter -a        = %s  (entry overhead only: %s)\n' \
	"$(ratio "$m3" "$m1")" "$(ratio "($m3 - $m0)" "($m1 - $m0)")"
printf 'hijack / nsenter -a -r -w  = %s  (entry overhead only: %s)\n' \
	"$(ratio "$m3" "$m2")" "$(ratio "($m3 - $m0)" "($m2 - $m0)")"
printf 'ns only / nsenter -a       = %s  (entry overhead only: %s)\n' \
	"$(ratio "$m4" "$m1")" "$(ratio "($m4 - $m0)" "($m1 - $m0)")"
printf 'hijack full / namespaces   = %s  (entry overhead only: %s)\n' \
	"$(ratio "$m3" "$m4")" "$(ratio "($m3 - $m0)" "($m4 - $m0)")"
[ -z "$perf" ] || {
	printf 'in cpu time: hijack / nsenter -a = %s, ns only / nsenter -a = %s  (targets: 0.9, 0.8)\n' \
		"$(ratio "${cm[3]}" "${cm[1]}")" "$(ratio "${cm[4]}" "${cm[1]}")"
	echo
	echo "per-phase breakdown, cpu us per entry (differences of the medians above):"
	phase() { printf '  %-44s %8s\n' "$1" "$(echo "$2" | bc)"; }
	phase "startup, dynamic loading (--version - bare)" "${cm[6]} - ${cm[0]}"
	phase "plan: pin, /proc reads (--explain - --version)" "${cm[7]} - ${cm[6]}"
	phase "fork, setns, exec (ns only - its --explain)" "${cm[4]} - ${cm[8]}"
	phase "cgroup joins (ns + cgroups - ns only)" "${cm[9]} - ${cm[4]}"
	phase "creds, caps, seccomp, LSM, env, limits" "${cm[3]} - ${cm[9]}"
	phase "nsenter: startup (--version - bare)" "${cm[5]} - ${cm[0]}"
	phase "nsenter: setns, fork, exec (-a - --version)" "${cm[1]} - ${cm[5]}"
}
echo
echo "system calls per entry (strace -f -c), peak RSS (max of the tree's processes, GNU time):"
printf '  %-24s %6s %6s %6s %6s %6s %6s %6s %8s\n' command total openat readl* read clone setns mmap "rss KiB"
for k in 1 3 4; do
	st=$(mktemp)
	cmd $k
	strace -f -c -o "$st" -- "${cmd[@]}" >/dev/null 2>&1 || true
	# GNU time: wait4()'s ru_maxrss covers the reaped descendants too.
	rss=$(/usr/bin/time -f %M -- "${cmd[@]}" 2>&1 >/dev/null | tail -1)
	awk -v n="${names[$k]}" -v rss="$rss" '
		$NF == "total" { t = $4 }
		$NF == "openat" || $NF == "read" || $NF == "mmap" || $NF == "setns" { v[$NF] = $4 }
		$NF ~ /^readlink/ { v["readlink"] += $4 }
		$NF ~ /^clone/ || $NF ~ /fork$/ { v["clone"] += $4 }
		END { printf "  %-24s %6s %6d %6d %6d %6d %6d %6d %8s\n", n, t, v["openat"], v["readlink"], v["read"], v["clone"], v["setns"], v["mmap"], rss }' "$st"
	rm -f "$st"
done

# --- naming a container (-n) -------------------------------------------------
[ ${#named[@]} -gt 0 ] || exit 0
echo
echo "resolution cost, $rounds interleaved rounds x $batch runs (us per run)"
printf '%-36s %10s %10s %10s\n' target "--pid" "by name" "cost"
# One sample of a named target: BATCH runs of one command line.
nsample() {
	local t0 t1 i
	t0=$EPOCHREALTIME
	for ((i = 0; i < batch; i++)); do "$@" >/dev/null || { echo "entry-latency: '$*' failed" >&2; exit 1; }; done
	t1=$EPOCHREALTIME
	echo "(${t1/./} - ${t0/./}) / $batch" | bc
}
for t in "${named[@]}"; do
	pid=$("$HIJACK" --explain "$t" | sed -n 's/^init: *pid //p')
	[ -n "$pid" ] || { echo "entry-latency: cannot resolve '$t'" >&2; exit 1; }
	a=() b=() l=()
	for ((r = 0; r < rounds; r++)); do
		a+=("$(nsample "$HIJACK" --pid "$pid" -- /bin/sh -c :)")
		b+=("$(nsample "$HIJACK" "$t" -- /bin/sh -c :)")
		l+=("$(nsample "$HIJACK" --list)")
	done
	ma=$(median "${a[@]}") mb=$(median "${b[@]}") ml=$(median "${l[@]}")
	printf '%-36s %10s %10s %10s   (hijack --list: %s)\n' "$t" "$ma" "$mb" \
		"$(echo "$mb - $ma" | bc)" "$ml"
done
