#!/bin/bash
# entry-latency.sh [-r ROUNDS] [-k BATCH] [-c] [-n TARGET]... [-- EXTRA HIJACK OPTIONS]
#
# How long it takes to start a command inside a container: hijack next to
# nsenter(1) and a bare /bin/true, against a fixture target in fresh
# mnt/uts/ipc/net/pid/cgroup/time namespaces.  With -c the target is also
# confined (uid 1000, groups, two capabilities, no_new_privs, a seccomp
# filter, child cgroups), and hijack is measured twice: with full
# confinement (the default) and entering namespaces only.  A benchmark, not
# a test: it prints figures and asserts nothing.
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
while getopts "r:k:cn:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	k) batch=$OPTARG ;;
	c) confined="--cgroup hijack-bench-$$ --uid 1000 --gid 1000 --groups 1000,100 --caps 5,10 --nnp --deny-mkdir" ;;
	n) named+=("$OPTARG") ;;
	*) echo "usage: $0 [-r ROUNDS] [-k BATCH] [-c] [-n TARGET]... [-- HIJACK-OPTIONS]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
extra=("$@")

top=$(cd "$(dirname "$0")/../.." && pwd)
HIJACK=${HIJACK:-$top/build/src/cli/hijack}
FIXTURE=${FIXTURE:-$top/build/tests/integration/fixture}
# In a build tree src/cli/hijack is libtool's wrapper script, which would
# add a shell's start-up to every entry timed: time the binary itself,
# with the build tree's libhijack.so.0.
if [ -x "$(dirname "$HIJACK")/.libs/hijack" ]; then
	LD_LIBRARY_PATH=$(cd "$(dirname "$HIJACK")/../.." && pwd)/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	HIJACK=$(dirname "$HIJACK")/.libs/hijack
fi
[ "$(id -u)" = 0 ] || { echo "entry-latency: needs root (namespaces)" >&2; exit 1; }
command -v nsenter >/dev/null || { echo "entry-latency: needs nsenter (util-linux)" >&2; exit 1; }

out=$(mktemp)
# shellcheck disable=SC2086
"$FIXTURE" $confined >"$out" &
fixture=$!
trap 'kill $fixture 2>/dev/null; wait $fixture 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
target=$(cat "$out")

nsonly=(--preserve-credentials --caps=keep --cgroups=keep --seccomp=none --lsm=keep --env=keep --limits=keep)
names=("bare /bin/true" "nsenter -a" "nsenter -a -r -w" "hijack ${extra[*]}" "hijack, namespaces only")
run() {
	case $1 in
	0) /bin/true ;;
	1) nsenter -t "$target" -a /bin/true ;;
	2) nsenter -t "$target" -a -r -w /bin/true ;;
	3) "$HIJACK" --pid "$target" "${extra[@]}" -- /bin/true ;;
	4) "$HIJACK" --pid "$target" "${nsonly[@]}" "${extra[@]}" -- /bin/true ;;
	esac
}

# One sample: BATCH runs of one command, in microseconds per run.
sample() {
	local t0 t1 i
	t0=$EPOCHREALTIME
	for ((i = 0; i < batch; i++)); do run "$1" || { echo "entry-latency: '${names[$1]}' failed" >&2; exit 1; }; done
	t1=$EPOCHREALTIME
	echo "(${t1/./} - ${t0/./}) / $batch" | bc
}

declare -a s0 s1 s2 s3 s4
for c in 0 1 2 3 4; do run $c; done	# warm the page cache
for ((r = 0; r < rounds; r++)); do
	s0+=("$(sample 0)"); s1+=("$(sample 1)"); s2+=("$(sample 2)")
	s3+=("$(sample 3)"); s4+=("$(sample 4)")
done

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m0=$(median "${s0[@]}"); m1=$(median "${s1[@]}"); m2=$(median "${s2[@]}"); m3=$(median "${s3[@]}"); m4=$(median "${s4[@]}")

echo "entry latency, target pid $target${confined:+ (confined)}, $rounds interleaved rounds x $batch runs, $(nproc) cpus, $(uname -r)"
printf '%-28s %12s %12s\n' command "median us" "over bare"
printf '%-28s %12s %12s\n' "${names[0]}" "$m0" "-"
for i in 1 2 3 4; do
	m=m$i
	printf '%-28s %12s %12s\n' "${names[$i]}" "${!m}" "$(echo "${!m} - $m0" | bc)"
done
echo
printf 'hijack / nsenter -a        = %s  (entry overhead only: %s)\n' \
	"$(echo "scale=3; $m3 / $m1" | bc)" "$(echo "scale=3; ($m3 - $m0) / ($m1 - $m0)" | bc)"
printf 'hijack / nsenter -a -r -w  = %s  (entry overhead only: %s)\n' \
	"$(echo "scale=3; $m3 / $m2" | bc)" "$(echo "scale=3; ($m3 - $m0) / ($m2 - $m0)" | bc)"
printf 'hijack full / namespaces   = %s  (entry overhead only: %s)\n' \
	"$(echo "scale=3; $m3 / $m4" | bc)" "$(echo "scale=3; ($m3 - $m0) / ($m4 - $m0)" | bc)"

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
