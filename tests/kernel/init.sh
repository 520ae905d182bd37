#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the hijack QEMU test initramfs (busybox sh).
#
# The kernel hands every command-line word of the form key=value (without
# a dot in the key) to init as an environment variable, so one initramfs
# serves every mode:
#
#   hijack_mode=test      (default) run the suites below as one KTAP report
#   hijack_mode=probe     print the first line and power off (KVM probe)
#   hijack_mode=shell     interactive busybox shell on the console
#   hijack_mode=NAME      run /opt/hijack/run-NAME as is (e.g. bench)
#   hijack_cgroup=v2      (default) cgroup2 at /sys/fs/cgroup
#   hijack_cgroup=hybrid  tmpfs at /sys/fs/cgroup, cgroup2 at .../unified,
#                         one v1 hierarchy per controller in hijack_cgv1
#                         (default pids,cpuset,freezer) plus name=systemd
#   hijack_expect=patched|vanilla   smoke-test that sys_hijack is built in or not
#   hijack_timeout=SECONDS          limit per suite (default 900)
#   hijack_lsm=selinux|apparmor|smack   the module booted with lsm=: load
#                         the test policy of the kselftest's LSM tests from
#                         /usr/lib/hijack-lsm (lsm-policy.sh), and export
#                         HIJACK_LSM, so that those tests fail, not skip,
#                         without it
#   hijack_suites=A,B     run only these suites: kselftest binaries by name,
#                         and run-tests (default: every suite)
#
# Test mode runs, in order: a built-in smoke suite, every kselftest binary
# in /usr/lib/kselftest, and /opt/hijack/run-tests if present. Each suite
# is one top-level KTAP result; its own output is nested below it, indented
# by four spaces. Whatever the mode, the last line init prints is
#   HIJACK-DONE mode=<mode> rc=<status>
# which tells ktap-check.sh that the guest did not die midway.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# First line, before anything can fail: boot.sh's KVM probe waits for it.
echo "HIJACK-INIT-START"

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /dev/pts /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /dev/shm

mode=${hijack_mode:-test}
suite_timeout=${hijack_timeout:-900}

setup_cgroups() {
	case ${hijack_cgroup:-v2} in
	v2)
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
		;;
	hybrid)
		# The layout systemd uses on hybrid hosts: cgroup2 without
		# controllers, and the controllers on v1 hierarchies.
		mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup
		mkdir /sys/fs/cgroup/unified /sys/fs/cgroup/systemd
		mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified
		mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd
		for c in $(echo "${hijack_cgv1:-pids,cpuset,freezer}" | tr , ' '); do
			mkdir -p "/sys/fs/cgroup/$c"
			mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c" ||
				echo "# init: cannot mount v1 $c hierarchy"
		done
		;;
	none)
		;;
	*)
		echo "# init: unknown hijack_cgroup=$hijack_cgroup, using v2"
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
		;;
	esac
}

setup_cgroups

# ---- KTAP helpers -------------------------------------------------------

# Nested (indented) result line of the smoke suite.
sub_n=0
sub_fail=0
sub_result() {
	# $1: 0 ok, 4 skip, else fail; $2: name; $3: optional reason
	sub_n=$((sub_n + 1))
	case $1 in
	0) echo "    ok $sub_n $2" ;;
	4) echo "    ok $sub_n $2 # SKIP ${3:-}" ;;
	*) echo "    not ok $sub_n $2${3:+ # $3}"; sub_fail=1 ;;
	esac
}

smoke_suite() {
	echo "    KTAP version 1"
	echo "    # built-in smoke test: the kernel and this initramfs are usable"
	echo "    1..7"

	missing=
	for ns in cgroup ipc mnt net pid pid_for_children time \
		  time_for_children user uts; do
		[ -e "/proc/self/ns/$ns" ] || missing="$missing $ns"
	done
	sub_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
		proc_self_ns "${missing:+missing:$missing}"

	if [ -e /sys/fs/cgroup/cgroup.controllers ] ||
	   [ -e /sys/fs/cgroup/unified/cgroup.controllers ]; then
		sub_result 0 cgroup2_mounted
	elif [ "${hijack_cgroup:-v2}" = none ]; then
		sub_result 4 cgroup2_mounted "hijack_cgroup=none"
	else
		sub_result 1 cgroup2_mounted
	fi

	if [ "${hijack_cgroup:-v2}" = hybrid ]; then
		missing=
		for c in systemd $(echo "${hijack_cgv1:-pids,cpuset,freezer}" | tr , ' '); do
			grep -q " /sys/fs/cgroup/$c cgroup " /proc/mounts ||
				missing="$missing $c"
		done
		sub_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
			cgroup_v1_hierarchies "${missing:+not mounted:$missing}"
	else
		sub_result 4 cgroup_v1_hierarchies "hijack_cgroup is not hybrid"
	fi

	# A child in a new pid namespace sees itself as pid 1.
	pid=$(unshare -p -f sh -c 'echo $$' 2>&1)
	sub_result "$([ "$pid" = 1 ] && echo 0 || echo 1)" unshare_pid_ns \
		"$([ "$pid" = 1 ] || echo "got: $pid")"

	# hijack(2) has no file of its own: the kselftest probes the call;
	# here the symbol says whether the kernel was built with it.
	sym=$(grep -c -E ' (__[a-z0-9]+_)?sys_hijack$' /proc/kallsyms 2>/dev/null)
	case ${hijack_expect:-} in
	patched)
		sub_result "$([ "${sym:-0}" -gt 0 ] && echo 0 || echo 1)" \
			hijack_syscall_built
		;;
	vanilla)
		sub_result "$([ "${sym:-0}" -eq 0 ] && echo 0 || echo 1)" \
			hijack_syscall_absent
		;;
	*)
		sub_result 4 hijack_syscall_built "hijack_expect not set"
		;;
	esac
	# The ABI is the system call alone: no discovery files in sysfs.
	sub_result "$([ -e /sys/kernel/hijack ] && echo 1 || echo 0)" \
		no_hijack_sysfs
	if [ -n "${hijack_lsm:-}" ]; then
		sub_result "$lsm_rc" "lsm_policy_$hijack_lsm" "$lsm_why"
	else
		sub_result 4 lsm_policy "hijack_lsm not set"
	fi
	return $sub_fail
}

# Run one suite with its output nested, and print its top-level result.
# $1: number, $2: name, rest: command (or the smoke_suite function).
top_fail=0
run_suite() {
	n=$1 name=$2
	shift 2
	if [ "$1" = smoke_suite ]; then
		smoke_suite
		rc=$?
	else
		# The status travels through a file: a pipeline's status is
		# sed's. Output is indented so that it nests under this suite.
		{ timeout -s KILL "$suite_timeout" "$@" </dev/null 2>&1
		  echo $? >/tmp/.suite-rc; } | sed 's/^/    /'
		rc=$(cat /tmp/.suite-rc)
	fi
	case $rc in
	0) echo "ok $n $name" ;;
	4) echo "ok $n $name # SKIP" ;;
	137) echo "not ok $n $name # TIMEOUT after ${suite_timeout}s"; top_fail=1 ;;
	*) echo "not ok $n $name # exit=$rc"; top_fail=1 ;;
	esac
}

# Whether suite $1 is to run (hijack_suites).
wanted() {
	[ -z "${hijack_suites:-}" ] && return 0
	case ,$hijack_suites, in
	*,"$1",*) return 0 ;;
	esac
	return 1
}

test_mode() {
	selftests=
	for t in /usr/lib/kselftest/*; do
		[ -f "$t" ] && [ -x "$t" ] && wanted "${t##*/}" &&
			selftests="$selftests $t"
	done
	total=1
	for t in $selftests; do
		total=$((total + 1))
	done
	runtests=
	[ -x /opt/hijack/run-tests ] && wanted run-tests && runtests=1
	[ -n "$runtests" ] && total=$((total + 1))

	echo "KTAP version 1"
	echo "# kernel $(uname -r) $(cat /proc/sys/kernel/version)"
	echo "# cmdline $(cat /proc/cmdline)"
	echo "1..$total"
	i=1
	run_suite $i smoke smoke_suite
	for t in $selftests; do
		i=$((i + 1))
		# Selftests may chdir or write next to themselves: run each
		# from a scratch directory on tmpfs.
		d=$(mktemp -d)
		# shellcheck disable=SC2016 # expanded by the inner sh
		run_suite $i "selftests: hijack: ${t##*/}" sh -c 'cd "$1" && exec "$2"' - "$d" "$t"
	done
	if [ -n "$runtests" ]; then
		i=$((i + 1))
		run_suite $i "hijack: run-tests" sh -c 'cd /opt/hijack && exec ./run-tests'
	fi
	return $top_fail
}

# hijack_lsm: the module must be the one booted, and its test policy is
# loaded before any test runs.  Sets lsm_rc (0 or 1) and lsm_why.
lsm_setup() {
	d=/usr/lib/hijack-lsm
	lsm_rc=1
	lsm_why=
	mount -t securityfs securityfs /sys/kernel/security
	case ,$(cat /sys/kernel/security/lsm 2>/dev/null), in
	*,"$hijack_lsm",*) ;;
	*)
		lsm_why="not booted: lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)"
		return
		;;
	esac
	case $hijack_lsm in
	selinux)
		mount -t selinuxfs selinuxfs /sys/fs/selinux &&
			cat $d/selinux.policy >/sys/fs/selinux/load &&
			echo 1 >/sys/fs/selinux/enforce &&
			[ "$(cat /sys/fs/selinux/enforce)" = 1 ] ||
			{ lsm_why="cannot load $d/selinux.policy"; return; }
		;;
	apparmor)
		# The parser compiles for this kernel's features.
		$d/ld.so --library-path $d $d/apparmor_parser -r -K -q \
			$d/apparmor.profiles 2>&1 | sed 's/^/# apparmor_parser: /' &&
			grep -q '^hj_caller ' /sys/kernel/security/apparmor/profiles ||
			{ lsm_why="cannot load $d/apparmor.profiles"; return; }
		;;
	smack)
		mount -t smackfs smackfs /sys/fs/smackfs ||
			{ lsm_why="cannot mount smackfs"; return; }
		;;
	*)
		lsm_why="unknown module $hijack_lsm"
		return
		;;
	esac
	export HIJACK_LSM=$hijack_lsm
	lsm_rc=0
}

# Pseudo-terminals, for 11-terminal.t and the shell.  Not in the gate's
# bench mode: its boots are compared with those of earlier runs.
mount_devpts() {
	mount -t devpts -o ptmxmode=0666,mode=0620 devpts /dev/pts
}

case $mode in
probe)
	rc=0
	;;
test)
	mount_devpts
	[ -n "${hijack_lsm:-}" ] && lsm_setup
	test_mode
	rc=$?
	;;
shell)
	mount_devpts
	setsid sh -c 'exec sh </dev/ttyS0 >/dev/ttyS0 2>&1'
	rc=$?
	;;
*)
	# Other modes (the gate's bench) are programs in the payload that
	# print their own format.
	if [ -n "${hijack_lsm:-}" ]; then
		lsm_setup
		echo "# init: hijack_lsm=$hijack_lsm: ${lsm_why:-policy loaded}"
	fi
	if [ -x "/opt/hijack/run-$mode" ]; then
		(cd /opt/hijack && "./run-$mode")
		rc=$?
	else
		echo "# init: no /opt/hijack/run-$mode for hijack_mode=$mode"
		rc=2
	fi
	;;
esac

echo "HIJACK-DONE mode=$mode rc=$rc"
# -no-reboot on the QEMU side turns the reboot into an exit.
reboot -f
# If reboot failed, init must not exit (that panics); wait to be killed.
while :; do sleep 3600; done
