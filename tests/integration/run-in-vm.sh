#!/bin/sh
# run-tests: the integration tests inside the QEMU guest (copied to
# /opt/hijack/run-tests by mkpayload.sh, started by the harness's /init).
#
# Every test file runs once per method: with hijack(2) in the kernel,
# "auto" (which picks the system call wherever a plan allows it) and
# "pidfd", and 02-namespaces.t also compares an explicit "syscall" with
# the others; without hijack(2), "pidfd" and "nsfd".  The same expectations must hold for each, so the methods give
# identical results.  Output: one TAP stream, a line per file and method,
# each file's own TAP kept as comments.
cd "$(dirname "$0")" || exit 1
# hijack is dynamically linked: give it its loader where it looks for one.
loader=$(cat lib/LOADER)
[ -e "/lib64/$loader" ] || { mkdir -p /lib64 && ln -s "/opt/hijack/lib/$loader" "/lib64/$loader"; }
export HIJACK=/opt/hijack/bin/hijack FIXTURE=/opt/hijack/bin/fixture
export TESTDIR=/opt/hijack/tests PATH=/opt/hijack/bin:$PATH

# hijack(2) has no file of its own: the CLI's probe of the number tells.
kernel_has_hijack() {
	case $("$HIJACK" --pid $$ --explain 2>/dev/null) in
	*"kernel has hijack(2)"*) return 0 ;;
	esac
	return 1
}

if kernel_has_hijack; then
	methods="auto pidfd"
	export HIJACK_EXTRA_METHODS=syscall
else
	methods="pidfd nsfd"
fi

set -- tests/*.t
echo "TAP version 13"
echo "1..$(($# * $(echo $methods | wc -w) + 1))"
n=0
failed=0
for m in $methods; do
	for t in "$@"; do
		n=$((n + 1))
		log=/tmp/run-tests.$n.log
		HIJACK_FORCE_METHOD=$m sh "$t" >"$log" 2>&1
		rc=$?
		sed 's/^/# /' "$log"
		name="$(basename "$t") (method $m)"
		if grep -q '^not ok' "$log" || { [ $rc -ne 0 ] && [ $rc -ne 77 ]; }; then
			echo "not ok $n - $name"
			failed=$((failed + 1))
		elif [ $rc -eq 77 ]; then
			echo "ok $n - $name # SKIP $(sed -n 's/^1\.\.0 # SKIP //p' "$log")"
		else
			echo "ok $n - $name"
		fi
	done
done

# With the patch, auto must choose the system call.
n=$((n + 1))
if kernel_has_hijack; then
	fixture >/tmp/auto.pid &
	fp=$!
	sleep 1
	out=$(HIJACK_FORCE_METHOD= hijack --pid "$(cat /tmp/auto.pid)" --explain)
	kill $fp
	case "$out" in
	*"method:  syscall"*) echo "ok $n - auto prefers hijack(2) when the kernel has it" ;;
	*) echo "not ok $n - auto prefers hijack(2) when the kernel has it"; echo "$out" | sed 's/^/# /'; failed=$((failed + 1)) ;;
	esac
else
	echo "ok $n - auto prefers hijack(2) when the kernel has it # SKIP kernel without hijack(2)"
fi
[ $failed -eq 0 ]
