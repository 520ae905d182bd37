#!/bin/sh
# Stress: hijack into targets that are being killed, many at a time.
# Bounded: 4 workers x 25 rounds, and 120 s at most.  Every entry must end
# in one of the three right ways (ran; refused with 125 naming the pid; or
# killed with the container, 137), and afterwards no process of the test
# is left, not even a zombie.  Inside the patched kernel's VM this drives
# hijack(2) as well (method auto); the harness then fails on any kernel
# warning the storm provoked.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root

plan 4

workers=4
rounds=25
# Every fixture and hijack of this test carries the tag, so that the check
# below leaves alone those of tests running beside it (make -j).
HIJACK_STRESS_TAG=stress-$$
export HIJACK_STRESS_TAG
deadline=$(($(date +%s) + 120))

worker() {
	w=$1
	bad=0
	r=0
	while [ $r -lt $rounds ] && [ "$(date +%s)" -lt $deadline ]; do
		out=$_tmp/stress.$w.$r
		"$FIXTURE" >"$out" &
		fp=$!
		i=0
		while [ ! -s "$out" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
		t=$(cat "$out")
		[ $((r % 3)) = 0 ] && kill -KILL "$t" 2>/dev/null
		"$HIJACK" --pid "$t" -- /bin/sh -c 'kill -KILL 1 2>/dev/null; sleep 0.01; true' >"$out.err" 2>&1 &
		hp=$!
		[ $((r % 3)) = 1 ] && kill -KILL "$t" 2>/dev/null
		wait $hp
		rc=$?
		kill -KILL "$t" 2>/dev/null
		kill "$fp" 2>/dev/null
		wait "$fp" 2>/dev/null
		case $rc in
		0 | 137) ;;
		125) grep -q "$t" "$out.err" || { bad=$((bad + 1)); echo "# worker $w round $r: $(cat "$out.err")"; } ;;
		*) bad=$((bad + 1)); echo "# worker $w round $r: rc=$rc $(cat "$out.err")" ;;
		esac
		r=$((r + 1))
	done
	echo "$bad $r" >"$_tmp/worker.$w"
}

w=0
while [ $w -lt $workers ]; do
	worker $w &
	w=$((w + 1))
done
wait

bad=0
done_rounds=0
for f in "$_tmp"/worker.*; do
	read -r b n <"$f"
	bad=$((bad + b))
	done_rounds=$((done_rounds + n))
done
is "$bad" 0 "every entry into a dying target ended cleanly"
[ "$done_rounds" -ge $workers ]
ok $? "$done_rounds entries made in the time allowed"

# Nothing left behind: no fixture, no hijack (of this test), no zombie child
# of this shell.  Read from /proc, the same on the host and under busybox.
sleep 0.2
left=""
zombies=0
for d in /proc/[0-9]*; do
	st=$(cat "$d/stat" 2>/dev/null) || continue
	comm=${st#*(}
	comm=${comm%%)*}
	rest=${st##*) }
	state=${rest%% *}
	ppid=${rest#* }
	ppid=${ppid%% *}
	case $comm in
	fixture | hijack)
		tr '\0' '\n' <"$d/environ" 2>/dev/null | grep -qx "HIJACK_STRESS_TAG=$HIJACK_STRESS_TAG" &&
			left="$left ${d#/proc/}($comm,$state)"
		;;
	esac
	[ "$state" = Z ] && [ "$ppid" = $$ ] && zombies=$((zombies + 1))
done
is "$left" "" "no fixture or hijack process is left"
is "$zombies" 0 "no zombies under the test"

finish
