#!/bin/sh
# Targets under a user namespace owned by an unprivileged uid: a root
# caller enters it, and so does that uid itself, unprivileged, through the
# user namespace it owns; both methods give the same result.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
[ -e /proc/self/ns/user ] || skip_all "kernel without user namespaces"

plan 16

uid=1000
start_target --userns $uid --hostname userns-target

probe='for t in mnt uts ipc net pid user cgroup time; do '"'$FIXTURE'"' --ns-id $t; done; hostname; echo $$'
expected=""
for t in mnt uts ipc net pid user cgroup time; do
	expected="$expected$(nsid "$TARGET" "$t") "
done
expected="${expected}userns-target"

run() {
	out=$("$@" 2>&1); rc=$?
	pid_inside=$(echo "$out" | tail -n 1)
	got=$(echo "$out" | sed '$d' | tr '\n' ' ' | sed 's/ $//')
}

for m in pidfd nsfd; do
	run "$HIJACK" --pid "$TARGET" --method=$m --root=keep --wd=/ -- /bin/sh -c "$probe"
	is "$rc" 0 "root caller, $m: exit 0"
	is "$got" "$expected" "root caller, $m: all eight namespaces are the target's"
	[ "$pid_inside" -gt 1 ] && [ "$pid_inside" -lt "$TARGET" ]
	ok $? "root caller, $m: pid inside ($pid_inside) is numbered by the target's pid namespace"

	run "$FIXTURE" --run-as $uid -- "$HIJACK" --pid "$TARGET" --method=$m --root=keep --wd=/ -- /bin/sh -c "$probe"
	is "$rc" 0 "uid $uid, unprivileged, $m: exit 0"
	is "$got" "$expected" "uid $uid, $m: all eight namespaces are the target's (user namespace entered first)"
	[ "$pid_inside" -gt 1 ] && [ "$pid_inside" -lt "$TARGET" ]
	ok $? "uid $uid, $m: pid inside ($pid_inside) is numbered by the target's pid namespace (through the relay)"
done

# Statuses come back through the relay too.
"$FIXTURE" --run-as $uid -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ -- /bin/sh -c 'exit 9'
is $? 9 "unprivileged caller: exit status passed through the relay"
"$FIXTURE" --run-as $uid -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ -- /bin/sh -c 'kill -TERM $$'
is $? 143 "unprivileged caller: death by SIGTERM is 143"
err=$("$FIXTURE" --run-as $uid -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ -- /no/such 2>&1); rc=$?
is "$rc" 127 "unprivileged caller: command not found is 127 through the relay"
is "$err" "hijack: exec: /no/such: No such file or directory" "unprivileged caller: the message comes back through the relay"

finish
