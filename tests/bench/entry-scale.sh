#!/bin/bash
# entry-scale.sh [-r ROUNDS] [-k BATCH] [-o SVG]
#
# How hijack's entry cost grows with what the target has:
# 1, 10 and 100 seccomp filters; child cgroups on 1 and on every mounted
# hierarchy; an environment of 1 and 1000 variables; 1 and 1000 threads;
# and 1 against 50 entries at once into the same target.  Each point is a
# fixture target (tests/integration/fixture) with that one thing changed;
# every point is measured in every round, interleaved, in CPU time (perf
# stat's task-clock of the whole process tree per entry of /bin/true,
# with full confinement), and the concurrent entries by the wall clock
# (entries per second).  It prints a table, says for each dimension
# whether the cost grew more than linearly with the size (cost ratio
# above size ratio), and writes an SVG plot (default entry-scale.svg).
# A benchmark, not a test.  Needs root.
# Environment: HIJACK and FIXTURE (defaults: the build tree in ./build).
set -eu

rounds=5
batch=10
svg=entry-scale.svg
while getopts "r:k:o:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	k) batch=$OPTARG ;;
	o) svg=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-k BATCH] [-o SVG]" >&2; exit 2 ;;
	esac
done

# shellcheck source=tests/bench/entry-lib.sh
. "$(dirname "$0")/entry-lib.sh"
command -v perf >/dev/null || { echo "entry-scale: needs perf (linux-perf)" >&2; exit 1; }

# The points: dimension, size, how the fixture is started.
nhier=$(grep -c . /proc/self/cgroup)
dims=(seccomp seccomp seccomp cgroups cgroups env env threads threads)
sizes=(1 10 100 1 "$nhier" 1 1000 1 1000)
unit=(filters filters filters hierarchies hierarchies variables variables threads threads)
many_env=()
for ((i = 0; i < 1000; i++)); do many_env+=("V$i=value-$i"); done
# Run in a background subshell: exec, so that $! is the fixture itself.
fixture_of() {
	local n
	case $1 in
	0 | 1 | 2)
		local a=()
		for ((n = 0; n < ${sizes[$1]}; n++)); do a+=(--deny-mkdir); done
		exec "$FIXTURE" "${a[@]}" ;;
	3) exec "$FIXTURE" --cgroup "hjscale-$$-$1" --cgroup-max 1 ;;
	4) exec "$FIXTURE" --cgroup "hjscale-$$-$1" ;;
	5) exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$FIXTURE" ;;
	6) exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "${many_env[@]:1}" "$FIXTURE" ;;
	7) exec "$FIXTURE" --threads 1 ;;
	8) exec "$FIXTURE" --threads 1000 ;;
	esac
}

tmp=$(mktemp -d)
fixtures=()
cleanup() {
	for p in "${fixtures[@]}"; do kill "$p" 2>/dev/null || :; done
	wait 2>/dev/null || :
	rm -rf "$tmp"
}
trap cleanup EXIT
declare -a target
for ((i = 0; i < ${#dims[@]}; i++)); do
	fixture_of $i >"$tmp/pid$i" &
	fixtures+=($!)
	for _ in $(seq 200); do [ -s "$tmp/pid$i" ] && break; sleep 0.05; done
	target[i]=$(cat "$tmp/pid$i")
	[ -n "${target[i]}" ] || { echo "entry-scale: the fixture of ${dims[i]} ${sizes[i]} did not start" >&2; exit 1; }
done

# CPU us per entry: BATCH entries of one target under perf stat.
csample() {
	# shellcheck disable=SC2016
	perf stat -x, -e task-clock -o "$tmp/perf" -- bash -c '
		for ((i = 0; i < $2; i++)); do "$1" --pid "$3" -- /bin/true || exit 1; done' \
		- "$HIJACK" "$batch" "$1" ||
		{ echo "entry-scale: entering pid $1 failed" >&2; exit 1; }
	awk -F, -v b="$batch" '$3 == "task-clock" { printf "%d\n", $1 * 1000 / b }' "$tmp/perf"
}
# Entries per second with N at once into target 7 (one thread, plain),
# each of the N doing BATCH entries.
rate() {
	local t0 t1 j p pids=() failed=
	t0=$EPOCHREALTIME
	for ((j = 0; j < $1; j++)); do
		(for ((i = 0; i < batch; i++)); do "$HIJACK" --pid "${target[7]}" -- /bin/true || exit 1; done) &
		pids+=($!)
	done
	# wait with no operand returns 0 whatever the jobs returned: each
	# one's own status says whether its entries succeeded.
	for p in "${pids[@]}"; do wait "$p" || failed=1; done
	[ -z "$failed" ] || { echo "entry-scale: a concurrent entry failed" >&2; exit 1; }
	t1=$EPOCHREALTIME
	echo "$1 * $batch * 1000000 / (${t1/./} - ${t0/./})" | bc
}

declare -A c
rate1="" rate50=""
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < ${#dims[@]}; i++)); do c[$i]+=" $(csample "${target[i]}")"; done
	rate1+=" $(rate 1)"
	rate50+=" $(rate 50)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -a m
for ((i = 0; i < ${#dims[@]}; i++)); do
	# shellcheck disable=SC2086
	m[i]=$(median ${c[$i]})
done
# shellcheck disable=SC2086
r1=$(median $rate1)
# shellcheck disable=SC2086
r50=$(median $rate50)

echo "entry scale: hijack --pid T -- /bin/true, full confinement; $rounds interleaved rounds x $batch entries"
echo "$(nproc) cpus, $(uname -r), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %-12s %12s %14s\n' what size unit "cpu us" "vs smallest"
verdicts=()
for ((i = 0; i < ${#dims[@]}; i++)); do
	first=$i
	while [ "$first" -gt 0 ] && [ "${dims[first - 1]}" = "${dims[i]}" ]; do first=$((first - 1)); done
	printf '%-10s %8s %-12s %12s %14s\n' "${dims[i]}" "${sizes[i]}" "${unit[i]}" "${m[i]}" \
		"$(echo "scale=2; ${m[i]} / ${m[first]}" | bc)"
	if [ "$i" != "$first" ]; then
		# More than linear: the cost ratio exceeds the size ratio.
		v=$(echo "${m[i]} / ${m[first]} > ${sizes[i]} / ${sizes[first]}" | bc -l)
		verdicts+=("${dims[i]} ${sizes[first]} -> ${sizes[i]}: $([ "$v" = 1 ] && echo "MORE than linear" || echo "at most linear")")
	fi
done
printf '%-10s %8s %-12s %12s %14s\n' concurrent 1 entries/s "$r1" 1.00
printf '%-10s %8s %-12s %12s %14s\n' concurrent 50 entries/s "$r50" "$(echo "scale=2; $r50 / $r1" | bc)"
# 50 at once: the time per entry may grow at most 50-fold, i.e. the rate
# may not fall below a fiftieth.
v=$(echo "$r50 * 50 < $r1" | bc -l)
verdicts+=("concurrent 1 -> 50: $([ "$v" = 1 ] && echo "MORE than linear" || echo "at most linear")")
echo
printf '%s\n' "${verdicts[@]}"

# --- the plot: one panel per dimension, a bar per size ----------------------
{
	w=900 h=320
	panels=(seccomp cgroups env threads concurrent)
	pw=$((w / ${#panels[@]}))
	echo "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"$w\" height=\"$h\" font-family=\"sans-serif\" font-size=\"11\">"
	echo "<rect width=\"$w\" height=\"$h\" fill=\"white\"/>"
	echo "<text x=\"10\" y=\"16\" font-size=\"13\">hijack entry cost by what the target has (CPU us per entry; concurrent: entries/s), $(uname -r)</text>"
	for ((p = 0; p < ${#panels[@]}; p++)); do
		vals=() labs=()
		if [ "${panels[p]}" = concurrent ]; then
			vals=("$r1" "$r50") labs=("1 at once" "50 at once")
		else
			for ((i = 0; i < ${#dims[@]}; i++)); do
				[ "${dims[i]}" = "${panels[p]}" ] || continue
				vals+=("${m[i]}") labs+=("${sizes[i]} ${unit[i]}")
			done
		fi
		max=1
		for v in "${vals[@]}"; do [ "${v%.*}" -gt "$max" ] && max=${v%.*}; done
		x0=$((p * pw + 20))
		echo "<text x=\"$x0\" y=\"40\" font-size=\"12\" font-weight=\"bold\">${panels[p]}</text>"
		bw=$(((pw - 40) / ${#vals[@]}))
		for ((b = 0; b < ${#vals[@]}; b++)); do
			bh=$((${vals[b]%.*} * 200 / max))
			x=$((x0 + b * bw))
			y=$((260 - bh))
			echo "<rect x=\"$x\" y=\"$y\" width=\"$((bw - 6))\" height=\"$bh\" fill=\"#4a7ab0\"/>"
			echo "<text x=\"$x\" y=\"$((y - 4))\">${vals[b]}</text>"
			echo "<text x=\"$x\" y=\"276\" font-size=\"10\">${labs[b]}</text>"
		done
		echo "<line x1=\"$x0\" y1=\"260\" x2=\"$((x0 + pw - 40))\" y2=\"260\" stroke=\"black\"/>"
	done
	echo "<text x=\"10\" y=\"$((h - 10))\" font-size=\"10\">tests/bench/entry-scale.sh; $rounds rounds x $batch entries, medians; $(nproc) cpus, load $(cut -d' ' -f1 /proc/loadavg)</text>"
	echo "</svg>"
} >"$svg"
echo "plot: $svg"
