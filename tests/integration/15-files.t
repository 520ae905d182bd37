#!/bin/sh
# --read-file and --write-file: files in and out of containers with no
# program of theirs, by hijack's own child entered and confined as a
# command would be.  A distroless runc container (one static binary, no
# shell, no libc) and an LXC busybox container (under LXC's seccomp
# profile).  Contents and modes round-trip; errors are the container's and
# say so; a symlink planted to a host path resolves inside; a write killed
# midway leaves the old file whole.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
for tool in runc lxc-create busybox python3 pgrep cmp; do
	command -v "$tool" >/dev/null || skip_all "no $tool"
done
: "${DISTROLESS:=$(dirname "$FIXTURE")/distroless}"

plan 47

tmp=$(tmpdir)
n=hj15-$$
dl=$tmp/dl
root=$dl/rootfs
teardown() {
	distroless_down "$n" "$dl"
	lxc_down "$n-lxc"
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

distroless_up "$n" "$dl" "$DISTROLESS" || bail "distroless runc container"
P=$CT_PID
H() { "$HIJACK" --pid "$P" "$@"; }

head -c 3145728 /dev/urandom >"$tmp/payload"

# --- round trip ------------------------------------------------------------------
H --write-file=/data.bin <"$tmp/payload"
is $? 0 "write-file into a distroless container: exit 0"
cmp -s "$root/data.bin" "$tmp/payload"
ok $? "... the container's file holds exactly the input (3 MiB of random bytes)"
is "$(stat -c %a "$root/data.bin")" 644 "... a new file is 0644"
H --read-file=/data.bin >"$tmp/back"
is $? 0 "read-file: exit 0"
cmp -s "$tmp/back" "$tmp/payload"
ok $? "... the bytes come back unchanged"
"$HIJACK" "runc:$n" --read-file /data.bin | cmp -s - "$tmp/payload"
ok $? "by name: hijack runc:NAME --read-file PATH"

echo one | H --write-file=/m --mode=0600
is "$(stat -c %a "$root/m")" 600 "--mode=0600 gives 0600"
echo two | H --write-file=/m
is "$(stat -c %a "$root/m"):$(cat "$root/m")" "600:two" "without --mode a replaced file keeps its mode"
echo three | H --write-file=/m --mode=4755
is "$(stat -c %a "$root/m")" 4755 "--mode keeps set-id bits as given"
chown 1000:1000 "$root/m"
echo four | H --write-file=/m
is "$(stat -c %u:%g "$root/m")" 1000:1000 "a replaced file keeps its owner (the copier has CAP_CHOWN here)"
echo rel | H --write-file=rel.txt
is "$(cat "$root/rel.txt")" rel "a relative path starts at the target's working directory"
left=$(find "$root" -name '*.hijack-*' | wc -l)
is "$left" 0 "no temporary file is left behind"

head -c 67108864 /dev/urandom >"$tmp/big"
H --write-file=/big <"$tmp/big" && H --read-file=/big | cmp -s - "$tmp/big"
ok $? "64 MiB stream in and out unchanged"
rm -f "$tmp/big" "$root/big"

# --- errors: one line, exit 1, the old file unchanged ------------------------------
err=$(H --read-file=/nope 2>&1 >/dev/null); rc=$?
is "$rc:$err" "1:hijack: file: reading /nope: not in the container: No such file or directory" "ENOENT: exit 1, said"
err=$(H --read-file=/ 2>&1 >/dev/null); rc=$?
is "$rc:$err" "1:hijack: file: reading /: a directory in the container: Is a directory" "EISDIR on read"
err=$(echo x | H --write-file=/small 2>&1); rc=$?
is "$rc:$err" "1:hijack: file: writing /small: a directory in the container: Is a directory" "EISDIR on write"
err=$(echo x | H --write-file=/nodir/x 2>&1); rc=$?
is "$rc:$err" "1:hijack: file: writing /nodir/x: no directory /nodir in the container: No such file or directory" "ENOENT of the directory on write"
err=$(echo x | H --write-file=/sys/x 2>&1); rc=$?
is "$rc:$err" "1:hijack: file: writing /sys/x: the container mounts it read-only: Read-only file system" "EROFS: the container's read-only /sys"
echo old | H --write-file=/small/keep
err=$(head -c 200000 /dev/zero | H --write-file=/small/keep 2>&1); rc=$?
is "$rc:$err" "1:hijack: file: writing /small/keep: the container's filesystem is full; the old file is unchanged: No space left on device" "ENOSPC on the container's 64 KiB tmpfs"
is "$(H --read-file=/small/keep)" old "... the old file is whole"
is "$(ls -A "/proc/$P/root/small")" keep "... and the partial copy is gone (seen through /proc/PID/root)"
err=$(echo evil | H --user=1000 --group=1000 --write-file=/data.bin 2>&1); rc=$?
is "$rc:$err" "1:hijack: file: writing /data.bin as uid 1000 gid 1000 in the container (--user picks another): Permission denied" \
	"EACCES: a root file written as the container's uid 1000"
cmp -s "$root/data.bin" "$tmp/payload"
ok $? "... the file is unchanged"
echo secret >"$root/private" && chmod 600 "$root/private"
err=$(H --user=1000 --group=1000 --read-file=/private 2>&1 >/dev/null); rc=$?
is "$rc:$err" "1:hijack: file: reading /private as uid 1000 gid 1000 in the container (--user picks another): Permission denied" \
	"EACCES on read, as the container's uid 1000"
mkdir -m 755 "$root/home" && chown 1000:1000 "$root/home"
echo mine | H --user=1000 --group=1000 --write-file=/home/mine
is "$?:$(stat -c %u "$root/home/mine")" 0:1000 "uid 1000 writes in its own directory; the file is its"
err=$(echo x | H --user=1001 --group=1001 --write-file=/home/mine 2>&1); rc=$?
like "$rc:$err" "1:hijack: file: writing /home/mine as uid 1001 *Permission denied" "... and uid 1001 may not replace it"
err=$("$HIJACK" --pid 999999999 --read-file=/x 2>&1); rc=$?
is "$rc" 125 "hijack's own failure (no such target): 125"

# --- symlinks planted by the container ------------------------------------------
echo HOSTSECRET >"$tmp/secret"
ln -s "$tmp/secret" "$root/link"
ln -s "$tmp" "$root/dirlink"
out=$(H --read-file=/link 2>&1); rc=$?
like "$rc:$out" "1:hijack: file: reading /link: not in the container: *" \
	"read through a symlink to a host path: resolved inside, not found"
out=$(H --read-file=/dirlink/secret 2>&1); rc=$?
like "$rc:$out" "1:*" "read through a directory symlink to a host path: not found"
echo PWNED | H --write-file=/link 2>/dev/null
rc1=$?
echo PWNED | H --write-file=/dirlink/secret 2>/dev/null
rc2=$?
is "$rc1:$rc2:$(cat "$tmp/secret")" "1:1:HOSTSECRET" "writes through both symlinks fail; the host file is untouched"
echo inside >"$root/inside.txt"
ln -s /inside.txt "$root/alias"
is "$(H --read-file=/alias)" inside "a symlink inside the container is followed inside"
echo changed | H --write-file=/alias
is "$(readlink "$root/alias"):$(cat "$root/inside.txt")" "/inside.txt:changed" \
	"write through it replaces its target; the symlink stays"

# --- interrupted copies -----------------------------------------------------------
wait_temp() {
	_i=0
	while [ $_i -lt 200 ]; do
		[ -n "$(find "$root" -maxdepth 1 -name ".$1.hijack-*" 2>/dev/null)" ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}
# The input is a FIFO held open by this shell: the copy stalls midway.
mkfifo "$tmp/fifo"
echo old >"$root/atom"
"$HIJACK" --pid "$P" --write-file=/atom <"$tmp/fifo" &
hj=$!
exec 7>"$tmp/fifo"
head -c 1048576 /dev/zero >&7
wait_temp atom
ok $? "a write in progress fills a temporary file beside the target"
copier=$(pgrep -P "$hj")
[ -n "$copier" ] || bail "no copier under hijack"
kill -KILL "$copier" "$hj" 2>/dev/null
wait "$hj" 2>/dev/null
exec 7>&-
is "$(cat "$root/atom")" old "SIGKILL to the copier midway: the old file is whole"
rm -f "$root"/.atom.hijack-*
# signalled_copy SIG: a write stalled midway, hijack sent SIG; its status
# in $rc.
signalled_copy() {
	"$HIJACK" --pid "$P" --write-file=/atom <"$tmp/fifo" &
	hj=$!
	exec 7>"$tmp/fifo"
	head -c 1048576 /dev/zero >&7
	wait_temp atom
	kill -"$1" "$hj"
	wait "$hj"
	rc=$?
	exec 7>&-
}
signalled_copy TERM
is "$rc" 143 "SIGTERM to hijack midway: forwarded, exit 143"
is "$(cat "$root/atom"):$(find "$root" -name '.atom.hijack-*' | wc -l)" "old:0" \
	"... the old file is whole and the temporary file removed"
# SIGQUIT (Ctrl-\) is forwarded as well: the copier cleans up for it too.
signalled_copy QUIT
is "$rc:$(cat "$root/atom"):$(find "$root" -name '.atom.hijack-*' | wc -l)" "131:old:0" \
	"SIGQUIT to hijack midway: forwarded, exit 131, the old file whole, no temporary file"
rm -f "$root"/.atom.hijack-*

# A process of the container stops the copier midway: the entry ends 125,
# and the copier, told to end, removes its temporary file.
"$HIJACK" --pid "$P" --write-file=/atom <"$tmp/fifo" 2>"$tmp/stop.err" &
hj=$!
exec 7>"$tmp/fifo"
head -c 1048576 /dev/zero >&7
wait_temp atom
kill -STOP "$(pgrep -P "$hj")"
wait "$hj"
rc=$?
exec 7>&-
like "$rc:$(cat "$tmp/stop.err")" "125:hijack: wait: the copy's process was stopped*" \
	"the copier stopped by the container midway: 125, saying so"
is "$(cat "$root/atom"):$(find "$root" -name '.atom.hijack-*' | wc -l)" "old:0" \
	"... the old file is whole and the temporary file removed"

# hijack itself killed: the copy gets SIGHUP (PR_SET_PDEATHSIG) and gives up.
"$HIJACK" --pid "$P" --write-file=/atom <"$tmp/fifo" &
hj=$!
exec 7>"$tmp/fifo"
head -c 1048576 /dev/zero >&7
wait_temp atom
copier=$(pgrep -P "$hj")
kill -KILL "$hj"
wait "$hj" 2>/dev/null
i=0
while [ -n "$copier" ] && kill -0 "$copier" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
exec 7>&-
is "$(cat "$root/atom"):$(find "$root" -name '.atom.hijack-*' | wc -l)" "old:0" \
	"SIGKILL to hijack alone: the copy ends, the old file is whole, no temporary file"

# --- under a seccomp filter: the target's, installed before the copy -------------
make_rootfs "$tmp/fr" || bail "busybox root"
start_target --root "$tmp/fr" --deny-mkdir
like "$("$HIJACK" --pid "$TARGET" --explain)" "*filter*" "a fixture target with a seccomp filter"
echo filtered | "$HIJACK" --pid "$TARGET" --write-file=/tmp/f
is "$?:$("$HIJACK" --pid "$TARGET" --read-file=/tmp/f)" 0:filtered \
	"the copy works under the target's filter"
err=$("$HIJACK" --pid "$TARGET" -- busybox mkdir /tmp/d 2>&1)
like "$err" "*ermi*" "... which is in force (mkdir denied to a command)"
stop_target

# --- LXC ------------------------------------------------------------------------
if lxc_up "$n-lxc"; then
	"$HIJACK" "lxc:$n-lxc" --write-file=/root/p --mode=0640 <"$tmp/payload"
	is $? 0 "LXC (its seccomp profile in force): write-file exit 0"
	is "$("$HIJACK" "lxc:$n-lxc" -- stat -c %a /root/p)" 640 "... mode 0640 inside"
	"$HIJACK" "lxc:$n-lxc" --read-file=/root/p | cmp -s - "$tmp/payload"
	ok $? "... the bytes round-trip"
	"$HIJACK" "lxc:$n-lxc" -- sh -c 'adduser -D -u 1000 u 2>/dev/null; echo x > /root/q; chmod 600 /root/q'
	err=$("$HIJACK" "lxc:$n-lxc" --user=1000 --read-file=/root/q 2>&1); rc=$?
	like "$rc:$err" "1:hijack: file: reading /root/q as uid 1000 *Permission denied" \
		"... permission errors are those of the container's user"
else
	bail "LXC busybox container"
fi
finish
