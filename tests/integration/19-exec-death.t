#!/bin/sh
# "The command never started" is 125, however late the command's process
# dies before its exec: the attack holds the command's execve() inside the
# kernel, before the exec's point of no return and after everything
# hijack's child says before it, and kills the target's pid 1 then, which
# takes every process of its pid namespace along, hijack's child too.  A
# script must be able to tell that (125, a line naming the target) from a
# command that ran and was killed (128+9), in every method and shape.
# exechold does the holding (fanotify FAN_OPEN_EXEC_PERM on the command).
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
: "${EXECHOLD:=$(dirname "$FIXTURE")/exechold}"
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"
: "${FREEZEDECOY:=$(dirname "$FIXTURE")/freezedecoy}"
need_program "$EXECHOLD"
need_program "$PTYDRIVE"
need_program "$FREEZEDECOY"

tmp=$(tmpdir)
# Written by the command when it runs: the held ones never may.  The
# directory is open to the relay shape's unprivileged user too.
mkdir "$tmp/ran"
chmod 1777 "$tmp/ran"
cmd=$tmp/cmd
printf '#!/bin/sh\n: >"%s/ran/$1"\nexec sleep 30\n' "$tmp" >"$cmd"
chmod 755 "$cmd"
uid=1000

# hold_start: exechold holds every exec of $cmd until a line on fd 9, or
# its close; $hold is its pid.
hold_start() {
	rm -f "$tmp/ctl" "$tmp/held"
	mkfifo "$tmp/ctl"
	"$EXECHOLD" "$cmd" <"$tmp/ctl" >"$tmp/held" &
	hold=$!
	exec 9>"$tmp/ctl"
	_i=0
	while ! grep -q '^ready$' "$tmp/held" 2>/dev/null; do
		if ! kill -0 "$hold" 2>/dev/null || [ $_i -ge 200 ]; then
			exec 9>&-
			wait "$hold"
			[ $? = 77 ] && skip_all "no fanotify permission events in this kernel"
			echo "Bail out! exechold did not start"
			exit 1
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
}

hold_stop() {
	exec 9>&-
	wait "$hold"
}

# wait_held: until exechold names the process it holds ($held), 10 s at most.
wait_held() {
	held=""
	_i=0
	while [ -z "$held" ] && [ $_i -lt 200 ]; do
		held=$(sed -n 2p "$tmp/held")
		[ -n "$held" ] || sleep 0.05
		_i=$((_i + 1))
	done
	[ -n "$held" ]
}

# attack NAME HIJACK-OPTIONS: hijack, started by $runner if set, runs
# $cmd NAME in $TARGET with the exec held; then the target is killed.
# $rc and $err are hijack's status and what it wrote.
runner=""
attack() {
	name=$1
	shift
	hold_start
	$runner "$HIJACK" --pid "$TARGET" "$@" -- "${cmdpath:-$cmd}" "$name" >"$tmp/err" 2>&1 9>&- &
	hp=$!
	wait_held || diag "$name: no exec was held"
	kill -KILL "$TARGET"
	wait "$hp"
	rc=$?
	hold_stop
	err=$(tr -d '\r' <"$tmp/err")
	stop_target
}

# check NAME: the attack's outcome, and that the command never ran.
check() {
	is "$rc" 125 "$1: target killed during the held exec: 125"
	like "$err" "*hijack: target: pid $TARGET exited before the command started*" \
		"$1: ... and a line naming the target"
	[ -e "$tmp/ran/$1" ]
	ok $((! $?)) "$1: ... and the command did not run"
}

plan 72

for m in pidfd nsfd; do
	start_target
	attack "$m" --method=$m
	check "$m"
done

# On a terminal: the command gets a new one and hijack relays it.
start_target --devpts
runner="$PTYDRIVE --"
attack pty
runner=""
check pty

# --tools: the host's programs; the container must lack a capability
# to mark them with (tools.c), so it keeps CAP_CHOWN only.  The view
# holds the target's tree (the host's, here) under /run/hijack/root, and
# the same file is held there.
start_target --caps 0
if "$HIJACK" --pid "$TARGET" --tools -- /bin/true 2>/dev/null; then
	cmdpath=/run/hijack/root$cmd
	attack tools --tools
	cmdpath=
	check tools
else
	stop_target
	for i in 1 2 3; do
		skip "--tools, held exec" "--tools does not run here"
	done
fi

# The relay shape: an unprivileged caller, in the user namespace it owns.
start_target --userns $uid
runner="$FIXTURE --run-as $uid --"
attack relay --root=keep --wd=/
runner=""
check relay

# The kernel's hijack(2) does the entering and forking itself.
start_target
if "$HIJACK" --pid "$TARGET" --explain 2>/dev/null | grep -q 'kernel has hijack(2)'; then
	attack syscall --method=syscall
	check syscall
else
	stop_target
	for i in 1 2 3; do
		skip "syscall method, held exec" "the running kernel has no hijack(2)"
	done
fi

# held_signal NAME SIGNAL WHO: start the command NAME, hold its exec, send
# SIGNAL to WHO (held: the held process; hijack: hijack itself), and
# collect hijack's status in rc and its message in err.
held_signal() {
	start_target
	hold_start
	"$HIJACK" --pid "$TARGET" -- "$cmd" "$1" >"$tmp/err" 2>&1 9>&- &
	hp=$!
	wait_held || diag "$1: no exec was held"
	if [ "$3" = held ]; then kill -"$2" "$held"; else kill -"$2" "$hp"; fi
	wait "$hp"
	rc=$?
	hold_stop
	err=$(cat "$tmp/err")
	stop_target
}

# The held process alone killed, the target alive: still never started.
held_signal alone KILL held
is "$rc" 125 "the held process killed, the target alive: 125"
is "$err" "hijack: fork: the command's process was killed by signal 9 before exec: Operation canceled" \
	"... and the line says so"

# The caller's Ctrl-C while the command's process is held before its exec
# (as a FUSE mount of the container's that never answers would hold it):
# the entry ends, 125, rather than waiting for ever with SIGINT blocked.
held_signal interrupted INT hijack
is "$rc:$err" "125:hijack: wait: Interrupt before the command started: Interrupted system call" \
	"SIGINT while the command's process is held: 125, and it says so"
[ -e "$tmp/ran/interrupted" ]
ok $((! $?)) "... and the command did not run"

# A cgroup v1 freezer that the container froze (its own cgroup, writable
# by it, as LXC's cgroup:rw gives) holds hijack's process as it joins, and
# there SIGKILL waits for the thaw.  The caller's Ctrl-C must still end
# the entry (125) rather than wait with it; once thawed, what hijack left
# dies without running the command.  A watchdog stands in for the caller
# who would otherwise be left waiting.
frz=$(awk '$9 == "cgroup" && $NF ~ /(^|,)freezer(,|$)/ { print $5; exit }' /proc/self/mountinfo)
# thaw_and_clean VALUE FILE: after an entry into the freezer cgroup $fz
# ($hp, watched by $dog): $err, $dog ("dog" if the watchdog had to end
# hijack); then thaw, $left (what is left in the cgroup besides the
# target), and the target and the cgroup gone.
thaw_and_clean() {
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	dog=$([ -e "$tmp/dog" ] && echo dog)
	err=$(cat "$tmp/err")
	echo "$1" >"$fz/$2"
	_i=0
	while grep -qv "^$TARGET\$" "$fz/cgroup.procs" && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	left=$(grep -cv "^$TARGET\$" "$fz/cgroup.procs")
	kill -KILL "$TARGET"
	stop_target
	_i=0
	until rm_cgroup "$fz" || [ $_i -ge 100 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}
# rm_cgroup DIR: DIR and the cgroups below it, deepest first, each by its
# own name, since the whole path may be longer than PATH_MAX.
rm_cgroup() {
	(
		cd "$1" 2>/dev/null || exit 0
		for _d in */; do
			[ -d "$_d" ] && rm_cgroup "${_d%/}"
		done
		exit 0
	)
	rmdir "$1" 2>/dev/null
}
# nest MOUNT DIR KIND PID: as a container may, move PID below DIR, through
# 16 cgroups of 250-character names and one more, to a path that ends 4094
# characters after MOUNT (KIND deep: longer than open() takes with MOUNT
# before it) or past the 4095 the kernel prints (KIND cut).
nest() {
	_long=$(printf '%250s' '' | tr ' ' x)
	_len=$((${#2} - ${#1} + 16 * 251))
	if [ "$3" = deep ]; then
		_last=$(printf "%$((4094 - _len - 1))s" '' | tr ' ' y)
	else
		_last=$(printf '%250s' '' | tr ' ' y)
	fi
	(
		cd "$2" || exit 1
		for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
			mkdir "$_long" && cd "$_long" || exit 1
		done
		mkdir "$_last" && echo "$4" >"$_last/cgroup.procs"
	)
}
# frozen_entry NAME COMMAND...: COMMAND enters $TARGET, started before.
frozen_entry() {
	_name=$1
	shift
	fz=$frz/hj19-$$-$_name
	mkdir "$fz"
	echo "$TARGET" >"$fz/cgroup.procs"
	echo FROZEN >"$fz/freezer.state"
	"$@" >"$tmp/err" 2>&1 </dev/null &
	hp=$!
	rm -f "$tmp/dog"
	(sleep 20 && touch "$tmp/dog" && kill -KILL "$hp") 2>/dev/null &
	dog=$!
	_i=0
	while ! grep -qv "^$TARGET\$" "$fz/cgroup.procs" && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	held=$(grep -cv "^$TARGET\$" "$fz/cgroup.procs")
	kill -INT "$hp"
	wait "$hp"
	rc=$?
	thaw_and_clean THAWED freezer.state
}
# frozen_birth NAME: as frozen_entry, but the container freezes its
# cgroup at the birth of the command's process (freezedecoy birth), which
# the intermediate may have left by then; $ms: from the caller's SIGINT to
# hijack's end, which the manual bounds at about two seconds.  The freeze
# lands where the race puts it: before the intermediate said the pid,
# after it (the waits for the intermediate, for the question whether the
# command exec'd and for the command each took a second of their own,
# 3.0 s in all, until they shared one), or after the exec (the command
# ran; hijack looks at its freezer a second after the SIGINT it hands
# on).  Each ends 125 within the bound, and leaves nothing.
frozen_birth() {
	fz=$frz/hj19-$$-$1
	mkdir "$fz"
	echo "$TARGET" >"$fz/cgroup.procs"
	"$FREEZEDECOY" birth "$fz" FROZEN "$TARGET" >"$tmp/froze" &
	decoy=$!
	"$HIJACK" --pid "$TARGET" -- "$cmd" "$1" >"$tmp/err" 2>&1 </dev/null &
	hp=$!
	rm -f "$tmp/dog"
	(sleep 20 && touch "$tmp/dog" && kill -KILL "$hp") 2>/dev/null &
	dog=$!
	wait "$decoy"
	_i=0
	until grep -q FROZEN "$fz/freezer.state" || [ $_i -ge 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	held=$(grep -cv "^$TARGET\$" "$fz/cgroup.procs")
	_t0=$(date +%s%N)
	kill -INT "$hp"
	wait "$hp"
	rc=$?
	ms=$((($(date +%s%N) - _t0) / 1000000))
	thaw_and_clean THAWED freezer.state
}
if [ -n "$frz" ] && [ -w "$frz/cgroup.procs" ]; then
	start_target
	frozen_birth birth
	is "$([ "$held" -ge 1 ] && echo held):$rc" "held:125" \
		"a freezer cgroup frozen at the command's birth: SIGINT ends the entry, 125"
	ok "$([ "$ms" -le 2800 ] && echo 0 || echo 1)" "... within about two seconds of the signal ($ms ms)"
	is "$left" 0 "... and once thawed, nothing hijack started is left"
	start_target
	frozen_entry plain "$HIJACK" --pid "$TARGET" -- "$cmd" frozen
	is "$held:$rc:$err" "1:125:hijack: wait: Interrupt before the command started: Interrupted system call" \
		"a frozen freezer cgroup holds hijack's process: SIGINT ends the entry, 125"
	is "$left" 0 "... and once thawed, nothing hijack started is left"
	[ -e "$tmp/ran/frozen" ]
	ok $((! $?)) "... and the command never ran"
	echo data >"$tmp/in"
	start_target
	frozen_entry copy sh -c 'exec "$1" --pid "$2" --write-file /tmp/hj19 <"$3"' sh "$HIJACK" "$TARGET" "$tmp/in"
	is "$held:$rc" "1:125" "a file copy held so: SIGINT ends it, 125"
	is "$left" 0 "... and once thawed, nothing is left"
else
	for t in 1 2 3 4 5 6 7 8; do
		skip "a frozen freezer cgroup" "no writable cgroup v1 freezer hierarchy here"
	done
fi

# fuse_start DIR: a FUSE mount on DIR that never answers (freezedecoy),
# held until fd 8 closes ($fusep: its holder); ready when this returns.
fuse_start() {
	rm -f "$tmp/fusectl"
	mkfifo "$tmp/fusectl"
	"$FREEZEDECOY" fuse "$1" <"$tmp/fusectl" >"$tmp/fuseout" 2>&1 &
	fusep=$!
	exec 8>"$tmp/fusectl"
	_i=0
	until grep -q '^ready$' "$tmp/fuseout" || [ $_i -ge 100 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

# Frozen after the exec: the command cannot act on the SIGINT hijack hands
# on, so the caller's Ctrl-C would wait for the thaw.  hijack looks, a
# second after, whether a freezer holds it: a v2 freezer lets SIGKILL
# through (128+9); under v1 the entry ends 125, saying so.  The command
# here handles SIGINT itself, so that without the freezer it would go on.
# frozen_after KIND FREEZE THAW FILE [HOW]: $rc, $err, $dog (the watchdog
# had to end hijack) and $left (processes left in the cgroup after the
# thaw).  HOW deep or cut: the container first moves the command far
# below the frozen cgroup (nest()), and $left counts the command.  HOW
# pty: the entry has a terminal of its own (--pty, through ptydrive), on
# which Ctrl-C is a character that the kernel turns into a SIGINT there;
# hijack sees it go by and looks as after a SIGINT it forwarded.  HOW
# fuse (v2): the container puts the command in a child cgroup, with a
# process asleep in a FUSE request it never answers, and freezes the
# parent: the child's "frozen" never turns 1, nor its own cgroup.freeze.
# HOW threads: the command (freezedecoy threads) handles SIGINT in one
# thread alone, which the container moves to a child cgroup of its own
# (a threaded one on v2) and freezes, the main thread left thawed.
frozen_after() {
	start_target
	fz=$1/hj19-$$-after
	mkdir "$fz"
	echo "$TARGET" >"$fz/cgroup.procs"
	rm -f "$tmp/dog" "$tmp/frozen"
	at=$fz
	mark=while
	if [ "$5" = pty ]; then
		"$PTYDRIVE" -e up -f "$tmp/frozen" -s '\003' -- "$HIJACK" --pty --pid "$TARGET" -- \
			sh -c "trap 'echo int' INT; echo up; while :; do sleep 0.1; done" >"$tmp/err" 2>&1 &
	elif [ "$5" = threads ]; then
		mark=threads
		rm -f "$tmp/tid"
		"$HIJACK" --pid "$TARGET" -- "$FREEZEDECOY" threads "$tmp/tid" \
			>"$tmp/err" 2>&1 </dev/null &
	else
		"$HIJACK" --pid "$TARGET" -- sh -c "trap 'echo int' INT; while :; do sleep 0.1; done" \
			>"$tmp/err" 2>&1 </dev/null &
	fi
	hp=$!
	(sleep 30 && touch "$tmp/dog" && kill -KILL "$hp") 2>/dev/null &
	dog=$!
	_i=0
	until grep -q "$mark" /proc/$(grep -v "^$TARGET\$" "$fz/cgroup.procs" | head -n 1)/cmdline 2>/dev/null ||
		[ $_i -ge 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	cpid=$(grep -v "^$TARGET\$" "$fz/cgroup.procs" | head -n 1)
	case $5 in
	deep | cut) nest "$1" "$fz" "$5" "$cpid" ;;
	fuse)
		mkdir "$fz/in"
		fuse_start "$tmp/fuse"
		stat "$tmp/fuse/x" >/dev/null 2>&1 8>&- &
		stp=$!
		# Moved once asleep in the request: a shell not yet at its
		# exec would be frozen like the rest.
		_i=0
		until [ "$(cut -d' ' -f3 "/proc/$stp/stat")" = D ] || [ $_i -ge 100 ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
		echo "$stp" >"$fz/in/cgroup.procs"
		echo "$cpid" >"$fz/in/cgroup.procs"
		;;
	threads)
		mkdir "$fz/t"
		[ "$4" = cgroup.freeze ] && echo threaded >"$fz/t/cgroup.type"
		_i=0
		until [ -s "$tmp/tid" ] || [ $_i -ge 100 ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
		# The file has the thread's id in the target's pid namespace.
		tid=$(ls "/proc/$cpid/task" | grep -vx "$cpid" | head -n 1)
		if [ "$4" = cgroup.freeze ]; then
			echo "$tid" >"$fz/t/cgroup.threads"
		else
			echo "$tid" >"$fz/t/tasks"
		fi
		at=$fz/t
		;;
	esac
	echo "$2" >"$at/$4"
	sleep 0.2
	# What the look would have believed: the child's progress, and the
	# main thread's cgroup.
	case $5 in
	fuse) decoy=$(grep '^frozen' "$fz/in/cgroup.events") ;;
	threads) decoy=$(grep -cx "$cpid" "$at/$([ "$4" = cgroup.freeze ] && echo cgroup.threads || echo tasks)")-$(grep -cx "$tid" "$at/$([ "$4" = cgroup.freeze ] && echo cgroup.threads || echo tasks)") ;;
	esac
	if [ "$5" = pty ]; then
		touch "$tmp/frozen"
	else
		kill -INT "$hp"
	fi
	wait "$hp"
	rc=$?
	case $5 in
	fuse) exec 8>&- ;;
	threads) echo "$3" >"$at/$4" ;;
	esac
	thaw_and_clean "$3" "$4"
	[ "$5" != fuse ] || wait "$fusep" "$stp"
	case $5 in
	deep | cut | fuse | threads)
		left=0
		grep -qs '^State:[[:space:]]*[^Z]' "/proc/$cpid/status" && left=1
		;;
	esac
}
if [ -n "$frz" ] && [ -w "$frz/cgroup.procs" ]; then
	frozen_after "$frz" FROZEN THAWED freezer.state
	like "$dog:$rc:$err" ":125:hijack: wait: the command (pid *) is held by its cgroup's freezer: killed, it ends when thawed*" \
		"frozen by a v1 freezer after its exec: SIGINT ends the entry, 125, saying why"
	is "$left" 0 "... and once thawed, the command is gone"
	# The plan reads a target's seccomp filters in a ptrace stop, which a
	# frozen target never reaches: not waited for.
	start_target --deny-mkdir
	fz=$frz/hj19-$$-plan
	mkdir "$fz"
	echo "$TARGET" >"$fz/cgroup.procs"
	echo FROZEN >"$fz/freezer.state"
	"$HIJACK" --pid "$TARGET" --explain >"$tmp/err" 2>&1 </dev/null &
	hp=$!
	rm -f "$tmp/dog"
	(sleep 20 && touch "$tmp/dog" && kill -KILL "$hp") 2>/dev/null &
	dog=$!
	wait "$hp"
	rc=$?
	echo THAWED >"$fz/freezer.state"
	sleep 0.2
	tracer=$(awk '/^TracerPid:/ { print $2 }' "/proc/$TARGET/status")
	thaw_and_clean THAWED freezer.state
	like "$dog:$rc:$err" ":125:hijack: seccomp: pid $TARGET did not stop, to have its seccomp filters read, within * ms*" \
		"a frozen target's filters: the plan gives up, 125, saying why"
	is "$tracer" 0 "... and once thawed, the target is traced by no one"
	frozen_after "$frz" FROZEN THAWED freezer.state pty
	like "$dog:$rc:$err" ":125:*hijack: wait: the command (pid *) is held by its cgroup's freezer: killed, it ends when thawed*" \
		"--pty, frozen by a v1 freezer: Ctrl-C on its terminal ends the entry, 125"
	is "$left" 0 "... and once thawed, the command is gone"
	# The container moves the command deeper than open() takes as one
	# path, or than the kernel prints in /proc/PID/cgroup, then freezes:
	# the look walks the first, and takes the second as frozen.
	frozen_after "$frz" FROZEN THAWED freezer.state deep
	like "$dog:$rc:$err" ":125:hijack: wait: the command (pid *) is held by its cgroup's freezer: killed, it ends when thawed*" \
		"frozen 4094 characters down a v1 hierarchy: SIGINT ends the entry, 125"
	is "$left" 0 "... and once thawed, the command is gone"
	frozen_after "$frz" FROZEN THAWED freezer.state cut
	like "$dog:$rc:$err" ":125:hijack: wait: the command (pid *) did not end when asked, in a cgroup hijack cannot read: killed, it has not died yet*" \
		"frozen past what /proc/PID/cgroup prints, v1: SIGINT ends the entry, 125"
	is "$left" 0 "... and once thawed, the command is gone"
	frozen_after "$frz" FROZEN THAWED freezer.state threads
	like "$decoy:$dog:$rc:$err" "0-1::125:hijack: wait: the command (pid *) is held by its cgroup's freezer: killed, it ends when thawed*" \
		"v1: the one thread that takes SIGINT frozen, the main thread not: SIGINT ends the entry, 125"
	is "$left" 0 "... and once thawed, the command is gone"
else
	for t in 1 2 3 4 5 6 7 8 9 10 11 12; do
		skip "a command frozen after its exec" "no writable cgroup v1 freezer hierarchy here"
	done
fi
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v2" ] && [ -w "$v2/cgroup.procs" ]; then
	frozen_after "$v2" 1 0 cgroup.freeze
	is "$dog:$rc" ":137" "frozen by a v2 freezer after its exec: SIGINT ends it, killed (137)"
	is "$left" 0 "... and nothing is left"
	frozen_after "$v2" 1 0 cgroup.freeze pty
	is "$dog:$rc" ":137" "--pty, frozen by a v2 freezer: Ctrl-C on its terminal ends it (137)"
	is "$left" 0 "... and nothing is left"
	frozen_after "$v2" 1 0 cgroup.freeze deep
	is "$dog:$rc" ":137" "frozen 4094 characters down the v2 hierarchy: SIGINT ends it (137)"
	is "$left" 0 "... and nothing is left"
	frozen_after "$v2" 1 0 cgroup.freeze cut
	is "$dog:$rc" ":137" "frozen past what /proc/PID/cgroup prints, v2: SIGINT ends it (137)"
	is "$left" 0 "... and nothing is left"
	mkdir "$tmp/fuse"
	# With nothing on its stdin it mounts, says so and unmounts at once.
	if [ "$("$FREEZEDECOY" fuse "$tmp/fuse" </dev/null 2>/dev/null)" = ready ]; then
		frozen_after "$v2" 1 0 cgroup.freeze fuse
		is "$decoy:$dog:$rc" "frozen 0::137" \
			"v2: the parent frozen, the child's progress held at 0 by a FUSE sleeper: SIGINT ends it (137)"
		is "$left" 0 "... and nothing is left"
	else
		skip "a FUSE sleeper in a frozen cgroup" "no FUSE in this kernel"
		skip "a FUSE sleeper in a frozen cgroup" "no FUSE in this kernel"
	fi
	frozen_after "$v2" 1 0 cgroup.freeze threads
	is "$decoy:$dog:$rc" "0-1::137" \
		"v2: the one thread that takes SIGINT frozen in a threaded cgroup: SIGINT ends it (137)"
	is "$left" 0 "... and nothing is left"
else
	for t in 1 2 3 4 5 6 7 8 9 10 11 12; do
		skip "a command frozen after its exec" "no writable cgroup v2 hierarchy here"
	done
fi

# Held by no freezer at all: the command waits, uninterruptibly, on a
# FUSE mount of the container's that never answers (a CPU throttle, a
# process that stops it again and again, or a tracer would do as well).
# The first SIGINT is handed on and the look finds no freezer; a second
# one, a second or more later, kills the command and ends the entry:
# 137 when it dies, 125 when the wait outlives even SIGKILL.
mkdir "$tmp/fuse2"
if [ "$("$FREEZEDECOY" fuse "$tmp/fuse2" </dev/null 2>/dev/null)" = ready ]; then
	fuse_start "$tmp/fuse2"
	# Started after the mount, so that its mount namespace has it; none
	# of these may keep the control fifo open.
	start_target 8>&-
	"$HIJACK" --pid "$TARGET" -- cat "$tmp/fuse2/x" >"$tmp/err" 2>&1 8>&- </dev/null &
	hp=$!
	rm -f "$tmp/dog"
	(sleep 20 && touch "$tmp/dog" && kill -KILL "$hp") 8>&- 2>/dev/null &
	dog=$!
	_i=0
	cpid=
	until [ -n "$cpid" ] || [ $_i -ge 100 ]; do
		cpid=$(pgrep -x -f "cat $tmp/fuse2/x")
		[ -n "$cpid" ] && [ "$(cut -d' ' -f3 "/proc/$cpid/stat")" = D ] || cpid=
		sleep 0.05
		_i=$((_i + 1))
	done
	kill -INT "$hp"
	sleep 1.5
	first=gone
	kill -0 "$hp" 2>/dev/null && first=waiting
	kill -INT "$hp"
	wait "$hp"
	rc=$?
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	dog=$([ -e "$tmp/dog" ] && echo dog)
	exec 8>&-
	wait "$fusep"
	like "${cpid:+held}:$first:$dog:$rc" "held:waiting::1[23][57]" \
		"held in a FUSE wait, no freezer: the first SIGINT is handed on, the second ends the entry"
	kill -KILL "$TARGET" 2>/dev/null
	stop_target
else
	skip "held in a FUSE wait" "no FUSE in this kernel"
fi

# A command that stops itself as soon as it runs has run: its stop is its
# own (the status pipe's EOF may be read after the stop is seen), and
# once continued its status comes back, never 125.
start_target
wrong=
for i in 1 2 3 4 5 6 7 8; do
	"$HIJACK" --pid "$TARGET" -- /bin/sh -c 'kill -STOP $$; exit 3' >"$tmp/err" 2>&1 &
	hp=$!
	sp=
	_i=0
	while [ $_i -lt 200 ]; do
		sp=$(pgrep -f '^/bin/sh -c kill -STOP')
		[ -n "$sp" ] && [ "$(ps -o stat= -p "$sp" | cut -c1)" = T ] && break
		sleep 0.05
		_i=$((_i + 1))
	done
	kill -CONT $sp 2>/dev/null
	wait "$hp"
	rc=$?
	[ "$rc" = 3 ] || wrong="$wrong $rc:$(cat "$tmp/err")"
done
is "$wrong" "" "a command that stops itself at once: its status (3), 8 times out of 8"
stop_target

# The controls: once the exec has happened, the command's death is its own.
# wait_ran NAME: until the command NAME has written its mark, 10 s at most.
wait_ran() {
	_i=0
	while [ ! -e "$tmp/ran/$1" ] && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}
for shape in plain pty; do
	runner=""
	[ $shape = pty ] && runner="$PTYDRIVE --"
	start_target --devpts
	hold_start
	$runner "$HIJACK" --pid "$TARGET" -- "$cmd" "ran-$shape" >"$tmp/err" 2>&1 9>&- &
	hp=$!
	wait_held || diag "ran-$shape: no exec was held"
	echo go >&9
	wait_ran "ran-$shape"
	kill -KILL "$TARGET"
	wait "$hp"
	rc=$?
	hold_stop
	stop_target
	is "$rc" 137 "$shape: the exec let through, then the target killed: 137"
	[ -e "$tmp/ran/ran-$shape" ]
	ok $? "$shape: ... and the command did run"
done

# Held before its exec, the command's process still holds hijack's memory:
# the caller's environment and arguments.  A process of the container
# with the very credentials the command has by then (the same uids and
# capabilities, here Docker's default set, without CAP_SYS_PTRACE) must
# neither trace it nor read its environ or mem, though the kernel keeps
# the process dumpable when the uid does not change (root into a container
# that shares the caller's user namespace; the relay shape's caller, who
# owns the target's).  The attacker is a command hijack runs in the
# target, so it is confined exactly as the container's own processes.
cat >"$tmp/peek.py" <<'PY'
import ctypes, errno, os, sys
pid, secret = int(sys.argv[1]), sys.argv[2].encode()
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
out = []
try:
    with open("/proc/%d/environ" % pid, "rb") as f:
        out.append("environ read" + (", the caller's secret in it" if secret in f.read() else ""))
except OSError as e:
    out.append("environ " + errno.errorcode[e.errno])
try:
    os.close(os.open("/proc/%d/mem" % pid, os.O_RDONLY))
    out.append("mem opened")
except OSError as e:
    out.append("mem " + errno.errorcode[e.errno])
for name, req in (("seize", 0x4206), ("attach", 16)):
    if libc.ptrace(req, pid, None, None) == 0:
        out.append(name + "d")
        break
    out.append(name + " " + errno.errorcode[ctypes.get_errno()])
print(", ".join(out))
PY
docker_caps=0,1,3,4,5,6,7,8,10,13,18,27,29,31
runner=""

# peek NAME HIJACK-OPTIONS: run $cmd NAME in $TARGET with the exec held and
# a secret in hijack's environment, let a process of the target peek at
# the held one ($peeked), then let the exec through.  $owner is who owns
# hijack's own /proc/PID/status meanwhile: root's once it is not dumpable.
peek() {
	name=$1
	shift
	hold_start
	HJ_SECRET=hj19-$$-secret $runner "$HIJACK" --pid "$TARGET" "$@" -- "$cmd" "$name" >"$tmp/err" 2>&1 9>&- &
	hp=$!
	peeked="no exec held"
	if wait_held; then
		owner=$(stat -c %u "/proc/$hp/status")
		nspid=$(awk '/^NSpid:/ { print $NF }' "/proc/$held/status")
		peeked=$($runner "$HIJACK" --pid "$TARGET" "$@" -- python3 "$tmp/peek.py" "$nspid" "hj19-$$-secret" 2>&1 9>&-)
	fi
	echo go >&9
	wait_ran "$name"
	kill "$TARGET"
	wait "$hp"
	hold_stop
	stop_target
}

denied="environ EACCES, mem EACCES, seize EPERM, attach EPERM"
for m in pidfd nsfd; do
	start_target --caps $docker_caps
	peek "peek-$m" --method=$m
	is "$peeked" "$denied" "$m, root with Docker's capabilities: the held process is out of the container's reach"
	[ -e "$tmp/ran/peek-$m" ]
	ok $? "$m: ... and the command ran once let through"
done

start_target --userns $uid
runner="$FIXTURE --run-as $uid --"
peek peek-relay --root=keep --wd=/
runner=""
is "$peeked" "$denied" "relay shape, the caller's uid: the held process is out of the container's reach"
[ -e "$tmp/ran/peek-relay" ]
ok $? "relay: ... and the command ran once let through"
is "$owner" "$uid" "... while hijack itself, past the fork, is as dumpable as before"

start_target --caps $docker_caps
if "$HIJACK" --pid "$TARGET" --explain 2>/dev/null | grep -q 'kernel has hijack(2)'; then
	peek peek-syscall --method=syscall
	is "$peeked" "$denied" "hijack(2): the held process is out of the container's reach"
	[ -e "$tmp/ran/peek-syscall" ]
	ok $? "hijack(2): ... and the command ran once let through"
else
	stop_target
	for i in 1 2; do
		skip "syscall method, held exec peeked at" "the running kernel has no hijack(2)"
	done
fi

# Once it has exec'd, the command is exactly as dumpable as a process the
# container starts itself (here, one the command starts): execve() sets
# dumpability anew, from the credentials and the file alone.
cat >"$tmp/dumpable.py" <<'PY'
import ctypes, subprocess, sys
me = ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
if sys.argv[1:] == ["child"]:
    print(me)
else:
    print(me, subprocess.run([sys.executable, sys.argv[0], "child"],
                             capture_output=True, text=True).stdout.strip())
PY
start_target --caps $docker_caps
is "$("$HIJACK" --pid "$TARGET" -- python3 "$tmp/dumpable.py" 2>&1)" "1 1" \
	"after its exec the command is dumpable, as a process of the container is (root)"
stop_target
start_target --uid $uid --gid $uid
is "$("$HIJACK" --pid "$TARGET" -- python3 "$tmp/dumpable.py" 2>&1)" "1 1" \
	"... and as uid $uid"
stop_target
start_target --userns $uid
is "$("$FIXTURE" --run-as $uid -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ -- python3 "$tmp/dumpable.py" 2>&1)" "1 1" \
	"... and in the relay shape"
stop_target

finish
