#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ktap-check.sh - judge a serial log written by boot.sh.
#
# usage: ktap-check.sh [-n] [-o KTAP_OUT] LOG
#
#   -n        no KTAP expected (non-test modes such as bench): check only
#             that the guest finished and the kernel reported no error
#   -o FILE   write the extracted KTAP (without kernel messages) to FILE
#
# Fails (exit 1), printing the offending lines, on:
#   - a missing "HIJACK-DONE" sentinel (the guest died or timed out) or a
#     non-zero status in it;
#   - a missing "KTAP version 1" header or "1..N" plan, a top-level result
#     count that does not match the plan, or numbers out of order;
#   - any "not ok" at any nesting level, except those marked "# TODO";
#   - any kernel report on the console: oops, WARNING, BUG, lockdep,
#     KASAN/UBSAN, RCU and hung-task reports, panic.
# Exit 0 when none of these is found.

set -eu

# Read the whole script before running any of it: bash reads a script as
# it goes, and the gate runs for hours while the tree may be edited.
{

no_ktap=0
ktap_out=
while getopts no: opt; do
	case $opt in
	n) no_ktap=1 ;;
	o) ktap_out=$OPTARG ;;
	*) sed -n '4,10s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
	sed -n '4,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
log=$1

# The console carries firmware escape sequences and CRs; drop them and
# any other control byte so the patterns below see plain text.
clean=$(mktemp)
trap 'rm -f "$clean"' EXIT
LC_ALL=C sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][A-Za-z0-9]//g' \
	-e 's/\x1b[A-Za-z=>]//g' -e 's/\r//g' -e 's/[\x00-\x08\x0b-\x1f\x7f]//g' \
	"$log" >"$clean"

LC_ALL=C awk -v no_ktap="$no_ktap" -v ktap_out="$ktap_out" '
function fail(msg, line) {
	failed = 1
	if (line != "")
		printf "ktap-check: %s\n    %d: %s\n", msg, NR, line
	else
		printf "ktap-check: %s\n", msg
}

BEGIN {
	# Kernel reports that mean the run is broken even if every test
	# passed. Matched only in printk lines ("[    1.234567] ..."),
	# so test output that merely mentions a word cannot trip them.
	npat = split("Oops|WARNING:|BUG:|kernel BUG|Call Trace|" \
		"possible circular locking|possible recursive locking|" \
		"inconsistent lock state|suspicious RCU usage|INFO: |" \
		"KASAN:|UBSAN:|Kernel panic|general protection fault|" \
		"Unable to handle kernel|stack-protector|refcount_t:|" \
		"list_add corruption|list_del corruption", pat, "|")
	printk_re = "\\[ *[0-9]+\\.[0-9]+\\] "
	in_ktap = 0; done = 0; plan = -1; top = 0
}

# Kernel messages: anywhere in a line, since a printk can land in the
# middle of a line that userspace is writing. What userspace wrote before
# it is still a KTAP line (the rest of that line follows the printk
# newline and is lost, but the result and its number survive).
$0 ~ printk_re {
	msg = $0
	sub("^.*" printk_re, "", msg)
	for (i = 1; i <= npat; i++) {
		if (index(msg, pat[i])) {
			nkernel++
			if (nkernel <= 40)
				fail("kernel report: " pat[i], $0)
			break
		}
	}
	pre = $0
	sub(printk_re ".*$", "", pre)
	if (pre ~ /^[[:space:]]*$/)
		next
	$0 = pre
}

/HIJACK-DONE mode=/ {
	done = 1
	rc = $0
	sub(/.*HIJACK-DONE mode=[^ ]* rc=/, "", rc)
	if (rc != "0")
		fail("guest reported failure status", $0)
	in_ktap = 0
	next
}

!in_ktap && !seen_ktap && /^KTAP version 1[[:space:]]*$/ {
	in_ktap = 1
	seen_ktap = 1
	if (ktap_out != "")
		print "KTAP version 1" > ktap_out
	next
}

!in_ktap { next }

{
	if (ktap_out != "")
		print > ktap_out
}

/^1\.\.[0-9]+/ {
	if (plan >= 0)
		fail("second top-level plan", $0)
	plan = substr($0, 4) + 0
	next
}

/^(not )?ok [0-9]+/ {
	top++
	n = $0
	sub(/^(not )?ok /, "", n)
	if (n + 0 != top)
		fail("top-level result " (n + 0) " out of order (expected " top ")", $0)
}

/^[[:space:]]*not ok / && !/# *TODO/ {
	fail("test failed", $0)
}

END {
	if (nkernel > 40)
		printf "ktap-check: ... and %d more kernel report lines\n", nkernel - 40
	if (!done)
		fail("no HIJACK-DONE sentinel: the guest died, hung or timed out", "")
	if (!no_ktap) {
		if (!seen_ktap)
			fail("no \"KTAP version 1\" header in the log", "")
		else if (plan < 0)
			fail("no top-level plan (1..N)", "")
		else if (top != plan)
			fail("plan says " plan " suites, " top " reported", "")
	}
	if (failed)
		exit 1
	if (no_ktap)
		printf "ktap-check: PASS: guest finished, no kernel report\n"
	else
		printf "ktap-check: PASS: %d suites ok, no kernel report\n", top
}
' "$clean"
exit
}
