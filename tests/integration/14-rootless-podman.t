#!/bin/sh
# A rootless Podman container is a target for its own user: a user made
# for the test runs one (with runc, in a user namespace of its subordinate
# ids) and enters it by name, as that user, without root.  Its cgroup is
# its user's on this cgroup v1 host, so the proof is runc's record of the
# init's start time.  Root's own search does not see it.
#
# The container has seccomp filters, which only CAP_SYS_ADMIN in the
# initial user namespace may read (PTRACE_SECCOMP_GET_FILTER): the user
# enters with --seccomp=none, which hijack(1) requires spelled out.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
require_tools podman runc newuidmap useradd userdel su busybox

plan 8

tmp=$(tmpdir)
user=hjrl$$
# Subordinate ids far from any a machine hands out (useradd's start at
# 100000), different for each run.
base=$((1000000000 + ($$ % 1000) * 65536))

rootless_cleanup() {
	su -s /bin/sh "$user" -c 'podman rm -f -t 0 rweb' >/dev/null 2>&1
	# Rootless podman leaves its pause process behind: end the user's
	# processes, each by its pid (they are all this test's).
	for p in $(ps -o pid= -u "$user" 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null
	done
	userdel -r "$user" >/dev/null 2>&1
	sed -i "/^$user:/d" /etc/subuid /etc/subgid
}
trap 'rootless_cleanup; cleanup' EXIT

as_user() {
	su -s /bin/sh "$user" -c "cd; $1"
}

useradd -m -s /bin/sh "$user" || { echo "Bail out! useradd"; exit 1; }
echo "$user:$base:65536" >>/etc/subuid
echo "$user:$base:65536" >>/etc/subgid
bb_rootfs "$tmp/rootfs" && tar -C "$tmp/rootfs" -cf "$tmp/rootfs.tar" . ||
	{ echo "Bail out! busybox root"; exit 1; }
chmod 644 "$tmp/rootfs.tar"
as_user "podman import $tmp/rootfs.tar rl-bb:1" >/dev/null 2>&1 ||
	{ echo "Bail out! podman import as $user"; exit 1; }
as_user "podman --runtime runc run -d --name rweb --hostname rweb --network none \
	--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 localhost/rl-bb:1 /bin/sleep 100000" \
	>/dev/null 2>&1 || { echo "Bail out! rootless podman run"; exit 1; }
pid=$(as_user "podman inspect -f '{{.State.Pid}}' rweb")

out=$(as_user "$HIJACK --list")
like "$out" "*podman *rweb *[0-9a-f]* $pid *running*" "the user's --list shows its rootless container"
out=$("$HIJACK" --list)
case $out in
*rweb*) ok 1 "root's --list does not" ;;
*) ok 0 "root's --list does not" ;;
esac

probe='echo $(hostname) $(readlink /proc/self/ns/pid) $(readlink /proc/self/ns/user) $(id -u)'
want="rweb $(readlink "/proc/$pid/ns/pid") $(readlink "/proc/$pid/ns/user") 0"
out=$(as_user "$HIJACK --seccomp=none rweb -- /bin/sh -c '$probe'" 2>&1)
is "$out" "$want" "entered by name as its user: its hostname, pid and user namespaces, root inside"
id=$(as_user "podman inspect -f '{{.Id}}' rweb")
out=$(as_user "$HIJACK --seccomp=none podman:$(echo "$id" | cut -c1-12) -- hostname" 2>&1)
is "$out" "rweb" "... and by id prefix"
out=$(as_user "$HIJACK --explain=json --seccomp=none rweb" | python3 -c 'import json,sys; c=json.load(sys.stdin)["container"]; print(c["engine"], c["name"], c["pid"])')
is "$out" "podman rweb $pid" "--explain=json names it"
err=$(as_user "$HIJACK rweb -- hostname" 2>&1); rc=$?
like "$rc:$err" "125:hijack: seccomp: *" "without --seccomp=none: refused, its filters cannot be read unprivileged"
err=$("$HIJACK" podman:rweb -- true 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: no running container 'rweb'*" "root does not find the user's container"
as_user "podman kill rweb" >/dev/null 2>&1
err=$(as_user "$HIJACK --seccomp=none rweb -- true" 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: *" "stopped: 125"

finish
