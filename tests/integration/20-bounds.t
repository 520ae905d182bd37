#!/bin/sh
# What a container puts where hijack reads it is typed and bounded: each
# attack is made by root inside a real runc container (Docker's defaults:
# its capabilities, no no_new_privs), planted in its root as its own
# processes could.
#  - a process that points its /proc/PID/environ at 128 MiB of its memory
#    (PR_SET_MM_MAP, no capability needed): hijack refuses to read more
#    than an exec passes, at once, in little memory, with 125;
#  - --read-file of a path the container pointed at /dev/zero, at a FIFO,
#    at /proc/self/environ (the copier's own: the caller's environment),
#    at /proc/self/exe (a magic link to hijack's binary, the host's); of
#    a sparse 2 GiB file, of a file over --max-size, of one that grows
#    past it while being copied: each refused in one line with exit 1,
#    quickly, and with nothing written unless the copy had begun;
#  - --write-file over a FIFO and a device the container planted.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
for tool in runc python3 timeout mkfifo truncate; do
	command -v "$tool" >/dev/null || skip_all "no $tool"
done
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time (GNU time) to measure memory"
: "${DISTROLESS:=$(dirname "$FIXTURE")/distroless}"
: "${BIGENV:=$(dirname "$FIXTURE")/bigenv}"

plan 25

tmp=$(tmpdir)
n=hj20-$$
teardown() {
	distroless_down "$n" "$tmp/dl"
	distroless_down "$n-env" "$tmp/env"
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

# now_ms: milliseconds, for "quickly".
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# --- an inflated /proc/PID/environ ----------------------------------------------
distroless_up "$n-env" "$tmp/env" "$BIGENV" || bail "runc container running bigenv"
P=$CT_PID
i=0
while [ "$(head -c 7000000 "/proc/$P/environ" 2>/dev/null | wc -c)" -le 6291456 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ $i -lt 100 ] || bail "bigenv did not inflate its environ"
t0=$(now_ms)
/usr/bin/time -f %M -o "$tmp/rss" timeout 60 "$HIJACK" --pid "$P" --explain \
	>/dev/null 2>"$tmp/err"
rc=$?
ms=$(($(now_ms) - t0))
rss=$(tail -n 1 "$tmp/rss")
diag "an environ of 128 MiB: exit $rc in $ms ms, max RSS $rss KiB"
is "$rc:$(cat "$tmp/err")" \
	"125:hijack: environment: /proc/$P/environ is larger than 6 MiB (the most an exec passes): refused: File too large" \
	"a container's process with a 128 MiB environ: 125, naming the file and the bound"
ok "$([ "$ms" -lt 3000 ] && echo 0 || echo 1)" "... at once ($ms ms)"
# Under make check-asan (HIJACK_SANITIZED) the shadow memory and the
# allocator's quarantine add tens of MiB of their own (40 MiB seen): the
# bound there is 96 MiB, still less than the environ, which is the point.
rss_max=32
[ -z "${HIJACK_SANITIZED:-}" ] || rss_max=96
ok "$([ "$rss" -lt $((rss_max * 1024)) ] && echo 0 || echo 1)" "... in little memory ($rss KiB, less than $rss_max MiB)"
"$HIJACK" --pid "$P" --env=clear --explain >/dev/null
is $? 0 "--env=clear reads no environ: the same target is entered"

# --- --read-file: typed, bounded, never the copier's own -------------------------
distroless_up "$n" "$tmp/dl" "$DISTROLESS" || bail "distroless runc container"
P=$CT_PID
root=$tmp/dl/rootfs
H() { "$HIJACK" --pid "$P" "$@"; }

# read_try NAME HIJACK-ARGS...: run hijack (at most 10 s), counting what it
# writes to stdout without storing it; sets rc, bytes, err, ms.
read_try() {
	_name=$1
	shift
	t0=$(now_ms)
	bytes=$({ timeout 10 "$HIJACK" --pid "$P" "$@" 2>"$tmp/$_name.err"
		echo $? >"$tmp/$_name.rc"; } | wc -c)
	ms=$(($(now_ms) - t0))
	rc=$(cat "$tmp/$_name.rc")
	err=$(cat "$tmp/$_name.err")
}

ln -s /dev/zero "$root/zero"
read_try zero --read-file=/zero
is "$rc:$bytes:$err" \
	"1:0:hijack: file: reading /zero: a character device in the container, not a regular file (refused): Invalid argument" \
	"a path the container points at /dev/zero: refused, nothing written"
ok "$([ "$ms" -lt 3000 ] && echo 0 || echo 1)" "... at once ($ms ms)"

mkfifo "$root/fifo"
read_try fifo --read-file=/fifo
is "$rc:$bytes:$err" \
	"1:0:hijack: file: reading /fifo: a FIFO in the container, not a regular file (refused): Invalid argument" \
	"a FIFO with no writer: refused, not waited on"
ok "$([ "$ms" -lt 3000 ] && echo 0 || echo 1)" "... at once ($ms ms)"

# The copier has not exec'd: its environ is the caller's.
ln -s /proc/self/environ "$root/app.conf"
HJ_CALLER_SECRET=hostsecret-$$ read_try environ --read-file=/app.conf
is "$rc:$bytes" "1:0" "/proc/self/environ behind a symlink: refused, nothing written"
like "$err" "hijack: file: reading /app.conf: a /proc file, a process's state (the copier's own is hijack's), not a file (refused): *" \
	"... saying it is /proc"
HJ_CALLER_SECRET=hostsecret-$$ H --read-file=/proc/self/environ 2>/dev/null | tr '\0' '\n' >"$tmp/leak"
is "$(grep -c "hostsecret-$$" "$tmp/leak")" 0 "the caller's environment never comes out (/proc/self/environ named)"

# /proc/self/exe leads to hijack's binary on the host, through no name.
ln -s /proc/self/exe "$root/exe"
read_try exe --read-file=/exe
is "$rc:$bytes" "1:0" "/proc/self/exe (a magic link to the host's hijack) behind a symlink: refused"
like "$err" "hijack: file: reading /exe: a symlink loop, or a /proc link to a process's files (refused): *" \
	"... as a magic link"
read_try fd --read-file=/proc/self/fd/0 </etc/hostname
is "$rc:$bytes" "1:0" "/proc/self/fd/0, the caller's stdin: refused"

truncate -s 2G "$root/sparse"
read_try sparse --read-file=/sparse
is "$rc:$bytes:$err" \
	"1:0:hijack: file: reading /sparse: 2 GiB, more than the bound of 1 GiB (--max-size): File too large" \
	"a sparse 2 GiB file: over the default bound of 1 GiB, refused before a byte"
ok "$([ "$ms" -lt 3000 ] && echo 0 || echo 1)" "... at once ($ms ms)"
rm -f "$root/sparse"

head -c 3145728 /dev/urandom >"$tmp/payload"
cp "$tmp/payload" "$root/payload"
read_try max --read-file=/payload --max-size=1M
is "$rc:$bytes:$err" \
	"1:0:hijack: file: reading /payload: 3 MiB, more than the bound of 1 MiB (--max-size): File too large" \
	"--max-size=1M: a 3 MiB file is refused"
H --read-file=/payload --max-size=3MiB | cmp -s - "$tmp/payload"
ok $? "--max-size=3MiB: a file of exactly the bound is copied whole"

# A file that grows past the bound while it is copied: the copier is held
# by a full pipe, the file grows, the pipe is drained.
head -c 921600 /dev/urandom >"$root/grow"
mkfifo "$tmp/out"
H --read-file=/grow --max-size=1M >"$tmp/out" 2>"$tmp/grow.err" &
hj=$!
exec 8<"$tmp/out"
i=0
while [ $i -lt 100 ]; do
	copier=$(pgrep -P "$hj")
	[ -n "$copier" ] && [ "$(cat "/proc/$copier/wchan" 2>/dev/null)" = pipe_write ] && break
	sleep 0.05
	i=$((i + 1))
done
head -c 1048576 /dev/urandom >>"$root/grow"
got=$(wc -c <&8)
wait "$hj"
rc=$?
exec 8<&-
is "$rc:$(cat "$tmp/grow.err")" \
	"1:hijack: file: reading /grow: it grew past the bound of 1 MiB (--max-size) while being copied; the output is incomplete: File too large" \
	"a file that grows past --max-size during the copy: an error, not a silent cut"
ok "$([ "$got" -le 1048576 ] && echo 0 || echo 1)" "... no more than the bound was written ($got bytes)"

err=$(H --read-file=/payload --max-size=lots 2>&1)
is "$?:$err" "125:hijack: invalid --max-size 'lots': a size in bytes, or with K, M, G or T (KiB, ...)
Try 'hijack --help' for more information." "--max-size takes a size"
err=$(echo x | H --write-file=/x --max-size=1M 2>&1)
is "$?:$(echo "$err" | head -n 1)" "125:hijack: --max-size goes with --read-file" "... for --read-file only"

# --- --write-file: the old file must be a regular file -------------------------
mkfifo "$root/wfifo"
err=$(echo x | timeout 10 "$HIJACK" --pid "$P" --write-file=/wfifo 2>&1)
is "$?:$err" "1:hijack: file: writing /wfifo: not a regular file in the container: Invalid argument" \
	"--write-file over a FIFO the container planted: refused"
ln -s /dev/null "$root/wnull"
err=$(echo x | timeout 10 "$HIJACK" --pid "$P" --write-file=/wnull 2>&1)
is "$?:$err" "1:hijack: file: writing /dev/null: not a regular file in the container: Invalid argument" \
	"--write-file through a symlink to a device: refused"
is "$(find "$root" -name '*.hijack-*' | wc -l)" 0 "no temporary file is left behind"
finish
