#!/bin/sh
# hijack --tools: the host's programs in a container's confinement, with
# the container's root on /run/hijack/root and its /proc; and "not a door":
# from inside a Docker-like container (root, Docker's default capabilities)
# every way to another process's files is tried against the debugging
# command, and none reaches a host-only file.  Nothing is left in the
# host's or the container's mount table.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
for tool in runc podman busybox python3 strace ss ps tar gdb tcpdump bash; do
	command -v "$tool" >/dev/null || skip_all "no $tool"
done
: "${DISTROLESS:=$(dirname "$FIXTURE")/distroless}"

plan 55

tmp=$(tmpdir)
n=hj16-$$
dl=$tmp/dl
bb=$tmp/bb
teardown() {
	[ -z "$dbg" ] || kill "$dbg" 2>/dev/null
	distroless_down "$n" "$dl"
	dockerlike_down "$n-bb" "$bb"
	podman_down "$n-pd"
	podman_down "$n-pbb"
	podman rmi -f "localhost/$n-img" "localhost/$n-bbimg" >/dev/null 2>&1
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

# --- a distroless container: one static binary, no shell, no libc ---------------
distroless_up "$n" "$dl" "$DISTROLESS" || bail "distroless runc container"
P=$CT_PID
# What --tools could leave on the host: a tmpfs on /run, anything under
# /run/hijack or the test's directory, a proc mount.  Only those: the
# other tests of a parallel make check mount and unmount elsewhere (their
# containers' roots, network namespaces) meanwhile.
host_mounts() {
	awk -v t="$tmp" '{ for (i = 7; $i != "-"; i++) ; fs = $(i + 1) }
		$5 == "/run" || index($5, "/run/hijack") == 1 ||
		index($5, t) == 1 || fs == "proc" {
			$1 = $2 = ""; print }' /proc/self/mountinfo | sort
}
ct_mounts() { sed 's/^[0-9]* [0-9]* //' "/proc/$P/mountinfo" | sort; }
host_before=$(host_mounts)
ct_before=$(ct_mounts)

err=$("$HIJACK" "runc:$n" -- sh 2>&1); rc=$?
is "$rc:$err" "127:hijack: exec: sh (the container has no /bin/sh; hijack --tools runs the host's programs in it): No such file or directory" \
	"no shell inside: 127, and the message suggests --tools"
out=$("$HIJACK" --tools "runc:$n" -- ls /run/hijack/root)
is "$(echo $out)" "app dev proc small sys" "ls of the container's root on /run/hijack/root"
out=$("$HIJACK" --tools "runc:$n" -- pwd)
is "$out" /run/hijack/root "the working directory is the target's, under /run/hijack/root"
out=$("$HIJACK" --tools --wd /dev "runc:$n" -- pwd)
is "$out" /run/hijack/root/dev "--wd names a directory of the container, under /run/hijack/root"
out=$("$HIJACK" --tools --wd dev "runc:$n" -- pwd)
is "$out" /run/hijack/root/dev "... and a relative one starts at the container's root"
err=$("$HIJACK" --tools --wd /nowhere "runc:$n" -- pwd 2>&1); rc=$?
is "$rc:$err" "125:hijack: cwd: --wd /nowhere in pid $P's root: No such file or directory" \
	"a --wd the container lacks: 125, nothing run"
out=$("$HIJACK" --tools "runc:$n" -- ps -eo pid,args)
like "$out" "*1 /app*" "ps (the host's) lists the container's processes: /app is pid 1"
case $out in *hijack*) ok 1 "... and no host process" ;; *) ok 0 "... and no host process" ;; esac
out=$("$HIJACK" --tools "runc:$n" -- ss -ltn)
like "$out" "*127.0.0.1:8080*" "ss (the host's) in the container's network namespace shows its listener"
out=$("$HIJACK" --tools "runc:$n" -- timeout -s INT 3 strace -p 1 2>&1)
like "$out" "*attached*" "strace -p 1 attaches to the container's binary"
out=$("$HIJACK" --tools "runc:$n" -- gdb -p 1 -batch -ex 'info inferiors' 2>&1)
like "$out" "*process 1 *" "gdb -p 1 attaches to the container's binary"
out=$("$HIJACK" --tools "runc:$n" -- bash -c 'timeout 10 tcpdump -n -l -i lo -c 1 tcp port 8080 2>/dev/null & sleep 2; exec 3<>/dev/tcp/127.0.0.1/8080; wait')
like "$out" "*127.0.0.1.* > 127.0.0.1.8080*" "tcpdump in the container's network namespace sees its traffic"
"$HIJACK" --tools "runc:$n" -- sh -c 'exit 7'
is $? 7 "the exit status is passed through"
out=$("$HIJACK" --tools "runc:$n" -- sh -c 'grep -E "^(CapEff|Uid)" /proc/self/status | tr -s "\t\n" "  "')
is "$out" "Uid: 0 0 0 0 CapEff: $(printf %016x $((0x$(sed -n 's/^CapEff:\t//p' "/proc/$P/status") | 1 << 35))) " \
	"the container's uid and capabilities, and the mark CAP_WAKE_ALARM"
out=$("$HIJACK" --tools "runc:$n" -- sh -c 'echo "$PATH"')
is "$out" "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "PATH is the view's program directories"
out=$("$HIJACK" --tools=/srv/hj16-$$ "runc:$n" -- sh -c 'ls "$1"; pwd' sh "/srv/hj16-$$")
is "$(echo $out)" "app dev proc small sys /srv/hj16-$$" "--tools=DIR mounts it on DIR instead, made in the view"
is "$(ls -d "/srv/hj16-$$" 2>&1)" "ls: cannot access '/srv/hj16-$$': No such file or directory" "... and not on the host"
for dir in /usr/hj16 /etc /tmp/x /dev/x; do
	err=$("$HIJACK" --tools=$dir "runc:$n" -- true 2>&1); rc=$?
	is "$rc:$err" "125:hijack: options: --tools directory '$dir': /$(echo $dir | cut -d/ -f2) is the view's own: Invalid argument" \
		"--tools=$dir, a directory of the view's own, is refused"
done
is "$(host_mounts)" "$host_before" "the host's mount table is as before"
is "$(ct_mounts)" "$ct_before" "the container's mount table is as before"
err=$("$HIJACK" --tools=rel "runc:$n" -- true 2>&1); rc=$?
is "$rc:$err" "125:hijack: invalid --tools 'rel': an absolute directory
Try 'hijack --help' for more information." "--tools=DIR must be absolute"
out=$("$HIJACK" --tools --user=1000 --group=1000 "runc:$n" -- sh -c 'grep -E "^(Uid|Gid|CapEff)" /proc/self/status | tr -s "\t\n" "  "')
is "$out" "Uid: 1000 1000 1000 1000 Gid: 1000 1000 1000 1000 CapEff: 0000000800000000 " \
	"--user=1000: its ids, and of capabilities only the mark, CAP_WAKE_ALARM"

out=$("$HIJACK" --tools "runc:$n" -- ls -A /run)
is "$out" "hijack" "/run inside holds hijack/ alone: nothing of the host's /run"
start_target
err=$("$HIJACK" --tools --pid "$TARGET" -- true 2>&1); rc=$?
is "$rc:$err" "125:hijack: plan: --tools: the container holds CAP_SYS_PTRACE and could reach the host's files through the command: Operation not permitted" \
	"a target holding CAP_SYS_PTRACE is refused"
stop_target

# --- the same image run by podman -------------------------------------------------
mkdir "$tmp/img"
cp "$DISTROLESS" "$tmp/img/app"
tar -C "$tmp/img" -cf "$tmp/img.tar" . && podman import "$tmp/img.tar" "localhost/$n-img" >/dev/null 2>&1 ||
	bail "podman import"
CT_ID=$(podman --runtime runc run -d --name "$n-pd" --ulimit nofile=1024:1024 \
	--ulimit nproc=1024:1024 --network none "localhost/$n-img" /app 2>/dev/null) || bail "podman run"
out=$("$HIJACK" --tools "podman:$n-pd" -- ps -eo pid,args)
like "$out" "*1 /app*" "podman, distroless image: ps through --tools shows /app as pid 1"
echo "in podman" | "$HIJACK" "podman:$n-pd" --write-file=/note --mode=0600
is "$?:$("$HIJACK" "podman:$n-pd" --read-file=/note)" "0:in podman" "... and a file written and read back with no tool inside"
podman_down "$n-pd"

# --- not a door -------------------------------------------------------------------

# inside CMD...: run CMD in the container under test as its engine execs.
inside() { $engine_exec "$@"; }
try() {
	out=$(inside sh -c "$1" 2>&1)
	case $out in
	*HOSTONLY*) ok 1 "$label: $2"; diag "got: $out" ;;
	*) ok 0 "$label: $2" ;;
	esac
}

# not_a_door LABEL TARGET INIT_PID: from a root process of the container
# (the engine's exec), every path to a file of the view only (on its
# /tmp) that the debugging command holds open, with the view's / as its
# root and cwd.
not_a_door() {
	label=$1
	"$HIJACK" --tools "$2" -- sh -c "echo HOSTONLY >/tmp/secret; exec 3</tmp/secret; cd /; exec sleep 4242" &
	dbg=$!
	cpid=$(pid_inside "sleep 4242") || bail "$label: the debugging command is not visible in the container"
	ok 0 "$label: the debugging command is in the container's pid namespace (pid $cpid there)"
	is "$(sed -n 's/^CapEff:\t//p' /proc/$(pgrep -P "$dbg" | head -1)/status 2>/dev/null)" \
		"$(printf %016x $((0x$(sed -n 's/^CapEff:\t//p' "/proc/$3/status") | 1 << 35)))" \
		"$label: it holds the container's capabilities and the mark, no more"
	# A control: an ordinary process of the container is reachable this way.
	inside sh -c 'sleep 4343 >/dev/null 2>&1 &'
	ctl=$(pid_inside "sleep 4343") || bail "$label: no control process"
	out=$(inside sh -c "ls /proc/$ctl/root/bin/busybox" 2>&1)
	is "$out" "/proc/$ctl/root/bin/busybox" "$label: control: another container process's /proc/PID/root is readable"
	try "cat /proc/$cpid/root/tmp/secret" "refused: /proc/PID/root to a file of the view"
	try "cat /proc/$cpid/cwd/tmp/secret" "refused: /proc/PID/cwd"
	try "cat /proc/$cpid/fd/3" "refused: /proc/PID/fd (a host file the command holds open)"
	try "ls /proc/$cpid/root/ /proc/$cpid/cwd/; cd /proc/$cpid/root/tmp && cat secret" "refused: chdir through /proc/PID/root"
	try "for f in /proc/$cpid/map_files/*; do cat \$f; done" "refused: /proc/PID/map_files"
	try "cat /proc/$cpid/environ /proc/$cpid/mem" "refused: /proc/PID/environ and mem"
	out=$(inside /bin/ptry ptrace "$cpid" 2>&1)
	is "$out" "ptrace $cpid: Operation not permitted" "$label: refused: ptrace(PTRACE_SEIZE)"
	out=$(inside sh -c "readlink /proc/$cpid/root /proc/$cpid/cwd /proc/$cpid/fd/3; echo rc=\$?" 2>&1)
	like "$out" "*rc=1*" "$label: refused: even readlink of /proc/PID/root, cwd and fd"
	out=$(inside cat /proc/self/mountinfo)
	case $out in */run/hijack*) ok 1 "$label: the container's processes never see the command's mounts" ;;
	*) ok 0 "$label: the container's processes never see the command's mounts" ;; esac
	kill "$dbg"
	wait "$dbg" 2>/dev/null
	# bash drops a difference between real and effective ids at start; the
	# mark is no id, and a process bash starts is just as closed.
	"$HIJACK" --tools "$2" -- bash -c "echo HOSTONLY >/tmp/secret; exec 3</tmp/secret; cd /; sleep 4244; :" &
	dbg=$!
	cpid=$(pid_inside "sleep 4244") || bail "$label: the child of bash is not visible in the container"
	try "cat /proc/$cpid/root/tmp/secret /proc/$cpid/fd/3" "refused: a process bash started under --tools, through root and fd"
	kill "$dbg"
	wait "$dbg" 2>/dev/null
	dbg=
}

# runc, as Docker runs a container: root, Docker's default capabilities.
dockerlike_up "$n-bb" "$bb" || bail "busybox runc container"
cp "$DISTROLESS" "$bb/rootfs/bin/ptry"
engine_exec="runc exec $n-bb"
not_a_door runc "runc:$n-bb" "$CT_PID"

# Podman, with its own default capabilities and seccomp profile.
bb_rootfs "$tmp/bbimg" && cp "$DISTROLESS" "$tmp/bbimg/bin/ptry" &&
	tar -C "$tmp/bbimg" -cf "$tmp/bbimg.tar" . &&
	podman import "$tmp/bbimg.tar" "localhost/$n-bbimg" >/dev/null 2>&1 || bail "podman import (busybox)"
CT_ID=$(podman --runtime runc run -d --name "$n-pbb" --ulimit nofile=1024:1024 \
	--ulimit nproc=1024:1024 --network none "localhost/$n-bbimg" sleep 100000 2>/dev/null) ||
	bail "podman run (busybox)"
engine_exec="podman exec $n-pbb"
not_a_door podman "podman:$n-pbb" "$(podman inspect -f '{{.State.Pid}}' "$n-pbb")"
finish
