#!/bin/sh
# Bad input against real targets: each gets its documented exit status and
# one line naming the pid, namespace or path, and never a half-entered
# command.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root

plan 23

start_target
marker=$(tmpdir)/ran

# A command that is not there, or not executable.
err=$("$HIJACK" --pid "$TARGET" -- /no/such/command 2>&1); rc=$?
is "$rc" 127 "command not found: exit 127"
is "$err" "hijack: exec: /no/such/command: No such file or directory" "command not found: named"
err=$("$HIJACK" --pid "$TARGET" -- no-such-command-in-path 2>&1); rc=$?
is "$rc" 127 "command not in PATH: exit 127"
noexec=$(tmpdir)/not-executable
echo 'echo should not run' >"$noexec"
chmod 644 "$noexec"
err=$("$HIJACK" --pid "$TARGET" -- "$noexec" 2>&1); rc=$?
is "$rc" 126 "command not executable: exit 126"
is "$err" "hijack: exec: $noexec: Permission denied" "command not executable: named"

# A non-root caller may not enter a root-owned target.
err=$("$FIXTURE" --run-as 65534 -- "$HIJACK" --pid "$TARGET" -- /bin/sh -c "touch '$marker'" 2>&1); rc=$?
is "$rc" 125 "unprivileged caller, root-owned target: exit 125"
like "$err" "hijack: *$TARGET*: Permission denied" "unprivileged caller: one line naming the pid"
[ -e "$marker" ]
ok $((! $?)) "unprivileged caller: the command did not run"

# A working directory that is not there inside: nothing runs.
err=$("$HIJACK" --pid "$TARGET" --wd /no/such/dir -- /bin/sh -c "touch '$marker'" 2>&1); rc=$?
is "$rc" 125 "missing --wd: exit 125"
is "$err" "hijack: cwd: /no/such/dir: No such file or directory" "missing --wd: named"
[ -e "$marker" ]
ok $((! $?)) "missing --wd: the command did not run"

# A target that has exited but is not reaped yet (a zombie): deterministic.
zlog=$(tmpdir)/zombie
/bin/sh -c 'sleep 0 & echo $! > "$1"; exec sleep 30' sh "$zlog" &
zparent=$!
_pids="$_pids $zparent"
i=0
while [ $i -lt 100 ]; do
	z=$(cat "$zlog" 2>/dev/null)
	[ -n "$z" ] && [ "$(awk '{print $3}' "/proc/$z/stat" 2>/dev/null)" = Z ] && break
	sleep 0.05
	i=$((i + 1))
done
err=$("$HIJACK" --pid "$z" -- /bin/sh -c "touch '$marker'" 2>&1); rc=$?
is "$rc" 125 "exited target: exit 125"
like "$err" "hijack: *$z*" "exited target: one line naming the pid"
[ -e "$marker" ]
ok $((! $?)) "exited target: the command did not run"

# Targets dying while hijack enters them.  Three outcomes are right: it
# ran (0); hijack refused cleanly (125, naming the pid); or the command was
# already inside and died with the container's pid 1 (137).  Anything else
# (141: hijack killed by SIGPIPE) is a bug.  Bounded: 20 rounds.
bad=0
hit=0
round=0
while [ $round -lt 20 ]; do
	start_target
	if [ $((round % 2)) = 0 ]; then
		kill -KILL "$TARGET" &
	else
		# Spread over the entry's whole span (tens of ms): the
		# late kills land after the command's fork, where hijack once
		# died of SIGPIPE (141) handing it the go-ahead.
		( sleep "$(printf '0.%03d' $((round * 3)))"; kill -KILL "$TARGET" ) &
	fi
	err=$("$HIJACK" --pid "$TARGET" -- /bin/true 2>&1); rc=$?
	wait $!
	case "$rc" in
	0 | 137) ;;
	125)
		hit=$((hit + 1))
		case "$err" in *"$TARGET"*) ;; *) bad=$((bad + 1)); diag "round $round: $err" ;; esac
		;;
	*) bad=$((bad + 1)); diag "round $round: rc=$rc $err" ;;
	esac
	stop_target
	round=$((round + 1))
done
is "$bad" 0 "targets killed during entry: only success, death with the container, or a clean 125 naming the pid"
diag "$hit of 20 rounds were refused with 125"
start_target

# The syscall method on a kernel without the hijack system call.
if "$HIJACK" --pid "$TARGET" --explain 2>/dev/null | grep -q 'kernel has hijack(2)'; then
	skip "syscall method refused without the patch" "this kernel has hijack(2)"
	skip "syscall method message" "this kernel has hijack(2)"
else
	err=$("$HIJACK" --pid "$TARGET" --method=syscall -- /bin/true 2>&1); rc=$?
	is "$rc" 125 "method syscall without kernel support: exit 125"
	is "$err" "hijack: plan: method syscall: the running kernel has no hijack system call: Function not implemented" "method syscall: clear message"
fi

# A kernel thread (kthreadd is pid 2) has nothing to enter.
if grep -q '^Kthread:[[:space:]]*1' /proc/2/status 2>/dev/null; then
	err=$("$HIJACK" --pid 2 -- /bin/true 2>&1); rc=$?
	is "$rc" 125 "kernel thread: exit 125"
	is "$err" "hijack: target: pid 2 is a kernel thread: Invalid argument" "kernel thread: named"
else
	skip "kernel thread refused" "no Kthread field in /proc/2/status (kernel before 6.3)"
	skip "kernel thread named" "no Kthread field in /proc/2/status (kernel before 6.3)"
fi

# Explicitly asking for a type excluded at the same time.
err=$("$HIJACK" --pid "$TARGET" --ns=net --no-ns=net -- /bin/true 2>&1); rc=$?
is "$rc" 125 "--ns and --no-ns cancelling out: exit 125"
like "$err" "hijack: --ns and --no-ns leave no namespace to enter*" "--ns/--no-ns: named"
err=$("$HIJACK" --pid "$TARGET" 2>&1 </dev/null); rc=$?
is "$rc" 0 "default command with empty stdin exits 0"
is "$err" "" "... and says nothing"

finish
