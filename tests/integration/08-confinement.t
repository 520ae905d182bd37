#!/bin/sh
# Confinement parity: a fixture target that runs as uid/gid 1000 with
# supplementary groups, keeps two capabilities (also ambient) and a few
# more in its bounding set, has no_new_privs, a seccomp filter making
# mkdir fail with EPERM, lives in a child cgroup on every hierarchy, and
# has lower resource limits and a higher oom_score_adj than the caller.
# Observed from the host, the entered command must hold exactly the same.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
grep -q '^Seccomp:' /proc/self/status || skip_all "kernel without seccomp"

plan 60

cg=hijack-test-$$
# CAP_KILL (5), CAP_NET_BIND_SERVICE (10) kept; CAP_CHOWN, CAP_DAC_OVERRIDE bounded.
confine="--cgroup $cg --uid 1000 --gid 1000 --groups 1000,27,100 --caps 5,10 --bound 0,1 --nnp --deny-mkdir"
# RLIMIT_CORE (4) 0, RLIMIT_NOFILE (7) 256/512, RLIMIT_NPROC (6) 4000/5000.
confine="$confine --rlimit 4:0:0 --rlimit 7:256:512 --rlimit 6:4000:5000 --oom 500"
HIJACK_TARGET_MARK=from-target
export HIJACK_TARGET_MARK
# shellcheck disable=SC2086
start_target $confine
unset HIJACK_TARGET_MARK

# command_pid HIJACK_PID: the command hijack started (its only child).
command_pid() {
	_i=0
	while [ $_i -lt 100 ]; do
		_c=$(cat "/proc/$1/task/$1/children" 2>/dev/null | tr -d ' ')
		[ -n "$_c" ] && [ "$(cat "/proc/$_c/comm" 2>/dev/null)" = sleep ] && { echo "$_c"; return; }
		sleep 0.05
		_i=$((_i + 1))
	done
}

status_field() { grep "^$2:" "/proc/$1/status" | cut -f2- | tr -s ' \t' ' ' | sed 's/ $//'; }

# compare_with_target HIJACK-OPTIONS...: start "sleep" through hijack and
# compare its /proc status and cgroups with the target's, from the host.
compare_with_target() {
	"$HIJACK" --pid "$TARGET" "$@" -- sleep 30 &
	hp=$!
	c=$(command_pid $hp)
	for f in Uid Gid Groups CapInh CapPrm CapEff CapBnd CapAmb NoNewPrivs Seccomp Seccomp_filters; do
		is "$(status_field "$c" $f)" "$(status_field "$TARGET" $f)" "$* $f matches the target's"
	done
	is "$(cat "/proc/$c/cgroup")" "$(cat "/proc/$TARGET/cgroup")" "$* /proc/PID/cgroup matches on every hierarchy"
	is "$(cat "/proc/$c/limits")" "$(cat "/proc/$TARGET/limits")" "$* /proc/PID/limits matches, every resource"
	is "$(cat "/proc/$c/oom_score_adj")" 500 "$* oom_score_adj is the target's"
	kill "$hp" 2>/dev/null
	wait "$hp" 2>/dev/null
}

compare_with_target --method=pidfd
compare_with_target --method=nsfd

out=$("$HIJACK" --pid "$TARGET" -- /bin/sh -c 'mkdir /tmp/hijack-should-fail-$$ 2>&1; echo "rc=$?"')
like "$out" "*Operation not permitted*rc=1" "inside, the denied syscall (mkdir) fails with EPERM"
out=$("$HIJACK" --pid "$TARGET" --seccomp=none -- /bin/sh -c 'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status | tr -s "\t\n" "  "')
is "$out" "NoNewPrivs: 0 Seccomp: 0 " "--seccomp=none: no filter, no no_new_privs"

# Environment: the target's by default, the caller's, none, and --setenv.
export HIJACK_CALLER_MARK=from-caller
out=$("$HIJACK" --pid "$TARGET" -- /bin/sh -c 'echo "$HIJACK_TARGET_MARK/$HIJACK_CALLER_MARK"')
is "$out" "from-target/" "the target's environment by default"
out=$("$HIJACK" --pid "$TARGET" --env=keep -- /bin/sh -c 'echo "$HIJACK_TARGET_MARK/$HIJACK_CALLER_MARK"')
is "$out" "/from-caller" "--env=keep: the caller's"
out=$("$HIJACK" --pid "$TARGET" --env=clear --setenv PATH=/bin:/usr/bin --setenv A=1 --setenv A=2 -- /usr/bin/env)
is "$out" "PATH=/bin:/usr/bin
A=2" "--env=clear plus --setenv: exactly those, the last one wins"
unset HIJACK_CALLER_MARK

# --user / --group, looked up in the target's root (here the host's).
out=$("$HIJACK" --pid "$TARGET" --user nobody -- /usr/bin/id -u)
is "$out" "65534" "--user nobody: uid from the target's /etc/passwd"
out=$("$HIJACK" --pid "$TARGET" --user 4321 --group 4322 -- /bin/sh -c 'echo $(id -u):$(id -g)')
is "$out" "4321:4322" "--user/--group by number"
out=$("$HIJACK" --pid "$TARGET" --preserve-credentials --caps=keep --seccomp=none -- /usr/bin/id -u)
is "$out" "0" "--preserve-credentials keeps the caller's uid"

# --limits=keep: the caller's.
out=$("$HIJACK" --pid "$TARGET" --limits=keep -- /bin/sh -c 'cat /proc/self/limits /proc/self/oom_score_adj')
is "$out" "$(cat /proc/self/limits /proc/self/oom_score_adj)" "--limits=keep: the caller's limits and oom_score_adj"

# Only 0, 1, 2 unless --preserve-fds.
fdprobe='for f in 3 4 5 6 7 8 9; do [ -e /proc/$$/fd/$f ] && printf "%s " $f; done; true'
out=$("$HIJACK" --pid "$TARGET" -- /bin/sh -c "$fdprobe" 3</dev/null 4</dev/null 5</dev/null)
is "$out" "" "fds above 2 are not passed on"
out=$("$HIJACK" --pid "$TARGET" --preserve-fds 2 -- /bin/sh -c "$fdprobe" 3</dev/null 4</dev/null 5</dev/null)
is "$out" "3 4 " "--preserve-fds 2 passes on 3 and 4, not 5"

# --explain shows every part.
out=$("$HIJACK" --pid "$TARGET" --explain)
like "$out" "*creds:   target: uid 1000/1000/1000*groups 27,100,1000*" "--explain: credentials"
like "$out" "*target  inh 0000000000000420 prm 0000000000000420*bnd 0000000000000423*" "--explain: capability sets"
like "$out" "*seccomp: target; target mode 2, no_new_privs yes; command gets 1 filter(s)*" "--explain: seccomp"
like "$out" "*/$cg*join*" "--explain: cgroups to join"
like "$out" "*limits:  target: oom_score_adj 500 (caller *)*core 0/0*nofile 256/512*" "--explain: limits that differ"
out=$("$HIJACK" --pid "$TARGET" --explain=json)
if command -v python3 >/dev/null; then
	echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["seccomp"]["filters"] == 1 and d["caps"]["target"]["amb"] == "0000000000000420" and d["creds"]["target"]["groups"] == [27,100,1000] and d["limits"]["rlimits"]["nofile"] == [256,512] and d["limits"]["oom_score_adj"] == 500'
	ok $? "--explain=json: seccomp, caps, groups and limits parse"
else
	like "$out" '*"filters":1*' "--explain=json: seccomp filters"
fi

# Bad input: a clear error, exit 125, nothing run.
marker=$(tmpdir)/ran
err=$("$HIJACK" --pid "$TARGET" --user no-such-user-here -- /bin/touch "$marker" 2>&1); rc=$?
is "$rc" 125 "unknown --user: exit 125"
is "$err" "hijack: credentials: user 'no-such-user-here' in /etc/passwd of pid $TARGET: No such file or directory" "unknown --user: named"
err=$("$HIJACK" --pid "$TARGET" --setenv NOEQUALS -- /bin/touch "$marker" 2>&1); rc=$?
is "$rc" 125 "malformed --setenv: exit 125"
like "$err" "hijack: malformed --setenv 'NOEQUALS': VAR=VALUE expected*" "malformed --setenv: named"
err=$("$HIJACK" --pid "$TARGET" --seccomp=/no/such/policy -- /bin/touch "$marker" 2>&1); rc=$?
is "$rc" 125 "unreadable seccomp policy: exit 125"
is "$err" "hijack: seccomp: policy /no/such/policy: No such file or directory" "unreadable seccomp policy: named"
policy=$(tmpdir)/policy
printf 'default allow\nerrno EPERM mkdir\nfrobnicate chmod\n' >"$policy"
err=$("$HIJACK" --pid "$TARGET" --seccomp="$policy" -- /bin/touch "$marker" 2>&1); rc=$?
is "$rc" 125 "malformed seccomp policy: exit 125"
is "$err" "hijack: seccomp: $policy:3: expected 'ACTION SYSCALL...' after a 'default' line: Invalid argument" "malformed seccomp policy: file and line named"
[ -e "$marker" ]
ok $((! $?)) "bad input: the command never ran"

# A policy file of our own instead of the target's filters.
printf '# deny chmod, allow the rest\ndefault allow\nerrno EACCES chmod fchmod fchmodat\n' >"$policy"
out=$("$HIJACK" --pid "$TARGET" --seccomp="$policy" -- /bin/sh -c 'chmod 600 /proc/self/fd/0 2>&1; grep -E "^Seccomp(_filters)?:" /proc/self/status | tr -s "\t\n" "  "')
like "$out" "*Permission denied*Seccomp: 2 Seccomp_filters: 1 *" "--seccomp=FILE: the policy's rules hold, as the only filter"

# An unprivileged caller cannot read another task's filters: refused.
stop_target
start_target --userns 1000 --deny-mkdir --nnp
err=$("$FIXTURE" --run-as 1000 -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ -- /bin/touch "$marker" 2>&1); rc=$?
is "$rc" 125 "unprivileged caller, target with seccomp filters: exit 125"
like "$err" "hijack: seccomp: *pid $TARGET*" "unprivileged caller: the filters of the pid are named"
out=$("$FIXTURE" --run-as 1000 -- "$HIJACK" --pid "$TARGET" --root=keep --wd=/ --seccomp=none -- /bin/sh -c 'id -u' 2>"$(tmpdir)/err"); rc=$?
is "$out" "0" "... and with --seccomp=none it enters, as the target's root"
[ "$out" = 0 ] || diag "exit $rc; stderr: $(cat "$(tmpdir)/err")"

# Limits the command may not take whole: a hard limit above the caller's
# needs CAP_SYS_RESOURCE in the host's user namespace to be raised to.
# Entering a user namespace, or without that capability, the command
# keeps the caller's lower hard limit: stricter, never looser.  And an
# oom_score_adj below the caller's (600 here) is given all the same.
stop_target
hard=$(ulimit -Hn)
capeff=$(grep '^CapEff:' /proc/self/status | cut -f2)
# lower: run hijack with a hard nofile 16 below the target's.
lower() {
	(ulimit -n $((hard - 16)) && echo 600 >/proc/self/oom_score_adj &&
		exec "$HIJACK" --pid "$TARGET" -- /bin/sh -c \
			'echo $(ulimit -Sn)/$(ulimit -Hn)/$(cat /proc/self/oom_score_adj)')
}
if [ "$hard" != unlimited ] && [ "$hard" -gt 100 ]; then
	start_target --rlimit 7:64:"$hard" --oom 500
	if [ $(((0x$capeff >> 24) & 1)) = 1 ]; then
		expect=$hard why="raised, as CAP_SYS_RESOURCE allows"
	else
		expect=$((hard - 16)) why="kept, as the caller lacks CAP_SYS_RESOURCE"
	fi
	is "$(lower)" "64/$expect/500" "caller's hard nofile below the target's: soft 64, hard $why; oom_score_adj 600 lowered to 500"
	stop_target
	start_target --userns 1000 --rlimit 7:64:"$hard" --oom 500
	is "$(lower)" "64/$((hard - 16))/500" "... entering a user namespace: hard nofile kept at the caller's $((hard - 16))"
	stop_target
else
	skip "a hard limit above the caller's" "hard nofile is '$hard'"
	skip "... entering a user namespace" "hard nofile is '$hard'"
fi

finish
