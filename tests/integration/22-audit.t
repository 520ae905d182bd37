#!/bin/sh
# The records of each entry (hijack(1), AUDIT), read back from a real
# systemd-journald, a real rsyslogd and a real auditd that this test
# starts itself: a command, an interactive session on a pty, --tools and
# file copies, into a runc and an LXC container and a plain target; a
# failed entry; the policy file; and the attacks: names and arguments with
# newlines and control characters, megabytes of arguments, a journal whose
# socket is full, no destination at all.
#
# Everything runs in a private mount namespace, so that the journal's
# sockets under /run/systemd/journal, /dev/log and /etc/hijack are this
# test's alone and the host's (if any) are not disturbed.  /dev/log and
# /etc/hijack must exist to be mounted over: when the host has neither,
# an empty file and an empty directory stand there while the test runs.

if [ -z "${HIJACK_AUDIT_PRIVATE:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root (journald, mounts, containers): run as root"
		exit 77
	fi
	made_log=""
	if [ ! -e /dev/log ] && [ ! -L /dev/log ]; then
		: >/dev/log && made_log=1
	fi
	# Made once and left: removing it would take the tmpfs that another
	# test running beside this one mounted on it in its own namespace
	# (a mountpoint deleted anywhere is unmounted everywhere).
	[ -d /etc/hijack ] || mkdir -m 755 /etc/hijack
	HIJACK_AUDIT_PRIVATE=1 unshare -m --propagation private "$0" "$@"
	rc=$?
	[ -z "$made_log" ] || rm -f /dev/log
	exit $rc
fi

. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"
need_program "$PTYDRIVE"
. "$TESTDIR/journal.sh"
[ -x "$journald" ] || skip_all "no $journald (Debian: systemd; tests/deps.sh test)"
require_tools journalctl rsyslogd jq runc lxc-start busybox python3

plan 77

tmp=$(tmpdir)
n=hj22-$$

rs_pid="" au_pid="" au_was="" au_bl="" au_bw="" fl_pid=""
teardown() {
	[ -z "$jd_pid" ] || { kill "$jd_pid"; wait "$jd_pid"; } 2>/dev/null
	[ -z "$rs_pid" ] || { kill "$rs_pid"; wait "$rs_pid"; } 2>/dev/null
	if [ -n "$au_pid" ]; then
		[ -z "$fl_pid" ] || kill "$fl_pid" 2>/dev/null
		kill -CONT "$au_pid" 2>/dev/null
		[ -z "$au_bl" ] || auditctl -b "$au_bl" --backlog_wait_time "$au_bw" >/dev/null 2>&1
		kill "$au_pid" 2>/dev/null
		wait "$au_pid" 2>/dev/null
		[ "$au_was" = 1 ] || auditctl -e 0 >/dev/null 2>&1
	fi
	runc_down "$n" "$tmp/runc"
	lxc_down "$n"
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

mount -t tmpfs -o mode=755 tmpfs /run/systemd || bail "tmpfs on /run/systemd"
mkdir -p /run/systemd/journal /run/log
mount -t tmpfs -o mode=755 tmpfs /run/log || bail "tmpfs on /run/log"
# journald writes here instead when it exists and is flushed to: keep it ours.
[ ! -d /var/log/journal ] || mount -t tmpfs tmpfs /var/log/journal
mount -t tmpfs -o mode=755 tmpfs /etc/hijack || bail "tmpfs on /etc/hijack"

journald_up
start_target
T=$TARGET

# --- a command, with arguments that would forge a line or a field ----------
evil=$(printf 'a\nb\033[31m"]\\ c')
"$HIJACK" --pid "$T" --no-pty --reason "$(printf 'night\nfix')" \
	--setenv SECRET=hunter2 -- sh -c 'exit 3' "$evil" >/dev/null 2>"$tmp/err"
is "$?" 3 "a command: its status passes through with auditing on"
is "$(cat "$tmp/err")" "" "nothing said on stderr"
s=$(last $START)
like "$s" "????????????????????????????????" "a start record with a 128-bit session id"
is "$(field "$s" $END HIJACK_SESSION)" "$s" "the end record has the same session"
is "$(field "$s" $START HIJACK_ARGV)" 'sh -c exit\x203 a\x0ab\x1b[31m\x22\x5d\\\x20c' \
	"argv escaped: newline, ESC, quote, bracket, backslash, spaces inside a word"
is "$(field "$s" $START HIJACK_ARGC)" 4 "argc"
is "$(field "$s" $START HIJACK_REASON)" 'night\x0afix' "--reason recorded, its newline escaped"
is "$(field "$s" $START HIJACK_SETENV_NAMES)" SECRET "--setenv: the name is recorded"
rec | grep -q hunter2
is "$?" 1 "--setenv: the value is in no record, nor in journald's _CMDLINE"
like "$(field "$s" $START _CMDLINE)" "*SECRET=\*\*\*\*\*\*\**" "where it shows as asterisks"
is "$(field "$s" $END HIJACK_EXIT_STATUS)" 3 "end: exit status"
like "$(field "$s" $END HIJACK_DURATION_USEC)" "[0-9]*[0-9]" "end: duration in microseconds"
is "$(field "$s" $START HIJACK_TARGET)" "pid:$T" "target as given"
is "$(field "$s" $START HIJACK_TARGET_PID)" "$T" "target pid"
is "$(field "$s" $START HIJACK_NS_MNT)" "$(stat -L -c %i /proc/$T/ns/mnt)" "the target's mnt namespace inode"
is "$(field "$s" $START HIJACK_NS_NET)" "$(stat -L -c %i /proc/$T/ns/net)" "the target's net namespace inode"
like "$(field "$s" $START HIJACK_NS_ENTERED)" "*mnt*" "the namespaces entered"
like "$(field "$s" $START HIJACK_PIDFD_INO)" "[1-9]*" "the pidfd's inode"
is "$(field "$s" $START HIJACK_CALLER_UID)" 0 "caller uid"
like "$(field "$s" $START HIJACK_CALLER_LOGINUID)" "[0-9]*" "caller login uid"
is "$(field "$s" $START HIJACK_CALLER_PID)" "$$" "caller pid: the process that ran hijack"
is "$(field "$s" $START HIJACK_MODE)" command "mode: command"
is "$(field "$s" $START HIJACK_KEPT)" none "nothing of the confinement kept by default"
is "$(field "$s" $START _UID)" 0 "journald's own _UID beside it"

"$HIJACK" --pid "$T" --no-pty --caps keep --cgroups keep -- true
s=$(last $START)
is "$(field "$s" $START HIJACK_KEPT)" caps,cgroups "--caps=keep --cgroups=keep: recorded as kept"

# The catalog from the source tree, as make install puts it, in a catalog
# directory and database of this namespace's own.
catalog=$TESTDIR/../../catalog/hijack.catalog
if [ -d /usr/lib/systemd/catalog ] && [ -d /var/lib/systemd/catalog ] && [ -r "$catalog" ]; then
	mkdir -p "$tmp/catalog"
	cp "$catalog" "$tmp/catalog/"
	mount --bind "$tmp/catalog" /usr/lib/systemd/catalog
	mount -t tmpfs tmpfs /var/lib/systemd/catalog
	journalctl --update-catalog >/dev/null 2>&1
	journalctl -D /run/log/journal --no-pager -x MESSAGE_ID=$START -n 1 >"$tmp/x" 2>&1
	grep -q "Entry into container pid:$T started" "$tmp/x"
	ok $? "journalctl -x explains the record from the catalog"
else
	skip "journalctl -x" "no systemd catalog directories here"
fi

# --- an interactive session on a new terminal --------------------------------
"$PTYDRIVE" -e '#' -s 'exit 5\n' -- "$HIJACK" --pid "$T" -- sh -i >"$tmp/pty" 2>&1
grep -q "ptydrive: exit 5" "$tmp/pty"
ok $? "an interactive session on a terminal ends with its status"
s=$(last $START)
is "$(field "$s" $START HIJACK_MODE)" pty "mode: pty"
like "$(field "$s" $START HIJACK_CALLER_TTY)" "/dev/pts/*" "the caller's terminal"
is "$(field "$s" $END HIJACK_EXIT_STATUS)" 5 "pty session: end record with exit 5"

# --- an unprivileged caller: its records say who it is ------------------------
if command -v setpriv >/dev/null; then
	setpriv --reuid 65534 --regid 65534 --clear-groups "$HIJACK" --pid "$T" --no-pty -- true 2>/dev/null
	r=$(rec MESSAGE_ID=$FAILED | tail -n 1)
	is "$(printf "%s\n" "$r" | jq -r '.HIJACK_CALLER_UID + "/" + ._UID')" 65534/65534 \
		"an unprivileged caller's refused entry: its own uid, which journald vouches for"
else
	skip "unprivileged caller" "no setpriv"
fi

# --- a 125 failure, with a name that would forge a line ------------------------
"$HIJACK" "$(printf 'no\nsuch\033]0;x\007')" true 2>/dev/null
is "$?" 125 "no such container: 125"
r=$(rec MESSAGE_ID=$FAILED | tail -n 1)
is "$(printf "%s\n" "$r" | jq -r .HIJACK_TARGET)" 'no\x0asuch\x1b\x5d0;x\x07' "the name escaped in the failed record"
like "$(printf "%s\n" "$r" | jq -r .HIJACK_ERROR)" "target:*" "the reason of the failure"
is "$(printf "%s\n" "$r" | jq -r .HIJACK_EXIT_STATUS)" 125 "exit status 125"

# --- megabytes of arguments: a bounded record -----------------------------------
big=$(head -c 120000 /dev/zero | tr '\0' 'x')
"$HIJACK" --pid "$T" --no-pty -- true "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big" \
	"$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big"
is "$?" 0 "16 arguments of 120000 bytes: the entry runs"
s=$(last $START)
v=$(field "$s" $START HIJACK_ARGV)
[ ${#v} -gt 4000 ] && [ ${#v} -le 4064 ]
ok $? "argv bounded to 4064 bytes (${#v})"
is "$(field "$s" $START HIJACK_ARGV_TRUNCATED)" 1 "argv_truncated=1"
is "$(field "$s" $START HIJACK_ARGV_BYTES)" $((4 + 16 * 120001)) "argv_bytes: the full length"
is "$(field "$s" $START HIJACK_ARGC)" 17 "argc: every argument counted"

# --- runc: a command, --tools, and file copies ------------------------------------
runc_up "$n" "$tmp/runc" || bail "runc container"
"$HIJACK" "runc:$n" --no-pty -- hostname >/dev/null
s=$(last $START)
is "$(field "$s" $START HIJACK_ENGINE)/$(field "$s" $START HIJACK_CONTAINER_NAME)" "runc/$n" \
	"runc: engine and container name"
is "$(field "$s" $START HIJACK_TARGET_PID)" "$CT_PID" "runc: the container's init"
"$HIJACK" --tools "runc:$n" -- true
s=$(last $START)
is "$(field "$s" $START HIJACK_MODE)" tools "--tools: mode tools"
is "$(field "$s" $END HIJACK_EXIT_STATUS)" 0 "--tools: end record"
# runc's root is read-only; its /dev/shm is a tmpfs.
printf 'hello audit\n' | "$HIJACK" "runc:$n" --write-file /dev/shm/a.txt
s=$(last $START)
is "$(field "$s" $START HIJACK_MODE):$(field "$s" $START HIJACK_PATH):$(field "$s" $END HIJACK_EXIT_STATUS)" \
	write-file:/dev/shm/a.txt:0 "--write-file: mode, path, end status"
"$HIJACK" "runc:$n" --read-file /dev/shm/a.txt >/dev/null
s=$(last $START)
is "$(field "$s" $START HIJACK_MODE):$(field "$s" $END HIJACK_EXIT_STATUS)" read-file:0 \
	"--read-file: mode and end status"

# --- LXC -----------------------------------------------------------------------------
if lxc_up "$n"; then
	"$HIJACK" "lxc:$n" --no-pty -- true
	s=$(last $START)
	is "$(field "$s" $START HIJACK_ENGINE)/$(field "$s" $START HIJACK_CONTAINER_NAME)" "lxc/$n" \
		"LXC: engine and container name"
	is "$(field "$s" $START HIJACK_TARGET_PID)" "$CT_PID" "LXC: the container's init"
else
	bail "LXC container"
fi

# --- the policy file -----------------------------------------------------------------
conf=/etc/hijack/hijack.conf
printf 'require-reason = yes\n' >$conf
chmod 644 $conf
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
is "$?" 125 "require-reason = yes: an entry without --reason is refused"
like "$(cat "$tmp/err")" "*requires a --reason*" "and says why"
is "$(rec MESSAGE_ID=$FAILED | tail -n 1 | jq -r .HIJACK_ERROR)" \
	'refused: no --reason, which the policy requires' "the refusal is recorded"
"$HIJACK" --pid "$T" --no-pty --reason "ticket 42" -- true
is "$?" 0 "with --reason it runs"

chmod 664 $conf
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
is "$?" 0 "a group-writable policy file is ignored"
is "$(grep -c . "$tmp/err")" 1 "with a one-line warning"
like "$(cat "$tmp/err")" "hijack: warning: $conf: ignored: *root*" "that says why"
chmod 644 $conf
chown nobody $conf
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
is "$?:$(grep -c ignored "$tmp/err")" "0:1" "a policy file owned by another user: ignored, warned"
chown root $conf

printf 'audit = off\n' >$conf
before=$(rec | wc -l)
"$HIJACK" --pid "$T" --no-pty -- true
is "$(rec | wc -l)" "$before" "audit = off: no record"

# --- no destination; a journal whose socket is full ------------------------------------
journald_down
printf 'on-audit-failure = refuse\n' >$conf
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
is "$?" 125 "on-audit-failure = refuse and no destination: refused"
like "$(cat "$tmp/err")" "*no destination took the start record*" "and says why"
printf '# the defaults\n' >$conf
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
is "$?" 0 "warn (the default) and no destination runs: the entry runs"
is "$(cat "$tmp/err")" "" "without a word: a machine without any log daemon keeps no logs"

# A socket where journald's is, that nobody reads, its queue filled.
python3 - "$tmp/stuck.ready" <<'EOF' &
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind('/run/systemd/journal/socket')
w = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
w.setblocking(False)
try:
    while True:
        w.sendto(b'x' * 64, '/run/systemd/journal/socket')
except BlockingIOError:
    pass
open(sys.argv[1], 'w').close()
time.sleep(60)
EOF
stuck=$!
_pids="$_pids $stuck"
i=0
while [ ! -e "$tmp/stuck.ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s%N)
"$HIJACK" --pid "$T" --no-pty -- true 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
is "$rc" 0 "a journal socket that is full: the entry still runs"
like "$(cat "$tmp/err")" "hijack: warning: audit: no destination took the start record (journal: Connection timed out*" \
	"with a warning: the journal send timed out"
diag "entry with a full journal socket: $ms ms (one 250 ms wait: the end record is not tried after a start record nobody took)"
[ "$ms" -lt 5000 ]
ok $? "and did not hang ($ms ms)"
kill $stuck 2>/dev/null
wait $stuck 2>/dev/null
rm -f /run/systemd/journal/socket

# A /dev/log that is a plain file (this test's own stand-in, say) is no
# syslog: a user who may not write it gets no warning about it.
: >"$tmp/notsock"
mount --bind "$tmp/notsock" /dev/log || bail "bind over /dev/log"
"$FIXTURE" --run-as 1000 -- "$HIJACK" nosuch-hj22 true >"$tmp/err" 2>&1
is "$(grep -c 'no destination took' "$tmp/err")" 0 \
	"a plain file at /dev/log, no journal: no syslog there, and no warning (uid 1000)"
umount /dev/log

# --- syslog: RFC 5424 to a real rsyslogd on a private /dev/log ----------------------
mkdir -p "$tmp/rs"
cat >"$tmp/rs/rsyslog.conf" <<EOF
global(workDirectory="$tmp/rs")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$tmp/rs/log.sock" UseSpecialParser="off" ParseHostname="on")
template(name="raw" type="string" string="%msgid% %structured-data% %msg%\n")
*.* action(type="omfile" file="$tmp/rs/messages" template="raw")
EOF
rsyslogd -n -f "$tmp/rs/rsyslog.conf" -i "$tmp/rs/pid" >"$tmp/rs/out" 2>&1 &
rs_pid=$!
i=0
while [ ! -S "$tmp/rs/log.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount --bind "$tmp/rs/log.sock" /dev/log || bail "bind over /dev/log"
"$HIJACK" --pid "$T" --no-pty --reason 'x"] y' -- sh -c 'exit 0' "$(printf 'a\nstart [hijack@32473 event="end"]')"
is "$?" 0 "syslog: the entry runs"
"$HIJACK" "$(printf 'evil\nend [x]')" true 2>/dev/null
# rsyslogd writes when it gets to it: three lines waited for, then a
# moment for a forged fourth.
i=0
while [ "$(wc -l <"$tmp/rs/messages" 2>/dev/null || echo 0)" -lt 3 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
is "$(wc -l <"$tmp/rs/messages")" 3 "three records, three lines: nothing forged a line"
like "$(sed -n 1p "$tmp/rs/messages")" 'start \[hijack@32473 event="start" session="*"*argv="sh -c exit\\\\x200 a\\\\x0astart\\\\x20\[hijack@32473\\\\x20event=\\\\x22end\\\\x22\\\\x5d"*reason="x\\\\x22\\\\x5d y"*' \
	"the start record: argv and reason escaped inside the structured data"
like "$(sed -n 2p "$tmp/rs/messages")" 'end \[hijack@32473 event="end" *exit_status="0"*' "the end record"
like "$(sed -n 3p "$tmp/rs/messages")" 'failed \[hijack@32473 event="failed" *target="evil\\\\x0aend\\\\x20\[x\\\\x5d"*' \
	"the failed record: the name escaped"
umount /dev/log

# A stuck audit log: auditd stopped, a backlog of 4 and a backlog wait
# of 5 s of the default 60 (in jiffies, whatever HZ is), filled by a
# flood; true once the kernel held a sender.  A daemon the kernel gave up
# on (it does, after a stuck while) is started again first.
stuck_begin() {
	if [ "$(auditctl -s | sed -n 's/^pid //p')" = 0 ]; then
		kill "$au_pid" 2>/dev/null
		wait "$au_pid" 2>/dev/null
		auditd -n -c "$tmp/au" >>"$tmp/au/out" 2>&1 &
		au_pid=$!
		i=0
		while [ "$(auditctl -s | sed -n 's/^pid //p')" = 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	kill -STOP "$au_pid"
	auditctl -b 4 --backlog_wait_time $((au_bw / 12 > 0 ? au_bw / 12 : 1)) >/dev/null
	: >"$tmp/au/flood"
	timeout 120 python3 "$TESTDIR/audit-flood.py" >"$tmp/au/flood" 2>&1 &
	fl_pid=$!
	i=0
	while [ ! -s "$tmp/au/flood" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	full=$(head -n 1 "$tmp/au/flood")
	[ "$full" = full ]
}
stuck_end() {
	kill "$fl_pid" 2>/dev/null
	kill -CONT "$au_pid"
	wait "$fl_pid" 2>/dev/null
	fl_pid=""
	sleep 0.5
	auditctl -b "$au_bl" --backlog_wait_time "$au_bw" >/dev/null
}
# Two checks of a stuck episode that could not be judged, and why.
skip2() {
	skip "kernel audit, stuck" "$1"
	skip "kernel audit, stuck" "as above"
}
# stuck_judge SCENARIO: run the function SCENARIO in a stuck episode of
# its own; it sets $verdict (0 for as it should be) and $what.  Judged
# only when a plain sender was still held after it.
stuck_judge() {
	if ! stuck_begin; then
		skip2 "the kernel never held a sender with its backlog over the limit (flood: ${full:-no answer in 60 s})"
	else
		"$1"
		if probe_held; then
			ok "$verdict" "kernel audit, stuck: $what"
			ok 0 "kernel audit, stuck: the kernel held a plain sender (auditctl -m) $probe ms meanwhile"
		else
			skip2 "the kernel let its senders go during the check (a plain sender waited $probe ms)"
		fi
	fi
	stuck_end
}
# An entry and its output, read to the end as a caller's $(...) does: a
# sender the kernel holds must hold none of hijack's files.  The bound:
# 500 ms for the sender, 100 more for it to go.
stuck_output() {
	t0=$(date +%s%N)
	out=$("$HIJACK" --pid "$T" --no-pty -- echo hj22-out 2>"$tmp/au/err")
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$out" = hj22-out ] || rc="$rc, output '$out'"
	[ "$rc" = 0 ] && [ "$ms" -lt $((plain + 1000)) ]
	verdict=$?
	what="the entry and its output took $ms ms, $plain ms unstuck (bound: 600 ms more; status $rc: $(head -c 300 "$tmp/au/err"))"
}
# SIGTERM while the start record waits for the kernel: held, then the
# entry ends before the command starts, and says so.
stuck_sigterm() {
	rm -f "$tmp/au/ran"
	"$HIJACK" --pid "$T" --no-pty -- touch "$tmp/au/ran" 2>"$tmp/au/err" &
	hj=$!
	sleep 0.2
	kill -TERM "$hj"
	wait "$hj"
	rc=$?
	[ "$rc" = 143 ] && [ ! -e "$tmp/au/ran" ] &&
		grep -q "^hijack: Terminated before the command started" "$tmp/au/err"
	verdict=$?
	what="SIGTERM during the start record ends the entry before the command, 143, said (status $rc: $(head -c 300 "$tmp/au/err"))"
}
# The USER_CMD record matching $1, waited for up to 10 s, into $2.
au_find() {
	i=0
	while ! grep "type=USER_CMD.*$1" "$tmp/au/audit.log" >"$2" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# Still stuck? A plain sender held for a second says so ($probe ms).
probe_held() {
	t0=$(date +%s%N)
	auditctl -m "hj22 probe" >/dev/null 2>&1
	probe=$((($(date +%s%N) - t0) / 1000000))
	[ "$probe" -ge 1000 ]
}

# --- the kernel's audit log, through a real auditd ------------------------------------
# Its seven checks skipped, and why.
skip_kernel() {
	for i in 1 2 3 4 5 6 7; do
		skip "kernel audit" "$1"
	done
}
if ! command -v auditd >/dev/null || ! command -v auditctl >/dev/null; then
	skip_kernel "auditd is not installed (tests/deps.sh test)"
elif ! st=$(auditctl -s 2>&1); then
	skip_kernel "this kernel has no audit support (auditctl -s: $(echo "$st" | head -n 1))"
elif [ "$(echo "$st" | sed -n 's/^pid //p')" != 0 ]; then
	skip_kernel "an audit daemon already runs (pid $(echo "$st" | sed -n 's/^pid //p')): not disturbing it"
else
	au_was=$(echo "$st" | sed -n 's/^enabled //p')
	mkdir -p "$tmp/au"
	cat >"$tmp/au/auditd.conf" <<EOF
log_file = $tmp/au/audit.log
log_format = RAW
flush = INCREMENTAL_ASYNC
freq = 1
space_left = 2
admin_space_left = 1
space_left_action = IGNORE
admin_space_left_action = IGNORE
disk_full_action = IGNORE
disk_error_action = IGNORE
EOF
	chmod 640 "$tmp/au/auditd.conf"
	auditd -n -c "$tmp/au" >"$tmp/au/out" 2>&1 &
	au_pid=$!
	i=0
	while [ "$(auditctl -s | sed -n 's/^pid //p')" = 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	auditctl -e 1 >/dev/null
	# Other tests' entries write to the same log meanwhile: each record
	# is found by what only this entry carries, and waited for, since
	# auditd writes it when it gets to it.
	"$HIJACK" --pid "$T" --no-pty --reason hj22-kernel-audit -- true "a b"
	au_find "op=hijack-start hijack_pid=[0-9]* .*reason=\"hj22-kernel-audit\"" "$tmp/au/start"
	grep -q "type=USER_CMD.*op=hijack-start hijack_pid=[0-9]* .*target=\"pid:$T\".*entry_mode=\"command\".*reason=" "$tmp/au/start"
	rc=$?
	ok $rc "kernel audit: a USER_CMD record with op=hijack-start, hijack's pid, entry_mode (not ausearch's mode)"
	[ $rc = 0 ] || diag "the record: $(head -c 600 "$tmp/au/start")"
	# A command padded past the kernel record's 1024 bytes a value: cut,
	# and said so beside it.
	"$HIJACK" --pid "$T" --no-pty --reason hj22-long -- true $(seq 400) hj22-tail
	au_find "op=hijack-start hijack_pid=[0-9]* .*reason=\"hj22-long\"" "$tmp/au/long"
	grep -q ' argv=[0-9A-F]* argv_cut="yes" ' "$tmp/au/long" &&
		! grep -q "$(printf hj22-tail | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" "$tmp/au/long"
	rc=$?
	ok $rc "kernel audit: a command line past 1024 bytes is cut, with argv_cut=\"yes\" beside it"
	[ $rc = 0 ] || diag "the record: $(head -c 600 "$tmp/au/long")"
	# Whether a daemon runs is asked once an entry, by the start record's
	# sender (the kernel starts a thread to answer each question), and the
	# end record goes where the start went: one AUDIT_GET (0x3e8), two
	# USER_CMD (0x463).
	strace -f -qq -e trace=sendto -o "$tmp/au/once.st" \
		"$HIJACK" --pid "$T" --no-pty --reason hj22-once -- true
	au_find "op=hijack-end hijack_pid=[0-9]* .*reason=\"hj22-once\"" "$tmp/au/once"
	gets=$(grep -c 'nlmsg_type=0x3e8 ' "$tmp/au/once.st")
	cmds=$(grep -c 'nlmsg_type=0x463 ' "$tmp/au/once.st")
	[ -s "$tmp/au/once" ] && [ "$gets" = 1 ] && [ "$cmds" = 2 ]
	rc=$?
	ok $rc "kernel audit: the end record is written too, and an entry asks the kernel once ($gets questions, $cmds records)"
	[ $rc = 0 ] || diag "sendto: $(grep -o 'nlmsg_type=[^,]*' "$tmp/au/once.st" | tr '\n' ' ')"

	# The daemon stops reading and the backlog fills: the kernel then
	# holds every sender of an audit message for its backlog wait time,
	# in a sleep no signal ends.  The entry must not wait for it.  That
	# holds every process on the machine that writes to the audit log,
	# and so every other test's hijack: only when asked, alone
	# (make check-audit-stuck).
	if [ -z "${HIJACK_AUDIT_STUCK:-}" ]; then
		for i in 1 2 3 4; do
			skip "kernel audit, stuck" "it stops auditd and fills the kernel's backlog, which holds every process on the machine that writes to the audit log: make check-audit-stuck runs it alone"
		done
	else
		au_bl=$(echo "$st" | sed -n 's/^backlog_limit //p')
		au_bw=$(echo "$st" | sed -n 's/^backlog_wait_time //p')
		t0=$(date +%s%N)
		"$HIJACK" --pid "$T" --no-pty -- true
		plain=$((($(date +%s%N) - t0) / 1000000))

		stuck_judge stuck_output
		stuck_judge stuck_sigterm
	fi
fi

finish
