#!/bin/sh
# Session recordings (hijack(1), AUDIT): an interactive session typed at
# a real terminal, replayed by the real player (asciinema cat) and
# compared with what was shown and typed; the file's owner and mode, and
# an unprivileged user who can neither read nor write it; a hostile
# command (invalid UTF-8, escape sequences, 1 MiB in one burst); a full
# disk (a 64 KiB tmpfs); a record-dir that is a symlink, group-writable or
# not root's; --record with --no-pty; the policy's patterns; and the
# start and end records that name the file, read back from a real
# systemd-journald.
#
# As 22-audit.t, in a private mount namespace: /etc/hijack and the
# journal's sockets are this test's alone.

if [ -z "${HIJACK_RECORD_PRIVATE:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root (recordings are root's; mounts, journald): run as root"
		exit 77
	fi
	# Made once and left: removing it would take the tmpfs that another
	# test running beside this one mounted on it in its own namespace
	# (a mountpoint deleted anywhere is unmounted everywhere).
	[ -d /etc/hijack ] || mkdir -m 755 /etc/hijack
	HIJACK_RECORD_PRIVATE=1 unshare -m --propagation private "$0" "$@"
	rc=$?
	exit $rc
fi

. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"
need_program "$PTYDRIVE"
. "$TESTDIR/journal.sh"
[ -x "$journald" ] || skip_all "no $journald (Debian: systemd; tests/deps.sh test)"
for p in journalctl jq asciinema python3 setpriv script sha256sum; do
	command -v "$p" >/dev/null ||
		skip_all "no $p (tests/deps.sh test installs it)"
done

plan 78

tmp=$(tmpdir)
teardown() {
	[ -z "$jd_pid" ] || { kill "$jd_pid"; wait "$jd_pid"; } 2>/dev/null
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

mount -t tmpfs -o mode=755 tmpfs /etc/hijack || bail "tmpfs on /etc/hijack"
journal_private

# policy LINES...: /etc/hijack/hijack.conf, root's and 0644.
policy() {
	printf '%s\n' "$@" >/etc/hijack/hijack.conf
	chmod 644 /etc/hijack/hijack.conf
}
# The recording's output as one string, UTF-8 (python3 reads the JSON).
cast_output() {
	python3 -c '
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == ""
sys.stdout.write("".join(e[2] for e in map(json.loads, lines[1:-1]) if e[1] == sys.argv[2]))
' "$1" "${2:-o}"
}
# All of its lines JSON: the header an object of version 2, each event a
# [number, "o"|"i"|"m", string].
cast_valid() {
	python3 -c '
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == ""
h = json.loads(lines[0])
assert h["version"] == 2 and h["width"] > 0 and h["height"] > 0
t = 0
for l in lines[1:-1]:
    e = json.loads(l)
    assert len(e) == 3 and e[1] in ("o", "i", "m") and isinstance(e[2], str), l
    assert e[0] >= t, l
    t = e[0]
' "$1"
}

start_target
T=$TARGET
R=$tmp/rec/sessions

# --- an interactive session, input recorded, replayed by asciinema ----------
policy "record = always" "record-input = yes" "record-dir = $R"
"$PTYDRIVE" -e '# ' -s 'echo typed-$((6*7))\r' -e 'typed-42' \
	-s 'printf "\\033[1mbold\\033[0m caf\\303\\251\\n"\r' -e 'café' -s 'exit 4\r' \
	-- "$HIJACK" --pid "$T" -- env PS1='# ' sh -i >"$tmp/shown" 2>&1
grep -q "ptydrive: exit 4" "$tmp/shown"
ok $? "a recorded interactive session ends with its status"
s=$(last $START)
f=$R/$s.cast
[ -f "$f" ]
ok $? "the recording is named after the session id of the records"
is "$(field "$s" $START HIJACK_RECORDING)" "$f" "the start record names the recording"
is "$(field "$s" $END HIJACK_RECORDING)" "$f" "so does the end record"
is "$(field "$s" $END HIJACK_RECORDING_END)" complete "the end record: the recording is complete"
is "$(stat -c '%a %u %g %F' "$f")" "600 0 0 regular file" "the file: 0600, root's"
is "$(stat -c '%a %u %F' "$R")" "700 0 directory" "the directory, made by hijack: 0700, root's"
cast_valid "$f"
ok $? "every line is JSON: an asciicast v2 header, then events"
# What hijack showed the caller, ptydrive's own lines taken off, against
# what the player replays (in a terminal of its own: it wants one).
sed '/^ptydrive: /d' "$tmp/shown" | sed '$ d' >"$tmp/shown.body"
"$PTYDRIVE" -- asciinema cat "$f" >"$tmp/replayed" 2>&1
grep -q "ptydrive: exit 0" "$tmp/replayed"
ok $? "asciinema cat replays it"
sed '/^ptydrive: /d' "$tmp/replayed" | sed '$ d' >"$tmp/replayed.body"
cmp -s "$tmp/shown.body" "$tmp/replayed.body"
ok $? "the replay is byte for byte what the session showed"
grep -q 'typed-42' "$tmp/replayed.body" && grep -q "$(printf '\033\\[1mbold')" "$tmp/replayed.body"
ok $? "with the command's output and its escape sequences"
is "$(cast_output "$f" i)" "$(printf 'echo typed-$((6*7))\rprintf "\\033[1mbold\\033[0m caf\\303\\251\\n"\rexit 4\r')" \
	"record-input = yes: what was typed, as typed"
like "$(head -n 1 "$f")" '*"hijack_session":"'"$s"'"*' "the header carries the session id"

# --- who may read it ---------------------------------------------------------
setpriv --reuid 65534 --regid 65534 --clear-groups cat "$f" >/dev/null 2>&1
is "$?" 1 "an unprivileged user cannot read a recording"
sum=$(sha256sum <"$f")
setpriv --reuid 65534 --regid 65534 --clear-groups sh -c "echo forged >>'$f'" 2>/dev/null
is "$?:$(sha256sum <"$f")" "2:$sum" "nor append to it (the shell's redirection fails)"
setpriv --reuid 65534 --regid 65534 --clear-groups ls "$R" >/dev/null 2>&1
is "$?" 2 "nor list the directory"
setpriv --reuid 65534 --regid 65534 --clear-groups sh -c "echo x >'$R/new.cast'" 2>/dev/null
is "$?:$(ls "$R" | grep -c new.cast)" "2:0" "nor create a file in it"
# Its own process as the target: what refuses it is the recording alone.
setpriv --reuid 65534 --regid 65534 --clear-groups sleep 60 &
own=$!
setpriv --reuid 65534 --regid 65534 --clear-groups "$HIJACK" --pid "$own" --pty -- true \
	</dev/null >/dev/null 2>"$tmp/err"
is "$?" 125 "an unprivileged caller, who cannot write recordings, is refused when the policy records"
like "$(cat "$tmp/err")" "hijack: record: $R: Permission denied" "saying why in one line"
kill "$own"

# --- input not recorded: the default ---------------------------------------
policy "record = always" "record-dir = $R"
"$PTYDRIVE" -e '# ' -s 'echo secret-$((1+1))\r' -e 'secret-2' -s 'exit\r' \
	-- "$HIJACK" --pid "$T" -- env PS1='# ' sh -i >/dev/null 2>&1
s=$(last $START)
is "$(cast_output "$R/$s.cast" i)" "" "record-input = no (the default): no input events"
like "$(cast_output "$R/$s.cast")" "*secret-2*" "the output is there (the terminal echoes, as the caller saw)"
like "$(head -n 1 "$R/$s.cast")" '*"hijack_input_recorded":false*' "the header says input was not recorded"

# --- a hostile command: invalid UTF-8, escapes, 1 MiB in one burst ----------
head -c 1048576 /dev/urandom >"$tmp/burst"
printf '\377\376\300\257\355\240\200\364\220\200\200\342\202\033]0;owned\007\033[2J\033[?1049h' >"$tmp/evil"
"$HIJACK" --pid "$T" --pty -- sh -c "cat '$tmp/evil' '$tmp/burst' '$tmp/evil'" \
	</dev/null >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "a hostile command's session ends normally"
is "$(cat "$tmp/err")" "" "nothing said on stderr: the recording kept up"
s=$(last $START)
f=$R/$s.cast
cast_valid "$f"
ok $? "still JSON lines, whatever the command printed"
is "$(field "$s" $END HIJACK_RECORDING_END):$(field "$s" $END HIJACK_RECORDING_DROPPED_BYTES)" \
	"complete:(none)" "nothing dropped"
# Invalid sequences become U+FFFD as Python decodes them; the rest as shown.
python3 -c '
import sys
sys.stdout.write(open(sys.argv[1], "rb").read().decode("utf-8", "replace"))
' "$tmp/out" >"$tmp/out.utf8"
cast_output "$f" >"$tmp/cast.utf8"
cmp -s "$tmp/out.utf8" "$tmp/cast.utf8"
ok $? "the recording holds every byte shown (invalid UTF-8 as U+FFFD)"
grep -c . "$f" >/dev/null && [ "$(wc -l <"$f")" -gt 256 ]
ok $? "in events of at most 4 KiB each"
grep -qi 'u001b]0;owned' "$f"
ok $? "escape sequences are kept, escaped as JSON (\\u001b)"
! grep -q "$(printf '\033')" "$f"
ok $? "no raw ESC byte in the file: safe to cat or grep on a terminal"
script -qec "asciinema cat '$f'" /dev/null </dev/null >"$tmp/replay2" 2>&1
cmp -s "$tmp/replay2" "$tmp/cast.utf8"
ok $? "asciinema cat replays the hostile session as recorded"

# --- a full disk --------------------------------------------------------------
full=$tmp/full
mkdir -p "$full"
mount -t tmpfs -o size=64k,mode=700 tmpfs "$full" || bail "a 64 KiB tmpfs"
policy "record = always" "record-dir = $full"
"$HIJACK" --pid "$T" --pty -- sh -c "cat '$tmp/burst'; echo; echo after-the-burst" \
	</dev/null >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "a full disk: the session goes on to its end"
like "$(tail -c 20 "$tmp/out")" "*after-the-burst*" "and the caller saw all of it"
like "$(cat "$tmp/err")" "hijack: warning: record: the recording ended early (disk-full*" \
	"hijack says on stderr that the recording ended"
s=$(last $START)
f=$full/$s.cast
like "$(field "$s" $END HIJACK_RECORDING_END)" "disk-full*" "the end record: recording_end=disk-full"
like "$(field "$s" $END HIJACK_RECORDING_DROPPED_BYTES)" "[1-9]*" "and how many bytes were not recorded"
is "$(field "$s" $END HIJACK_RECORDING_MARKER)" "(none)" "the marker line was written"
cast_valid "$f"
ok $? "the file is still whole JSON lines"
like "$(tail -n 1 "$f")" '*"m", "hijack: recording ended: disk-full*' \
	"its last line is the marker saying the disk was full"
umount "$full"

# The same with text, so that bytes are characters: every byte the caller
# saw is either in the file or counted as not recorded; and once the
# recording has ended, hijack sleeps while the command is quiet (its
# writer thread once spun on a CPU for the rest of the session).
mount -t tmpfs -o size=64k,mode=700 tmpfs "$full" || bail "a 64 KiB tmpfs"
base64 -w 76 "$tmp/burst" >"$tmp/text"
"$HIJACK" --pid "$T" --pty -- sh -c "cat '$tmp/text'; echo quiet-now; sleep 2" \
	</dev/null >"$tmp/out" 2>"$tmp/err" &
hp=$!
_i=0
until grep -q quiet-now "$tmp/out" 2>/dev/null || [ $_i -ge 200 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
sleep 0.3
ticks() { cat /proc/"$hp"/task/*/stat 2>/dev/null | awk '{ t += $14 + $15 } END { print t + 0 }'; }
t0=$(ticks)
sleep 1
t1=$(ticks)
wait "$hp"
is "$?" 0 "a full disk, text: the session goes on to its end"
[ $((t1 - t0)) -lt 20 ]
ok $? "after the recording ended, hijack sleeps while the command is quiet ($((t1 - t0)) of 100 ticks in a second)"
s=$(last $START)
shown=$(wc -c <"$tmp/out")
recorded=$(cast_output "$full/$s.cast" | wc -c)
dropped=$(field "$s" $END HIJACK_RECORDING_DROPPED_BYTES)
is "$((recorded + dropped))" "$shown" \
	"what was recorded ($recorded) and what is counted as not recorded ($dropped) is what was shown"
umount "$full"

# --- a sequence cut at the very end: U+FFFD, as everywhere else -------------
policy "record = always" "record-dir = $R"
"$HIJACK" --pid "$T" --pty -- sh -c "printf 'abc\\342\\202'" </dev/null >/dev/null 2>"$tmp/err"
is "$?" 0 "a session whose output ends inside a UTF-8 sequence"
s=$(last $START)
is "$(cast_output "$R/$s.cast")" "$(printf 'abc\357\277\275')" \
	"the unfinished sequence is recorded as U+FFFD, not lost"
is "$(field "$s" $END HIJACK_RECORDING_END)" "complete" "and the recording is complete"

# --- a writer that stalls: the relay waits 500 ms at most, then goes on ------
# The recording's writer thread alone is held (ptrace, as a disk that
# stops answering would hold its write) while the command writes 6 MiB,
# more than the 4 MiB ring.  The session must go on at the relay's speed,
# and the recording end, saying it stalled.
cat >"$tmp/hold.py" <<'PY'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT, WALL = 17, 0x4206, 0x4207, 0x40000000
tid, go = int(sys.argv[1]), sys.argv[2]
if libc.ptrace(PTRACE_SEIZE, tid, None, None) != 0 or \
   libc.ptrace(PTRACE_INTERRUPT, tid, None, None) != 0:
    sys.exit("ptrace: " + os.strerror(ctypes.get_errno()))
os.waitpid(tid, WALL)
open(go, "w").close()
time.sleep(3)
libc.ptrace(PTRACE_DETACH, tid, None, None)
print("held")
PY
# flood BYTES CHAR MARK: a recorded session in the background ($hp) that
# says "waiting", floods BYTES of CHAR once $tmp/go exists, says MARK,
# and ends once $tmp/released exists (each wait 20 s at most); $writer
# is its recording's writer thread, which starts with the relay's first
# chunk: hijack's one other thread.
flood() {
	rm -f "$tmp/go" "$tmp/released"
	"$HIJACK" --pid "$T" --pty -- sh -c \
		"echo waiting; i=0; while [ ! -e '$tmp/go' ] && [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done; head -c $1 /dev/zero | tr '\\0' $2; echo; echo $3; i=0; while [ ! -e '$tmp/released' ] && [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done" \
		</dev/null >"$tmp/out" 2>"$tmp/err" &
	hp=$!
	_i=0
	until grep -q waiting "$tmp/out" 2>/dev/null || [ $_i -ge 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	writer=$(ls "/proc/$hp/task" | grep -v "^$hp\$" | head -n 1)
}
policy "record = always" "record-dir = $R"
flood 6291456 x after-the-stall
held=$(python3 "$tmp/hold.py" "${writer:-0}" "$tmp/go" 2>&1)
touch "$tmp/go"	# whatever became of the hold
# The session ends only once the writer is let go: a thread still traced
# when hijack exits is one LeakSanitizer cannot stop (make check-asan).
touch "$tmp/released"
wait "$hp"
rc=$?
is "$held:$rc" "held:0" "the recording's writer held: the session goes on to its end"
like "$(tail -c 20 "$tmp/out")" "*after-the-stall*" "and the caller saw all of it"
like "$(cat "$tmp/err")" "hijack: warning: record: the recording ended early (stalled*" \
	"hijack says on stderr that the recording ended"
s=$(last $START)
like "$(field "$s" $END HIJACK_RECORDING_END)" "stalled*" "the end record: recording_end=stalled"
like "$(field "$s" $END HIJACK_RECORDING_DROPPED_BYTES)" "[1-9]*" "and how many bytes were not recorded"
cast_valid "$R/$s.cast"
ok $? "the file is still whole JSON lines"

# --- a record-dir hijack will not write in ------------------------------------
mkdir -m 700 "$tmp/real"
ln -s "$tmp/real" "$tmp/link"
policy "record = always" "record-dir = $tmp/link"
"$HIJACK" --pid "$T" --pty -- true </dev/null >/dev/null 2>"$tmp/err"
is "$?" 125 "a symlinked record-dir: refused"
is "$(wc -l <"$tmp/err"):$(ls "$tmp/real" | wc -l)" "1:0" "in one line, and nothing written through the link"
like "$(cat "$tmp/err")" "*symlink*" "saying it is a symlink"
s=$(last $FAILED)
like "$(field "$s" $FAILED HIJACK_ERROR)" "recording: *" "a failed record says why"
chmod 770 "$tmp/real"
policy "record = always" "record-dir = $tmp/real"
"$HIJACK" --pid "$T" --pty -- true </dev/null >/dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err")" "125:hijack: record: $tmp/real: writable by group or others" \
	"a group-writable record-dir: refused"
chmod 700 "$tmp/real"
chown 65534 "$tmp/real"
"$HIJACK" --pid "$T" --pty -- true </dev/null >/dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp/err")" "125:hijack: record: $tmp/real: not owned by root" \
	"a record-dir not owned by root: refused"
chown 0 "$tmp/real"

# --- no terminal relayed ---------------------------------------------------------
policy "record = never" "record-dir = $R"
out=$("$HIJACK" --pid "$T" --no-pty --record -- sh -c 'echo piped; exit 3' 2>"$tmp/err")
is "$?:$out" "3:piped" "--record --no-pty: the command runs, its output the caller's own"
like "$(cat "$tmp/err")" "hijack: warning: record: no terminal is relayed*" "hijack warns that nothing is recorded"
s=$(last $START)
is "$(field "$s" $END HIJACK_RECORDING_END)" no-terminal "the end record: recording_end=no-terminal"
is "$(wc -l <"$R/$s.cast")" 2 "the recording: its header and one line"
like "$(tail -n 1 "$R/$s.cast")" '*"m", "hijack: no terminal relayed*' "which says nothing was relayed to record"

# --- the policy's patterns ----------------------------------------------------------
policy "record = docker:* lxc:web*" "record-dir = $R"
"$HIJACK" --pid "$T" --pty -- true </dev/null >/dev/null 2>&1
s=$(last $START)
is "$(field "$s" $START HIJACK_RECORDING):$(ls "$R" | grep -c "^$s")" "(none):0" \
	"record = docker:* lxc:web*: a --pid entry is not recorded"
policy "record = docker:* pid:*" "record-dir = $R"
"$HIJACK" --pid "$T" --pty -- true </dev/null >/dev/null 2>&1
s=$(last $START)
is "$(field "$s" $START HIJACK_RECORDING)" "$R/$s.cast" "record = pid:*: it is"

# --- a writer that is slow, not stopped: the relay is not held for long -----
# strace delays each write() of the recording's writer thread by 300 ms,
# as a disk that slow: the writer frees a little room with each write,
# which must not pace the relay for the whole session (it did: 8 MB took
# 20 s); the relay waits for half of the ring 500 ms at most, then the
# recording ends, stalled.
flood 12582912 y after-the-flood
strace -q -p "${writer:-0}" -e trace=write -e inject=write:delay_enter=300000 \
	-o /dev/null 2>/dev/null &
slow=$!
_i=0
until grep -q '^TracerPid:[[:space:]]*[1-9]' "/proc/$hp/task/${writer:-0}/status" 2>/dev/null ||
      [ $_i -ge 200 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
t0=$(date +%s%N)
touch "$tmp/go"
_i=0
until grep -q after-the-flood "$tmp/out" 2>/dev/null || [ $_i -ge 1200 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
took=$((($(date +%s%N) - t0) / 1000000))
# strace lets go of the writer before hijack ends: a thread still traced
# at exit is one LeakSanitizer cannot stop (make check-asan).
kill "$slow" 2>/dev/null
wait "$slow" 2>/dev/null
touch "$tmp/released"
wait "$hp"
rc=$?
is "$rc" 0 "a slow writer: the session ends normally"
[ "$took" -lt 8000 ]
ok $? "12 MiB went through in ${took} ms: the slow writer held the relay for a bounded time, not the whole session"
s=$(last $START)
dropped=$(field "$s" $END HIJACK_RECORDING_DROPPED_BYTES)
[ "$dropped" = "(none)" ] && dropped=0
end=$(field "$s" $END HIJACK_RECORDING_END)
is "${end%%:*}:$(($(cast_output "$R/$s.cast" | wc -c) + dropped))" "stalled:$(wc -c <"$tmp/out")" \
	"the recording ended, stalled, and holds or counts every byte shown"

# --- the caller's reader goes away: a hangup, with the end record ----------
# "| head" closes the pipe hijack relays into: hijack hangs up the
# command's terminal (SIGHUP, 129), as a terminal that went away would,
# writes its end record and finishes the recording; it once died of
# SIGPIPE (141) without either.
{
	timeout -s KILL 60 "$HIJACK" --pid "$T" --pty -- sh -c 'while :; do echo yes-yes-yes; done' \
		</dev/null 2>"$tmp/err"
	echo $? >"$tmp/rc"
} | head -c 1000 >/dev/null
is "$(cat "$tmp/rc")" 129 "the caller's reader went away: the command hung up (129), hijack not killed by SIGPIPE"
s=$(last $START)
is "$(field "$s" $END HIJACK_EXIT_STATUS)" 129 "the end record was written, with that status"
is "$(field "$s" $END HIJACK_RECORDING_END)" "complete" "and the recording finished"

# --- hijack killed mid-session: the file has what was shown until then ------
policy "record = always" "record-dir = $R"
"$HIJACK" --pid "$T" --pty -- sh -c 'echo shown-before-the-kill; exec sleep 30' \
	</dev/null >"$tmp/out" 2>/dev/null &
hj=$!
i=0
until grep -q shown-before-the-kill "$tmp/out" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.2
kill -KILL "$hj"
wait "$hj" 2>/dev/null
s=$(last $START)
like "$(cast_output "$R/$s.cast")" "shown-before-the-kill*" \
	"hijack killed: the recording already holds what was shown (written within 20 ms)"
# (The command's terminal hung up with hijack: SIGHUP ends its sleep.)

# --- file copies: not recorded; their end record has size and SHA-256 ------
policy "record = always" "record-dir = $R"
head -c 300000 /dev/urandom >"$tmp/payload"
"$HIJACK" --pid "$T" --read-file "$tmp/payload" >"$tmp/got"
rc=$?
s=$(last $START)
is "$rc:$(field "$s" $END HIJACK_FILE_BYTES)" "0:300000" "--read-file: the end record has the size"
is "$(field "$s" $END HIJACK_FILE_SHA256)" "$(sha256sum <"$tmp/payload" | cut -d' ' -f1)" \
	"and the SHA-256 of what was read, counted by hijack"
cmp -s "$tmp/payload" "$tmp/got"
ok $? "the caller got the file whole"
is "$(field "$s" $START HIJACK_RECORDING)" "(none)" "a copy has no terminal: no recording, whatever the policy"
printf 'new contents\n' | "$HIJACK" --pid "$T" --write-file "$tmp/written"
s=$(last $START)
is "$(field "$s" $END HIJACK_FILE_BYTES):$(field "$s" $END HIJACK_FILE_SHA256)" \
	"13:$(printf 'new contents\n' | sha256sum | cut -d' ' -f1)" "--write-file: size and SHA-256 of what was written"
"$HIJACK" --pid "$T" --read-file "$tmp/nonexistent" >/dev/null 2>&1
s=$(last $START)
is "$(field "$s" $END HIJACK_EXIT_STATUS):$(field "$s" $END HIJACK_FILE_SHA256)" "1:(none)" \
	"a failed copy: no size or hash claimed"
"$HIJACK" --pid "$T" --record --read-file "$tmp/payload" >/dev/null 2>"$tmp/err"
is "$?:$(head -c 40 "$tmp/err")" "125:hijack: --record records a terminal, whi" "--record with a file copy: a usage error"

finish
