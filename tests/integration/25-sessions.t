#!/bin/sh
# Live sessions (hijack(1), AUDIT, "Live sessions"): hijack --sessions lists
# a command, a session on a real terminal (ptydrive), --tools and a file
# copy, each into an LXC, a runc, a Docker and a Podman container, checked
# as a table and as JSON; hijack --end-session ends each (SIGHUP, the
# command sees it, hijack exits 129) and both its record and the ended
# entry's end record are read back from a real systemd-journald.  Then the
# attacks, against a plain target: a SIGKILLed hijack, a reused pid (a
# planted file whose pid lives but is another process), a command that
# ignores SIGHUP, a stopped hijack, hostile command lines, planted files
# (symlinks, another owner, loose modes, hard links, FIFOs, oversize,
# malformed, raw control characters, another pid namespace, thousands of
# files), a session directory that is a symlink, not root's or writable by
# others, bad ids, and an unprivileged user, who can neither list nor end
# sessions, nor read, plant or signal anything.
#
# The containers and their daemons are started first, in the host's mount
# namespace (the daemons are shared with the other tests of a parallel
# make check); the test itself then runs in a private mount namespace with
# tmpfs on /run/hijack (the sessions it sees are its own), /run/systemd
# and /run/log (its own journald), as 22-audit.t does.

if [ -z "${HIJACK_SESSIONS_PRIVATE:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root (sessions are root's; mounts, journald, containers): run as root"
		exit 77
	fi
	. "${TESTDIR:-$(dirname "$0")}/lib.sh"
	. "$TESTDIR/containers.sh"
	require_tools lxc-create runc containerd dockerd docker podman busybox python3 jq journalctl setpriv
	tmp=$(tmpdir)
	n=hj25-$$
	img=hijack-test-bb25:$$
	made_run=""
	outer_down() {
		docker_down "$n-docker"
		podman_down "$n-podman"
		runc_down "$n-runc" "$tmp/runc"
		lxc_down "$n-lxc"
		docker rmi -f "$img" >/dev/null 2>&1
		podman rmi -f "localhost/$img" >/dev/null 2>&1
		docker_daemon_down
		containerd_daemon_down
		[ -z "$made_run" ] || rmdir /run/hijack 2>/dev/null
	}
	trap 'outer_down; cleanup' EXIT
	bail() { echo "Bail out! $*"; exit 1; }
	bb_rootfs "$tmp/rootfs" || bail "no busybox root"
	tar -C "$tmp/rootfs" -cf "$tmp/rootfs.tar" . || bail "tar"
	containerd_daemon_up "$tmp" || bail "containerd did not start"
	docker_daemon_up "$tmp" || bail "dockerd did not start"
	docker import "$tmp/rootfs.tar" "$img" >/dev/null || bail "docker import"
	podman import "$tmp/rootfs.tar" "$img" >/dev/null 2>&1 || bail "podman import"
	# --tools refuses a container that may ptrace, or that holds both of
	# the capabilities that mark its command (LXC keeps all three).
	LXC_EXTRA_CONFIG="lxc.cap.drop = sys_ptrace wake_alarm block_suspend" \
		lxc_up "$n-lxc" || bail "LXC container"
	runc_up "$n-runc" "$tmp/runc" || bail "runc container"
	docker_up "$n-docker" "$img" || bail "docker container"
	podman_up "$n-podman" "localhost/$img" || bail "podman container"
	# The tmpfs of the private namespace needs a directory to go on.
	if [ ! -d /run/hijack ]; then
		mkdir -m 755 /run/hijack && made_run=1
	fi
	HJ25_NAME=$n HIJACK_SESSIONS_PRIVATE=1 unshare -m --propagation private "$0" "$@"
	exit $?
fi

. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"
need_program "$PTYDRIVE"
. "$TESTDIR/journal.sh"
[ -x "$journald" ] || skip_all "no $journald (Debian: systemd; tests/deps.sh test)"

plan 168

tmp=$(tmpdir)
n=$HJ25_NAME
D=/run/hijack/sessions
# The end-session records (catalog/hijack.catalog).
ENDSESS=5a5ac10585a24c60aa29978e854d9b1f
bg=""
teardown() {
	exec 7>&- 2>/dev/null
	for p in $bg; do
		kill -KILL "$p" 2>/dev/null
	done
	[ -z "$jd_pid" ] || { kill "$jd_pid"; wait "$jd_pid"; } 2>/dev/null
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

mount -t tmpfs -o mode=755 tmpfs /run/hijack || bail "tmpfs on /run/hijack"
journal_private

# sessions_json: the listing as JSON (stderr kept apart).
sessions_json() {
	"$HIJACK" --sessions --json 2>"$tmp/list.err"
}
# sid TARGET MODE: the id of the running session of TARGET in MODE, once
# hijack has written its file (10 s at most).
sid() {
	_i=0
	while [ $_i -lt 100 ]; do
		_s=$(sessions_json | jq -r --arg t "$1" --arg m "$2" \
			'.sessions[] | select(.target == $t and .mode == $m and .state == "running") | .session' |
			head -n 1)
		[ -n "$_s" ] && { echo "$_s"; return 0; }
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
# jget ID FILTER: a jq FILTER applied to one session of the listing.
jget() {
	sessions_json | jq -r --arg s "$1" ".sessions[] | select(.session == \$s) | $2"
}
# records ID KIND: how many records of KIND session ID has.
records() {
	rec HIJACK_SESSION="$1" MESSAGE_ID="$2" | grep -c .
}

mkfifo "$tmp/fifo"
# start_entry MODE TARGET: an entry of MODE into TARGET, in the
# background, that runs until it is ended; its pid (hijack's, or
# ptydrive's for the terminal) in $hj.
start_entry() {
	case $1 in
	command)
		"$HIJACK" "$2" --no-pty -- sleep 3600 </dev/null >/dev/null 2>>"$tmp/errs" &
		;;
	pty)
		"$PTYDRIVE" -e READY -- "$HIJACK" "$2" -- sh -c 'echo READY; exec sleep 3600' \
			>"$tmp/pty.out" 2>&1 &
		;;
	tools)
		"$HIJACK" --tools "$2" -- sleep 3600 </dev/null >/dev/null 2>>"$tmp/errs" &
		;;
	write-file)
		# Its input held open: the copy waits for the rest.
		# /dev/shm: writable in every engine's container (runc's root
		# is read-only).
		"$HIJACK" "$2" --write-file /dev/shm/hj25-copy <"$tmp/fifo" >/dev/null 2>>"$tmp/errs" &
		exec 7>"$tmp/fifo"
		;;
	esac
	hj=$!
	bg="$bg $hj"
}

# --- every mode into every engine: listed, then ended -----------------------
: >"$tmp/errs"
for eng in lxc runc docker podman; do
	t=$eng:$n-$eng
	for mode in command pty tools write-file; do
		start_entry "$mode" "$t"
		s=$(sid "$t" "$mode")
		ok $? "$eng, $mode: listed as running"
		if [ -z "$s" ]; then
			kill -KILL "$hj"
			wait "$hj"
			exec 7>&-
			for i in 1 2 3 4; do ok 1 "$eng, $mode: not listed, not ended"; done
			continue
		fi
		# The file's pid is hijack's own (ptydrive's child for a terminal).
		want=$hj
		[ "$mode" = pty ] && want=$(cat "/proc/$hj/task/$hj/children" | tr -d ' ')
		is "$(jget "$s" '"\(.pid) \(.uid) \(.engine) \(.name) \(.target_pid > 0) \(.state) \(.since | test("^[0-9-]+T[0-9:]+Z$"))"')" \
			"$want 0 $eng $n-$eng true running true" "$eng, $mode: its pid, caller, engine, name, target pid, since"
		out=$("$HIJACK" --end-session "$s" --grace 5 2>&1)
		like "$?:$out" "0:session $s ended: its hijack (pid $want) exited on SIGHUP" \
			"$eng, $mode: --end-session ends it with SIGHUP"
		wait "$hj"
		rc=$?
		exec 7>&-
		[ "$mode" = pty ] && rc=$(sed -n 's/^ptydrive: exit //p' "$tmp/pty.out")
		is "$rc:$(ls "$D")" "129:" "$eng, $mode: hijack exits 129 (the command's SIGHUP) and its file is gone"
		is "$(field "$s" $END HIJACK_ENDED_BY):$(field "$s" $END HIJACK_EXIT_STATUS):$(field "$s" $ENDSESS HIJACK_OUTCOME)" \
			"end-session:129:hangup" "$eng, $mode: the end record says who ended it, the end-session record how"
	done
done
is "$(cat "$tmp/errs")" "" "nothing said on stderr by the entries"

# --- the listing and the records in detail ----------------------------------
start_target
T=$TARGET
"$HIJACK" --pid "$T" --no-pty -- sh -c 'trap "echo got-hup >'"$tmp"'/hup; exit 7" HUP; while :; do sleep 0.1; done' \
	</dev/null >/dev/null 2>&1 &
hj=$!
bg="$bg $hj"
s=$(sid "pid:$T" command)
f=$D/$s.json
is "$(stat -c '%a %u %F' "$D" "$f" | tr '\n' ' ')" "700 0 directory 600 0 regular file " \
	"the directory 0700 and the file 0600, root's"
is "$(stat -c '%a %u' /run/hijack)" "755 0" "/run/hijack made 0755, root's"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["session"] == sys.argv[2] and d["hijack"]["pid"] == int(sys.argv[3])' \
	"$f" "$s" "$hj"
ok $? "the file is JSON: its session id, hijack's pid"
is "$(jq -r .hijack.start_time "$f")" "$(cut -d')' -f2 "/proc/$hj/stat" | awk '{print $20}')" \
	"and its start time, field 22 of /proc/PID/stat"
is "$(field "$s" $START HIJACK_SESSION_FILE)" "$f" "the start record names the file"
"$HIJACK" --sessions >"$tmp/table" 2>"$tmp/list.err"
is "$?:$(head -n 1 "$tmp/table" | tr -s ' ')" \
	"0:SESSION STATE PID UID LOGINUID TTY TARGET MODE COMMAND SINCE" "the table's columns"
like "$(grep "^$s " "$tmp/table" | tr -s ' ')" \
	"$s running $hj 0 * none pid:$T command sh -c trap\\\\x20*" "its row, the command escaped as in the records"
is "$(jget "$s" '"\(.tty) \(.target) \(.target_as_given) \(.engine) \(.mode) \(.path) \(.caller_pid > 0)"')" \
	"none pid:$T pid:$T pid command null true" "JSON: tty, target, engine, mode, no path"
sleep 0.3
out=$("$HIJACK" --end-session "$(echo "$s" | cut -c1-8)" --grace 5 --reason "$(printf 'INC-1\nforged')" 2>&1)
like "$?:$out" "0:session $s ended: *SIGHUP" "--end-session by the id's first 8 hex digits"
wait "$hj"
is "$?:$(cat "$tmp/hup")" "7:got-hup" "the command saw SIGHUP, and hijack exits with its status"
r=$(rec HIJACK_SESSION="$s" MESSAGE_ID=$ENDSESS | tail -n 1)
# printf, not echo: dash's echo would undo the backslashes of the JSON.
is "$(printf '%s\n' "$r" | jq -r '"\(.HIJACK_EVENT) \(.HIJACK_CALLER_UID) \(.HIJACK_SESSION_CALLER_UID) \(.HIJACK_SESSION_HIJACK_PID) \(.HIJACK_TARGET) \(.HIJACK_OUTCOME) \(.HIJACK_GRACE_SEC)"')" \
	"end-session 0 0 $hj pid:$T hangup 5" "the end-session record: who ended whose session, of which target, how"
is "$(printf '%s\n' "$r" | jq -r .HIJACK_REASON)" 'INC-1\x0aforged' "with the --reason, escaped"
like "$(printf '%s\n' "$r" | jq -r .MESSAGE)" "uid 0 ended session $s of uid 0 in pid:$T (command): hangup" "and a summary"
is "$(field "$s" $END HIJACK_ENDED_BY_UID):$(field "$s" $END HIJACK_EXIT_STATUS)" "0:7" \
	"the ended entry's end record: ended by uid 0, the command's status"

# --- a command that ignores SIGHUP: killed after the grace period ------------
"$HIJACK" --pid "$T" --no-pty -- sh -c 'trap "" HUP; exec sleep 3600' </dev/null >/dev/null 2>&1 &
hj=$!
bg="$bg $hj"
s=$(sid "pid:$T" command)
start=$(date +%s)
out=$("$HIJACK" --end-session "$s" --grace 1 2>&1)
like "$?:$out" "0:session $s ended: its command did not end on SIGHUP within 1 s and was killed*" \
	"a command that ignores SIGHUP is killed after --grace"
wait "$hj"
is "$?:$(field "$s" $END HIJACK_EXIT_STATUS):$(field "$s" $END HIJACK_ENDED_BY)" "137:137:end-session" \
	"hijack exits 137 and still writes its end record"
is "$(field "$s" $ENDSESS HIJACK_OUTCOME)" command-killed "the end-session record: command-killed"
[ $(($(date +%s) - start)) -le 5 ]
ok $? "within the grace period and the bound after it"

# --- a stopped hijack: killed itself, its file removed -----------------------
"$HIJACK" --pid "$T" --no-pty -- sleep 3600 </dev/null >/dev/null 2>&1 &
hj=$!
bg="$bg $hj"
s=$(sid "pid:$T" command)
cmd=$(cat "/proc/$hj/task/$hj/children" | tr -d ' ')
kill -STOP "$hj"
out=$("$HIJACK" --end-session "$s" --grace 1 2>&1)
like "$?:$out" "0:session $s ended: its hijack (pid $hj) did not exit and was killed (SIGKILL)*" \
	"a stopped hijack is killed"
wait "$hj"
is "$?:$(ls "$D")" "137:" "by SIGKILL, and its file removed by --end-session"
st=$(cut -d')' -f2 "/proc/$cmd/stat" 2>/dev/null | awk '{print $1}')
like "${st:-gone}" "[gZ]*" "its command was killed too"
is "$(records "$s" $END):$(field "$s" $ENDSESS HIJACK_OUTCOME)" "0:killed" \
	"no end record from it; the end-session record says killed"

# --- hijack killed with SIGKILL: ended without an end record ----------------
"$HIJACK" --pid "$T" --no-pty -- sleep 60 </dev/null >/dev/null 2>&1 &
hj=$!
s=$(sid "pid:$T" command)
kill -KILL "$hj"
wait "$hj" 2>/dev/null
"$HIJACK" --sessions >"$tmp/table" 2>&1
like "$(grep "^$s " "$tmp/table")" "$s ended without an end record *" \
	"a SIGKILLed hijack: the table says it ended without an end record"
is "$(jget "$s" .state)" ended-without-end-record "so does the JSON"
out=$("$HIJACK" --end-session "$s" 2>&1)
like "$?:$out" "1:hijack: end-session: session $s is not running: *" \
	"--end-session on it: 1, nothing to signal"
stale=$s
touch -d '2 minutes ago' "$D/.$s.99.tmp"
touch "$D/.$s.98.tmp"
"$HIJACK" --sessions --prune >"$tmp/table" 2>"$tmp/err"
is "$?:$(cat "$tmp/err")" \
	"0:hijack: sessions: removed the files of 1 session that ended without an end record" \
	"--prune removes its file, and says so"
is "$(ls -a "$D" | grep -c "$stale")" 1 "with the dead writer's old temporary file; a fresh one stays"
rm -f "$D/.$s.98.tmp"

# --- a reused pid: a file whose pid lives, but is another process ------------
"$HIJACK" --pid "$T" --no-pty -- sleep 3600 </dev/null >/dev/null 2>&1 &
hj=$!
bg="$bg $hj"
s=$(sid "pid:$T" command)
sleep 300 &
victim=$!
bg="$bg $victim"
# plant ID PYTHON: a copy of $s's file as session ID, changed by PYTHON (d
# is the JSON), root's and 0600 as hijack writes them.
plant() {
	python3 - "$D/$s.json" "$D/$1.json" "$1" "$2" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
d["session"] = sys.argv[3]
exec(sys.argv[4])
fd = os.open(sys.argv[2] + ".new", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, json.dumps(d).encode())
os.close(fd)
os.rename(sys.argv[2] + ".new", sys.argv[2])
PY
}
reused=aaaaaaaa000000000000000000000001
plant $reused "d['hijack']['pid'] = $victim"
is "$(jget $reused .state)" ended-without-end-record "a file whose pid is now another process's: ended"
out=$("$HIJACK" --end-session $reused 2>&1)
is "$?" 1 "--end-session refuses it (1)"
is "$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$victim/status)" S "and the process with that pid got no signal"
# Its real start time, but not hijack's executable.
vstart=$(cut -d')' -f2 "/proc/$victim/stat" | awk '{print $20}')
plant $reused "d['hijack']['pid'] = $victim; d['hijack']['start_time'] = $vstart"
out=$("$HIJACK" --end-session $reused 2>&1)
is "$?:$(jget $reused .state)" "1:ended-without-end-record" \
	"the same with its real start time: not hijack's executable, not signalled"
kill -0 "$victim"
ok $? "the other process still runs"
rm -f "$D/$reused.json"

# --- bad ids -------------------------------------------------------------------
out=$("$HIJACK" --end-session xyz 2>&1)
is "$?:$(echo "$out" | wc -l)" "125:1" "a malformed id: 125, one line"
like "$out" "hijack: end-session: invalid session id 'xyz': 8 to 32 hex digits*" "saying what an id is"
out=$("$HIJACK" --end-session "$(printf '1234567\033')" 2>&1)
like "$?:$out" "125:*'1234567\\\\x1b'*" "its text escaped"
out=$("$HIJACK" --end-session 1234567 2>&1)
is "$?" 125 "7 hex digits: too short"
out=$("$HIJACK" --end-session 99999999 2>&1)
is "$?:$out" "1:hijack: end-session: no session 99999999" "no such session: 1"
plant bbbbbbbb000000000000000000000001 ""
plant bbbbbbbb000000000000000000000002 ""
out=$("$HIJACK" --end-session bbbbbbbb 2>&1)
is "$?:$out" "125:hijack: end-session: 2 sessions begin with bbbbbbbb: give more of the id" \
	"an ambiguous prefix: 125"
rm -f "$D"/bbbbbbbb*.json

# --- hostile command lines -----------------------------------------------------
# 300 KB of arguments (the kernel takes 128 KiB at most in one).
big=$(head -c 100000 /dev/zero | tr '\0' z)
"$HIJACK" --pid "$T" --no-pty -- sh -c 'sleep 3600' "$(printf 'a\nb\033[31mRED\302\233c\233d')" \
	"$big" "$big" "$big" \
	</dev/null >/dev/null 2>&1 &
hj2=$!
bg="$bg $hj2"
i=0
until [ "$(ls "$D" | wc -l)" = 2 ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
h=$(sessions_json | jq -r --arg o "$s" '.sessions[] | select(.session != $o) | .session')
"$HIJACK" --sessions >"$tmp/table" 2>&1
# (Case patterns: "\\" is one backslash, "\[" a bracket.)
like "$(grep "^$h " "$tmp/table")" '*sleep\\x203600 a\\x0ab\\x1b\[31mRED\\xc2\\x9bc\\x9bd zzz*' \
	"newline, ESC, C1 (UTF-8 and raw) come out escaped in the table"
is "$(grep -c "$(printf '\033')" "$tmp/table"):$(LC_ALL=C grep -c "$(printf '\233')" "$tmp/table")" "0:0" \
	"no raw ESC or CSI byte in it"
is "$(wc -l <"$tmp/table")" 3 "one line per session"
sessions_json >"$tmp/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[s["command"] for s in d["sessions"] if s["session"] == sys.argv[2]][0]; assert "a\\x0ab\\x1b[31mRED\\xc2\\x9bc\\x9bd" in c, c; assert len(c) < 4096' \
	"$tmp/json" "$h"
ok $? "valid JSON, with the same escaped text, bounded"
[ "$(stat -c %s "$D/$h.json")" -lt 8192 ]
ok $? "300 KB of arguments: a file of a few KiB"
kill "$hj2"
wait "$hj2" 2>/dev/null

# --- planted files: none believed ---------------------------------------------
cp "$D/$s.json" "$tmp/good.json"
# warned NAME PATTERN DESC: the listing skips NAME with a warning like
# PATTERN, and does not list it.
warned() {
	_j=$(sessions_json)
	like "$(grep -F "$1" "$tmp/list.err")" "hijack: warning: sessions: $1: $2, skipped" "$3"
	is "$(echo "$_j" | jq -r --arg n "${1%.json}" '[.sessions[] | select(.session == $n)] | length')" 0 \
		"... and does not list it"
	rm -f "$D/$1"
}
x=cccccccc000000000000000000000001.json
ln -s "$tmp/good.json" "$D/$x"
warned $x "a symlink" "a symlink to a good file"
plant ${x%.json} ""
chown 65534 "$D/$x"
warned $x "owned by uid 65534, not root" "a file not root's"
plant ${x%.json} ""
chmod 644 "$D/$x"
warned $x "mode 0644, not 0600" "a file others may read"
plant ${x%.json} ""
ln "$D/$x" "$D/cccccccc000000000000000000000002.json"
warned $x "2 links, not one" "a file with a second link"
rm -f "$D/cccccccc000000000000000000000002.json"
mkfifo -m 600 "$D/$x"
timeout 10 "$HIJACK" --sessions >/dev/null 2>&1
is "$?" 0 "a FIFO does not hang the listing"
warned $x "not a regular file" "a FIFO"
head -c 70000 /dev/zero | tr '\0' ' ' >"$D/$x"
chmod 600 "$D/$x"
warned $x "larger than 64 KiB" "an oversize file"
printf '{"version": 1, "session": ' >"$D/$x"
chmod 600 "$D/$x"
warned $x "not JSON: *" "malformed JSON"
plant ${x%.json} "d['target']['name'] = 'web\\x1b]0;owned\\x07'"
warned $x '"name": not escaped text' "a raw control character in a text"
plant ${x%.json} "d['hijack']['pidns'] += 1"
warned $x "written in another pid namespace, whose pids cannot be checked here" \
	"a file of another pid namespace"
plant ${x%.json} "d['session'] = 'dddddddd000000000000000000000001'"
warned $x "its session id is not its name's" "a file named after another session"
touch "$D/$(printf 'x\033[2Jy')"
chmod 600 "$D/$(printf 'x\033[2Jy')"
sessions_json >/dev/null
is "$(cat "$tmp/list.err")" 'hijack: warning: sessions: x\x1b[2Jy: not a session file, skipped' \
	"a stray name, escaped in the warning"
rm -f "$D/$(printf 'x\033[2Jy')"
# Many files: one warning each up to 16, then one line; at most 1024 read.
python3 - "$D" <<'PY'
import os, sys
for i in range(1100):
    fd = os.open("%s/%032x.json" % (sys.argv[1], 0xeeee0000 << 96 | i), os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"x")
    os.close(fd)
PY
start=$(date +%s)
sessions_json >"$tmp/json"
is "$?:$(wc -l <"$tmp/list.err"):$(tail -n 1 "$tmp/list.err")" \
	"0:17:hijack: warning: sessions: more files skipped" "1100 bad files: 16 warnings and one line"
is "$(jq '.sessions | length' "$tmp/json")" 1 "the real session still listed"
[ $(($(date +%s) - start)) -le 10 ]
ok $? "in a bounded time"
rm -f "$D"/eeee*.json
python3 - "$D" "$tmp/good.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[2]))
for i in range(1030):
    d["session"] = "%032x" % (0xffff0000 << 96 | i)
    fd = os.open("%s/%s.json" % (sys.argv[1], d["session"]), os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, json.dumps(d).encode())
    os.close(fd)
PY
sessions_json >"$tmp/json"
is "$(jq '.sessions | length' "$tmp/json"):$(cat "$tmp/list.err")" \
	"1024:hijack: warning: sessions: more than 1024 session files: the rest not listed" \
	"more than 1024 session files: 1024 listed, with a warning"
rm -f "$D"/ffff*.json

# --- an unprivileged user ------------------------------------------------------
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
out=$(as_nobody "$HIJACK" --sessions 2>&1)
like "$?:$out" "125:hijack: sessions: only root may list sessions*" "an unprivileged --sessions: 125"
out=$(as_nobody "$HIJACK" --end-session "$s" 2>&1)
like "$?:$out" "125:hijack: end-session: only root may end a session*" "an unprivileged --end-session: 125"
as_nobody ls "$D" >/dev/null 2>&1
is "$?" 2 "nor can it list the directory"
as_nobody cat "$D/$s.json" >/dev/null 2>&1
is "$?" 1 "nor read a file"
as_nobody sh -c "echo x >'$D/ffffffff000000000000000000000001.json'; ln -s /etc '$D/ffffffff000000000000000000000002.json'" 2>/dev/null
is "$(ls "$D" | grep -c ffffffff)" 0 "nor plant one"
as_nobody kill -HUP "$hj" 2>/dev/null
is "$?:$(jget "$s" .state)" "1:running" "nor signal root's hijack"
# An unprivileged entry, as hijack(1) allows one: into a container whose
# user namespace the caller owns.
tgt=$TARGET
start_target --userns 65534
own=$TARGET
TARGET=$tgt
before=$(ls "$D" | wc -l)
"$FIXTURE" --run-as 65534 -- "$HIJACK" --pid "$own" --root=keep --wd=/ -- true </dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err"):$(ls "$D" | wc -l)" "0::$before" \
	"an unprivileged entry runs, without a warning and without a file"
u=$(rec MESSAGE_ID=$START HIJACK_CALLER_UID=65534 | tail -n 1 | jq -r .HIJACK_SESSION)
is "$(field "$u" $START HIJACK_SESSION_FILE)" none:unprivileged "its records say why it has none"

# --- a session directory hijack will not use -----------------------------------
chmod 770 "$D"
"$HIJACK" --pid "$T" --no-pty -- sh -c 'exit 3' </dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err")" \
	"3:hijack: warning: sessions: /run/hijack/sessions: writable by group or others: this entry is not listed by hijack --sessions" \
	"a group-writable directory: one line, and the entry goes on"
is "$(field "$(last $START)" $START HIJACK_SESSION_FILE)" none:refused "its start record says refused"
out=$("$HIJACK" --sessions 2>&1)
is "$?:$out" "125:hijack: sessions: /run/hijack/sessions: writable by group or others" \
	"--sessions refuses it"
chmod 700 "$D"
chown 65534 "$D"
"$HIJACK" --pid "$T" --no-pty -- true </dev/null 2>"$tmp/err"
like "$(cat "$tmp/err")" "hijack: warning: sessions: /run/hijack/sessions: not owned by root: *" \
	"a directory not root's: refused"
chown 0 "$D"
mv "$D" /run/hijack/real
mkdir -m 700 "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$D"
"$HIJACK" --pid "$T" --no-pty -- true </dev/null 2>"$tmp/err"
like "$(cat "$tmp/err")" "hijack: warning: sessions: /run/hijack/sessions: a symlink or not a directory: *" \
	"a symlinked directory: refused"
is "$(ls "$tmp/elsewhere" | wc -l)" 0 "and nothing written through it"
out=$("$HIJACK" --end-session "$s" 2>&1)
like "$?:$out" "125:hijack: end-session: /run/hijack/sessions: a symlink or not a directory" \
	"--end-session refuses it too"
rm "$D"
mv /run/hijack/real "$D"
chmod 777 /run/hijack
"$HIJACK" --pid "$T" --no-pty -- true </dev/null 2>"$tmp/err"
like "$(cat "$tmp/err")" "hijack: warning: sessions: /run/hijack: writable by group or others: *" \
	"a parent writable by others: refused"
chmod 755 /run/hijack

# The session still runs, and ends as ever.
out=$("$HIJACK" --end-session "$s" 2>&1)
like "$?:$out" "0:session $s ended: *" "the session survived all of it, and ends"
wait "$hj"
is "$?:$(ls "$D" | wc -l)" "129:0" "nothing left in the directory"

finish
