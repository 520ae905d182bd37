#!/bin/sh
# The command line: help, version, and every kind of bad input that needs no
# target.  Runs unprivileged.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"

plan 22

out=$("$HIJACK" --help); rc=$?
is "$rc" 0 "--help exits 0"
expected=$(cat "$TESTDIR/expected/help.txt")
is "$out" "$expected" "--help matches tests/integration/expected/help.txt"

out=$("$HIJACK" --version); rc=$?
is "$rc" 0 "--version exits 0"
like "$out" "hijack [0-9]*.[0-9]*.[0-9]* (features: *pidfd-setns*)" "--version names the version and features"

# check_usage DESC EXPECTED-MESSAGE-PATTERN ARGS...: a usage error exits
# 125 with a one-line message and the pointer to --help, and nothing else.
check_usage() {
	desc=$1 pat=$2
	shift 2
	err=$("$HIJACK" "$@" 2>&1 >/dev/null); rc=$?
	is "$rc" 125 "$desc: exit 125"
	like "$err" "hijack: $pat
Try 'hijack --help' for more information." "$desc: one line naming it, then --help"
}

check_usage "no target" "no target: give a container \[ENGINE:\]NAME or --pid PID" -m
check_usage "pid 0" "invalid pid '0'*" --pid 0 true
check_usage "negative pid" "invalid pid '-5'*" --pid=-5 true
check_usage "pid not a number" "invalid pid '12abc'*" --pid 12abc true
check_usage "unknown namespace" "unknown namespace 'bogus' in --ns*" --pid 1 --ns mnt,bogus true
check_usage "unknown option" "unknown option '--frobnicate'" --frobnicate --pid 1
check_usage "unknown method" "unknown method 'magic'*" --pid 1 --method=magic
check_usage "relative --root" "invalid --root 'rel/dir'*" --pid 1 --root rel/dir

# A pid no task holds: pid_max is at most 2^22.
err=$("$HIJACK" --pid 4194304 -- true 2>&1); rc=$?
is "$rc" 125 "a pid that does not exist: exit 125"
is "$err" "hijack: target: pid 4194304: No such process" "a pid that does not exist: named in one line"

finish
