#!/bin/sh
# The command's terminal.  When hijack runs on a terminal, the command gets
# a new pseudo-terminal from the target's own devpts and never the caller's
# (which TIOCSTI could type into from inside); hijack relays input, output,
# window size and signals, passes the exit status back, and leaves the
# caller's terminal as it found it.  ptydrive plays the user at a terminal.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
: "${PTYDRIVE:=$(dirname "$FIXTURE")/ptydrive}"
need_program "$PTYDRIVE"

plan 40

tmp=$(tmpdir)
# A guard for the cases without ptydrive (which has its own timeout).
guard=""
command -v timeout >/dev/null 2>&1 && guard="timeout 30"

# drive [ptydrive steps] -- COMMAND...: run on a new terminal; $out holds
# what it wrote (without the terminal's CRs), $rc its exit status, $host
# the terminal's dev:ino.
drive() {
	"$PTYDRIVE" "$@" >"$tmp/drive" 2>&1
	rc=$?
	out=$(tr -d '\r' <"$tmp/drive")
	host=$(echo "$out" | sed -n 's/^ptydrive: tty //p')
}

# field NAME: the value of a "NAME=value" line of $out.
field() {
	echo "$out" | sed -n "s/^$1=//p" | head -n 1
}

loop='while :; do sleep 1; done'

start_target --devpts
T=$TARGET

# -- the command's terminal is the target's, not the caller's ------------
drive -- "$HIJACK" --pid "$T" -- sh -c \
	'echo tty=$(tty); stat -c pts=%d /dev/pts; for f in 0 1 2; do stat -L -c fd$f=%d:%i /proc/self/fd/$f; done'
is "$rc" 0 "on a terminal: exit 0"
is "$(field tty)" /dev/pts/0 "the command's terminal is the first of the target's own devpts"
is "$(field fd0 | cut -d: -f1)" "$(field pts)" "fd 0 comes from the target's devpts instance"
leak=0
for f in fd0 fd1 fd2; do
	[ "$(field $f)" = "$host" ] && leak=1
done
is "$leak" 0 "none of fds 0-2 is the caller's terminal"
[ -n "$host" ] && [ "$(field fd0)" = "$(field fd1)" ] && [ "$(field fd1)" = "$(field fd2)" ]
ok $? "fds 0, 1 and 2 are the same new terminal"
like "$out" "*ptydrive: termios restored*" "the caller's terminal settings are restored"

drive -- "$HIJACK" --pid "$T" --no-pty -- sh -c 'stat -L -c fd0=%d:%i /proc/self/fd/0'
is "$(field fd0)" "$host" "--no-pty: the caller's terminal is passed in (the check above can see a leak)"

drive -- "$HIJACK" --pid "$T" --explain
like "$out" "*tty:     auto: a new pseudo-terminal from the target's /dev/ptmx on fds 0,1,2, relayed*" \
	"--explain names the new terminal"
drive -- "$HIJACK" --pid "$T" --explain=json
like "$out" '*"pty":{"mode":"auto","fds":\[0,1,2\]}*' "--explain=json lists the fds"

# -- status, input and output ----------------------------------------------
drive -- "$HIJACK" --pid "$T" -- sh -c 'exit 3'
is "$rc" 3 "exit status passed through"
drive -- "$HIJACK" --pid "$T" -- sh -c 'kill -KILL $$'
is "$rc" 137 "death by SIGKILL is 137"

drive -e ready -s 'echo relay-$((6*7))\n' -e relay-42 -s 'exit 5\n' -- \
	"$HIJACK" --pid "$T" -- sh -c 'echo ready; exec sh -i'
is "$rc" 5 "typed input reaches an interactive shell, which exits 5"
like "$out" "*relay-42*" "... and its output comes back"

drive -- "$HIJACK" --pid "$T" -- sh -c \
	'i=0; while [ $i -lt 3000 ]; do echo line$i; i=$((i+1)); done'
is "$(echo "$out" | grep -c '^line[0-9]*$')" 3000 "3000 lines written just before exit all arrive"
like "$out" "*line2999
*" "... the last one too"

drive -w 33:101 -- "$HIJACK" --pid "$T" -- sh -c 'echo size=$(stty size)'
is "$(field size)" "33 101" "the new terminal starts with the caller's size"

# -- signals -------------------------------------------------------------------
drive -e ready -s '\003' -- "$HIJACK" --pid "$T" -- sh -c \
	"trap 'echo got-INT; exit 9' INT; echo ready; $loop"
is "$rc" 9 "Ctrl-C typed: SIGINT inside, trap exits 9"
like "$out" "*got-INT*" "... the trap ran"
like "$out" "*ptydrive: termios restored*" "... and the terminal is restored"

drive -e ready -r 40:120 -e resized -- "$HIJACK" --pid "$T" -- sh -c \
	"trap 'echo size=\$(stty size); echo resized; exit 4' WINCH; echo ready; $loop"
is "$rc" 4 "a resize: SIGWINCH inside"
is "$(field size)" "40 120" "... with the new size"

drive -e ready -k 15 -- "$HIJACK" --pid "$T" -- sh -c \
	"trap 'echo got-TERM; exit 8' TERM; echo ready; $loop"
is "$rc" 8 "SIGTERM to hijack is forwarded"
like "$out" "*got-TERM*" "... the trap ran"

drive -e ready -k 1 -- "$HIJACK" --pid "$T" -- sh -c "echo ready; $loop"
is "$rc" 129 "SIGHUP to hijack (the terminal went away) reaches the command"
like "$out" "*ptydrive: termios restored*" "... and the terminal is restored"

# -- without a terminal ------------------------------------------------------
out=$(echo piped | $guard "$HIJACK" --pid "$T" -- sh -c \
	'test -t 0 || test -t 1 || test -t 2 || echo no-tty; cat' 2>&1 | cat)
is "$out" "no-tty
piped" "no terminal in, none made: fds passed as they are"

out=$(printf 'a\nb\n' | $guard "$HIJACK" --pid "$T" --pty -- sh -c \
	'test -t 0 && test -t 1 && test -t 2 && echo tty-ok; cat >/dev/null; echo eof-seen' 2>&1 | tr -d '\r')
like "$out" "*tty-ok*" "--pty: a terminal even for pipes"
like "$out" "*eof-seen*" "--pty: the end of piped input reaches the command as end of file"

out=$(echo x | "$HIJACK" --pid "$T" --explain </dev/null | grep '^tty:')
is "$out" "tty:     auto: fds 0-2 are not terminals, none needed" "--explain without a terminal"

# -- whom the terminal belongs to ----------------------------------------------
stop_target
start_target --devpts --uid 1000 --gid 1000
drive -- "$HIJACK" --pid "$TARGET" -- sh -c \
	'echo id=$(id -u); stat -L -c owner=%u /proc/self/fd/0; echo tty=$(tty)'
is "$rc" 0 "a target running as uid 1000: exit 0"
is "$(field id)" 1000 "... the command runs as 1000"
is "$(field owner)" 1000 "... and owns its terminal, as after a login"
is "$(field tty)" /dev/pts/0 "... from the target's devpts"
stop_target

start_target --devpts --userns 1000
drive -- "$HIJACK" --pid "$TARGET" -- sh -c \
	'echo id=$(id -u); stat -L -c owner=%u /proc/self/fd/0; stat -c pts=%d /dev/pts; stat -L -c fd0=%d /proc/self/fd/0'
is "$rc" 0 "a target in a user namespace: exit 0"
is "$(field owner)" "$(field id)" "... the terminal belongs to the command's user there"
is "$(field fd0)" "$(field pts)" "... and to the target's devpts"

# An unprivileged caller entering its own container (the relay shape).
drive -- "$FIXTURE" --run-as 1000 -- "$HIJACK" --pid "$TARGET" -- sh -c \
	'echo tty=$(tty); stat -c pts=%d /dev/pts; stat -L -c fd0=%d /proc/self/fd/0; exit 6'
is "$rc" 6 "unprivileged caller into its own user namespace: exit 6"
is "$(field tty)" /dev/pts/0 "... a terminal from the target's devpts"
is "$(field fd0)" "$(field pts)" "... not the caller's"
like "$out" "*ptydrive: termios restored*" "... and the terminal is restored"
stop_target

finish
