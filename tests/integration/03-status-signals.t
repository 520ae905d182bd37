#!/bin/sh
# A good citizen of a terminal: the command's exit status comes back, a
# death by signal N becomes 128+N, signals sent to hijack reach the
# command, stdin is passed on, and no host fd above 2 leaks in.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root

plan 13

start_target

"$HIJACK" --pid "$TARGET" -- /bin/sh -c 'exit 7'
is $? 7 "exit status 7 is passed through"
"$HIJACK" --pid "$TARGET" -- /bin/sh -c 'exit 0'
is $? 0 "exit status 0 is passed through"
"$HIJACK" --pid "$TARGET" -- /bin/sh -c 'kill -9 $$'
is $? 137 "killed by SIGKILL: 128+9"
"$HIJACK" --pid "$TARGET" -- /bin/sh -c 'kill -SEGV $$'
is $? 139 "killed by SIGSEGV: 128+11"

out=$(echo 'echo from-stdin; exit 3' | "$HIJACK" --pid "$TARGET"); rc=$?
is "$out" "from-stdin" "the default command is /bin/sh reading our stdin"
is "$rc" 3 "... and its status comes back"

# ignored_on_entry SIG: was SIG ignored when this shell started (nohup,
# some CI runners)?  A non-interactive shell cannot undo that, and exec
# passes it on, so neither hijack nor the command could see the signal.
ignored_on_entry() {
	case $1 in
	HUP) num=1 ;;
	USR1) num=10 ;;
	TERM) num=15 ;;
	*) return 1 ;;
	esac
	mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)
	[ $(((0x$mask >> (num - 1)) & 1)) = 1 ]
}

# send_and_check SIG: run a command that traps SIG, send SIG to hijack.
send_and_check() {
	sig=$1
	log=$(tmpdir)/sig.$sig
	wrap=""
	if ignored_on_entry "$sig"; then
		if env --default-signal="$sig" true 2>/dev/null; then
			wrap="env --default-signal=$sig"
		else
			skip "SIG$sig reaches the command" "SIG$sig was ignored when the tests started"
			skip "SIG$sig: the command saw it" "SIG$sig was ignored when the tests started"
			return
		fi
	fi
	$wrap "$HIJACK" --pid "$TARGET" -- /bin/sh -c "trap 'echo got-$sig; exit 42' $sig; echo ready; while :; do sleep 0.05; done" >"$log" 2>&1 &
	hp=$!
	i=0
	while [ $i -lt 200 ] && ! grep -q ready "$log" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -"$sig" "$hp"
	# Bounded: a lost signal must fail the test, not hang it.
	i=0
	while [ $i -lt 100 ] && kill -0 "$hp" 2>/dev/null && [ "$(awk '{print $3}' /proc/$hp/stat 2>/dev/null)" != Z ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if kill -0 "$hp" 2>/dev/null && [ "$(awk '{print $3}' /proc/$hp/stat 2>/dev/null)" != Z ]; then
		pkill -KILL -P "$hp" 2>/dev/null
		kill -KILL "$hp" 2>/dev/null
	fi
	wait "$hp"
	rc=$?
	is "$rc" 42 "SIG$sig sent to hijack reaches the command (its trap ran, status 42)"
	is "$(grep got- "$log")" "got-$sig" "SIG$sig: the command saw it"
}
send_and_check TERM
send_and_check USR1
send_and_check HUP

# Only 0, 1 and 2 reach the command, whatever hijack inherited.  Probed with
# the shell's own test builtin: a pipeline or ls would open fds themselves.
fdprobe='for f in 0 1 2 3 4 5 6 7 8 9 10 11 12; do [ -e /proc/$$/fd/$f ] && printf "%s " $f; done; true'
out=$("$HIJACK" --pid "$TARGET" -- /bin/sh -c "$fdprobe" 7>/dev/null 9</dev/null)
is "$out" "0 1 2 " "only fds 0, 1 and 2 are open in the command"

finish
