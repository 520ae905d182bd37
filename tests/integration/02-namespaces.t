#!/bin/sh
# Entering a real target: a fixture task in fresh mnt, uts, ipc, net, pid,
# cgroup and time namespaces, chrooted into a small root, with its own cwd.
# Every namespace, the hostname, the pid as seen inside, root and cwd must
# be the target's, with both the pidfd and nsfd methods, and identically.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
command -v busybox >/dev/null || skip_all "needs busybox (apt-get install busybox-static)"

types="mnt uts ipc net pid user cgroup time"
methods="pidfd nsfd"
[ -n "$HIJACK_EXTRA_METHODS" ] && methods="$methods $HIJACK_EXTRA_METHODS"
nmethods=$(echo $methods | wc -w)
plan $((nmethods * 16 + 4))

root=$(tmpdir)/root
make_rootfs "$root" || { echo "Bail out! cannot build a root"; exit 1; }
start_target --root "$root" --cwd /srv/dir --hostname hijack-ns-test

# What the command reports from inside, one fact a line.
probe='for t in mnt uts ipc net pid user cgroup time; do fixture --ns-id $t; done
hostname
echo $$
stat -c %d:%i /
stat -c %d:%i .
pwd
cat /proc/1/comm'

expected=""
for t in $types; do
	expected="$expected$(nsid "$TARGET" "$t")
"
done

first=""
for m in $methods; do
	out=$("$HIJACK" --pid "$TARGET" --method="$m" -- /bin/sh -c "$probe" 2>&1); rc=$?
	is "$rc" 0 "$m: the command ran and exited 0"
	i=1
	for t in $types; do
		got=$(echo "$out" | sed -n "${i}p")
		want=$(echo "$expected" | sed -n "${i}p")
		is "$got" "$want" "$m: $t namespace is the target's (device:inode)"
		i=$((i + 1))
	done
	is "$(echo "$out" | sed -n 9p)" "hijack-ns-test" "$m: hostname is the target's"
	p=$(echo "$out" | sed -n 10p)
	[ "$p" -gt 1 ] && [ "$p" -lt "$TARGET" ]
	ok $? "$m: pid seen inside ($p) is the target's namespace's numbering, not the host's"
	is "$(echo "$out" | sed -n 11p)" "$(stat -L -c %d:%i "/proc/$TARGET/root")" "$m: root is the target's"
	is "$(echo "$out" | sed -n 12p)" "$(stat -L -c %d:%i "/proc/$TARGET/cwd")" "$m: cwd is the target's"
	is "$(echo "$out" | sed -n 13p)" "/srv/dir" "$m: cwd path inside the root"
	is "$(echo "$out" | sed -n 14p)" "fixture" "$m: /proc is the target's: its pid 1 is the fixture"
	# Only the pid seen inside may differ between runs.
	norm=$(echo "$out" | sed '10d')
	if [ -z "$first" ]; then first=$norm; fi
	is "$norm" "$first" "$m: same result as $(echo $methods | cut -d' ' -f1)"
done

out=$("$HIJACK" --pid "$TARGET" --explain=json); rc=$?
is "$rc" 0 "--explain=json exits 0"
if command -v python3 >/dev/null; then
	echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["namespaces"]["net"]["enter"] is True' 2>/dev/null
	ok $? "--explain=json parses and marks net for entry"
else
	like "$out" '{"pid":*"net":{*"enter":true}*' "--explain=json marks net for entry"
fi
out=$("$HIJACK" --pid "$TARGET" --explain --no-ns=net,user)
like "$out" "*net *skip*" "--explain shows an excluded type as skipped"
out=$("$HIJACK" --pid "$TARGET" --ns=uts,net --root=keep --wd=keep -- /bin/sh -c "'$FIXTURE' --ns-id mnt; '$FIXTURE' --ns-id net; hostname")
is "$out" "$(nsid $$ mnt)
$(nsid "$TARGET" net)
hijack-ns-test" "--ns=uts,net enters only those: the mount namespace stays the caller's"

finish
