#!/bin/sh
# What the container sees of an entry before the command runs.  Any
# process of the target's pid namespace may open /proc/PID/mountinfo,
# /proc/PID/net/* and /proc/PID/cmdline of any other, with no ptrace
# check and dumpable or not; the first two show the namespaces the process
# is in at the moment of the open.  So the command's process must be in
# the target's mount and network namespaces from the moment it can be
# seen there, and must not show hijack's own command line (host paths,
# --reason).  procleak, a process of the container with no capability,
# races every entry: it reads those files of each new pid and counts the
# processes that showed a mount only the caller's mount namespace has, a
# socket only the caller's network namespace has, or a marker from
# hijack's arguments.  Last, the
# container's root stops every such process before its exec (procleak
# --stop), or kills it at every step of its way there (procleak --kill):
# each entry must end, 125 when its process was stopped or killed before
# its exec, and none may wait for the caller's Ctrl-C.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
: "${PROCLEAK:=$(dirname "$FIXTURE")/procleak}"
need_program "$PROCLEAK"
command -v unshare >/dev/null || skip_all "no unshare(1)"
command -v nsenter >/dev/null || skip_all "no nsenter(1)"

# The caller's mount namespace gets a mount the target's never had: this
# test runs in a private copy of the host's, so that the host's stays
# clean.  The network marker is an abstract unix socket of the caller's
# network namespace (procleak --bind), which any host can have.
if [ -z "${HJ_PROCLEAK_NS:-}" ]; then
	HJ_PROCLEAK_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
plan 37

d=$(tmpdir)
mark="hjleak-$$"
# The old code leaked in every one of 20 entries of each kind.
n=${PROCLEAK_ENTRIES:-20}

# wait_ready FILE WHAT: until a procleak prints "ready" to FILE, 10 s.
wait_ready() {
	_i=0
	until grep -q '^ready$' "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -lt 200 ] || { echo "Bail out! $2 did not start"; exit 1; }
		sleep 0.05
	done
}

"$PROCLEAK" --bind "$mark" >"$d/bind" &
_pids="$_pids $!"
wait_ready "$d/bind" "procleak --bind"

# racer_start: procleak in the target (started by nsenter, not by hijack);
# racer_stop: its counts in $res.
racer_start() {
	rm -f "$d/race"
	nsenter -t "$TARGET" -a "$PROCLEAK" "$mark" >"$d/race" 2>&1 &
	racer=$!
	wait_ready "$d/race" procleak
}
racer_stop() {
	# procleak alone: nsenter, its parent (it forks to enter the pid
	# namespace), would die at once, and its wait return before procleak
	# has printed its counts.
	pkill -TERM -f "^$PROCLEAK $mark"
	wait "$racer"
	racer_rc=$?
	res=$(grep '^seen' "$d/race")
	[ -n "$res" ] || diag "procleak printed: $(tr '\n' ' ' <"$d/race") (exit $racer_rc)"
}

# check NAME: the counts of the last race, none leaked, some seen.
check() {
	diag "$1: $res"
	seen=$(echo "$res" | awk '{ print $2 }')
	ok "$([ "${seen:-0}" -gt 0 ] && echo 0 || echo 1)" "$1: procleak saw the new processes"
	like "$res" "seen * mnt 0 net 0 cmdline 0" "$1: no caller's mount, socket or argument seen"
}

# Every target first: each copies the caller's mount namespace as it is
# when it starts, and the marker must be the caller's alone.
start_target
plain=$TARGET
# --tools takes a container without CAP_SYS_PTRACE (Docker's set).
start_target --caps 0,1,3,4,5,6,7,8,10,13,18,27,29,31
tools=$TARGET
# An unprivileged caller enters its own user-namespace container.
start_target --userns 1000
userns=$TARGET
mkdir "$d/mark"
mount -t tmpfs "$mark" "$d/mark"
inside=""
for t in $plain $tools $userns; do
	inside="$inside$(nsenter -t "$t" -m cat /proc/self/mountinfo | grep -c "$mark")"
done
is "$inside" 000 "the marker mount is the caller's alone"

# The racer is able: a process put into the pid namespace alone (nsenter
# -p) is seen with the caller's mounts, sockets and arguments.
TARGET=$plain
racer_start
nsenter -t "$TARGET" -p -- sh -c "sleep 0.5; : $mark"
racer_stop
diag "control: $res"
like "$res" "seen * mnt [1-9]* net [1-9]* cmdline [1-9]*" \
	"control: a process in the target's pid namespace only is caught"

# race NAME STATUS COMMAND...: $n entries, each to exit with STATUS.
race() {
	_name=$1
	_want=$2
	shift 2
	racer_start
	_t0=$(date +%s)
	_i=0
	_bad=0
	while [ $_i -lt "$n" ]; do
		"$@" >/dev/null 2>"$d/err" </dev/null
		_rc=$?
		if [ "$_rc" != "$_want" ]; then
			[ $_bad -gt 0 ] || diag "$_name: exit $_rc: $(cat "$d/err")"
			_bad=$((_bad + 1))
		fi
		_i=$((_i + 1))
	done
	racer_stop
	is "$_bad" 0 "$_name: every entry exits $_want"
	check "$_name"
	diag "$_name: $n entries in $(($(date +%s) - _t0)) s"
}

race "plain entries" 0 "$HIJACK" --pid "$TARGET" --reason "$mark" -- true
race "--method=nsfd" 0 "$HIJACK" --pid "$TARGET" --method=nsfd --reason "$mark" -- true
race "--pty" 0 "$HIJACK" --pid "$TARGET" --pty --reason "$mark" -- true
race "--cgroups=keep" 0 "$HIJACK" --pid "$TARGET" --cgroups=keep --reason "$mark" -- true
echo data >"$d/in"
race "--write-file" 0 sh -c '"$1" --pid "$2" --reason "$3" --write-file /tmp/hj26 <"$4"' sh "$HIJACK" "$TARGET" "$mark" "$d/in"
race "--read-file" 0 "$HIJACK" --pid "$TARGET" --reason "$mark" --read-file /tmp/hj26
# A command that is not there: its process never execs.
race "failed exec" 127 "$HIJACK" --pid "$TARGET" --reason "$mark" -- "/nonexistent/$mark"
TARGET=$tools
race "--tools" 0 "$HIJACK" --pid "$TARGET" --tools --reason "$mark" -- true
TARGET=$userns
race "unprivileged caller" 0 "$FIXTURE" --run-as 1000 -- "$HIJACK" --pid "$TARGET" --reason "$mark" -- true

# The stop comes at the command's birth, before the intermediate has told
# hijack its pid; hijack looks again once it does.  Into a container that
# keeps every capability ($plain) and one with Docker's set.
# stop_race NAME: the race against $TARGET.
stop_race() {
	rm -f "$d/stop"
	nsenter -t "$TARGET" -a "$PROCLEAK" --stop >"$d/stop" &
	stopper=$!
	wait_ready "$d/stop" "procleak --stop"
	hung=0 other=0 stopped=0 _i=0
	while [ $_i -lt "$n" ]; do
		timeout -s INT 20 "$HIJACK" --pid "$TARGET" -- true </dev/null >/dev/null 2>"$d/err"
		case $? in
		0) ;;
		124) hung=$((hung + 1)) ;;
		125) grep -q "stopped" "$d/err" && stopped=$((stopped + 1)) ;;
		*) other=$((other + 1)); diag "stop race: $(cat "$d/err")" ;;
		esac
		_i=$((_i + 1))
	done
	pkill -TERM -f "^$PROCLEAK --stop"
	wait "$stopper"
	diag "stop race, $1: $(grep '^stopped' "$d/stop"), $stopped entries ended 125 as stopped"
	is "$hung:$other" "0:0" "$1: the container stops hijack's processes: no entry waits for Ctrl-C, each ends 0 or 125"
	ok "$([ "$stopped" -gt 0 ] && echo 0 || echo 1)" "... and some were stopped and ended 125, naming the stop"
	left=$(ps -eo stat=,comm= | awk '$1 ~ /^T/ && $2 == "hijack"' | wc -l)
	is "$left" 0 "... and no process of hijack's is left stopped"
}
TARGET=$plain
stop_race "a container with every capability"
TARGET=$tools
stop_race "a container with Docker's capabilities"

# The container kills each new process somewhere between its birth and a
# little after its exec (procleak --kill): every entry ends 0, 125 naming
# the kill before the exec, or 137 (the command ran and was killed), and
# none waits.
# kill_race NAME: the race against $TARGET.
kill_race() {
	rm -f "$d/kill"
	nsenter -t "$TARGET" -a "$PROCLEAK" --kill >"$d/kill" &
	killer=$!
	wait_ready "$d/kill" "procleak --kill"
	bad=0 before=0 _i=0
	while [ $_i -lt $((n * 2)) ]; do
		timeout -s INT 20 "$HIJACK" --pid "$TARGET" -- true </dev/null >/dev/null 2>"$d/err"
		_rc=$?
		case $_rc:$(cat "$d/err") in
		0: | 137:) ;;
		"125:hijack: fork: the command's process was killed by signal 9 before exec: Operation canceled")
			before=$((before + 1)) ;;
		*) bad=$((bad + 1)); diag "kill race: $_rc: $(cat "$d/err")" ;;
		esac
		_i=$((_i + 1))
	done
	pkill -TERM -f "^$PROCLEAK --kill"
	wait "$killer"
	diag "kill race, $1: $(grep '^killed' "$d/kill"), $before entries ended 125, killed before the exec"
	is "$bad" 0 "$1: killed at every step to its exec: each entry ends 0, 137, or 125 naming the kill"
}
TARGET=$plain
kill_race "a container with every capability"
TARGET=$tools
kill_race "a container with Docker's capabilities"
umount "$d/mark"
finish
