#!/bin/sh
# Real containers made by real runtimes: an LXC busybox container and a
# runc container.  The entered command must share every namespace with the
# container's init, see the container's hostname and process list, and its
# exit status must come back.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root

plan 26
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"

probe='for t in mnt uts ipc net pid user cgroup time; do stat -L -c %d:%i /proc/self/ns/$t; done; hostname; cat /proc/1/comm'

# check_container RUNTIME NAME: compare hijack's view with the init's.
check_container() {
	expected=""
	for t in mnt uts ipc net pid user cgroup time; do
		expected="$expected$(nsid "$CT_PID" "$t") "
	done
	expected="$expected$2 $(cat "/proc/$CT_PID/comm")"
	for m in pidfd nsfd; do
		out=$("$HIJACK" --pid "$CT_PID" --method=$m -- /bin/sh -c "$probe" 2>&1); rc=$?
		is "$rc" 0 "$1 $m: exit 0"
		is "$(echo "$out" | tr '\n' ' ' | sed 's/ $//')" "$expected" "$1 $m: all namespaces, hostname and pid 1 are the container's"
	done
	out=$("$HIJACK" --pid "$CT_PID" -- /bin/sh -c 'ps -o pid,comm 2>/dev/null || ps' 2>&1)
	like "$out" "*1 *$(cat "/proc/$CT_PID/comm")*" "$1: ps inside lists the container's own pid 1"
	case "$out" in
	*hijack*) ok 1 "$1: no host process is visible inside" ;;
	*) ok 0 "$1: no host process is visible inside" ;;
	esac
	"$HIJACK" --pid "$CT_PID" -- /bin/sh -c 'exit 5'
	is $? 5 "$1: exit status passed through"
	"$HIJACK" --pid "$CT_PID" -- /bin/sh -c 'kill -9 $$'
	is $? 137 "$1: death by SIGKILL is 137"
	err=$("$HIJACK" --pid "$CT_PID" -- /no/such/tool 2>&1); rc=$?
	is "$rc" 127 "$1: command missing inside the container: 127"
	like "$err" "hijack: exec: /no/such/tool: *" "$1: ... named"
	out=$("$HIJACK" --pid "$CT_PID" --explain=json)
	like "$out" '*"mnt":{*"enter":true}*' "$1: --explain=json marks mnt for entry"
	# On a terminal: one of the container's own devpts, not the caller's.
	out=$("$PTYDRIVE" -- "$HIJACK" --pid "$CT_PID" -- /bin/sh -c \
		'echo "tty=$(readlink /proc/self/fd/0)"; stat -c "pts=%d" /dev/pts; stat -L -c "fd0=%d" /proc/self/fd/0' |
		tr -d '\r')
	like "$out" "*tty=/dev/pts/[0-9]*" "$1: on a terminal, the command's is one of /dev/pts inside"
	is "$(echo "$out" | sed -n 's/^fd0=//p')" "$(echo "$out" | sed -n 's/^pts=//p')" \
		"$1: ... from the container's own devpts instance"
}

name=hijack-t$$
if command -v lxc-create >/dev/null && command -v busybox >/dev/null; then
	if lxc_up "$name"; then
		check_container lxc "$name"
	else
		echo "Bail out! could not start an LXC busybox container"
		lxc_down "$name"
		exit 1
	fi
	lxc_down "$name"
else
	i=0
	while [ $i -lt 13 ]; do skip "lxc" "lxc or busybox-static not installed"; i=$((i + 1)); done
fi

rdir=$(tmpdir)/runc
if command -v runc >/dev/null && command -v busybox >/dev/null; then
	if runc_up "$name" "$rdir"; then
		check_container runc "$name"
	else
		echo "Bail out! could not start a runc container"
		runc_down "$name" "$rdir"
		exit 1
	fi
	runc_down "$name" "$rdir"
else
	i=0
	while [ $i -lt 13 ]; do skip "runc" "runc or busybox-static not installed"; i=$((i + 1)); done
fi

finish
