#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh - `make check-kernel`: build, boot and judge the patched kernel.
#
# The patched kernel has SELinux, AppArmor and Smack (config/lsm.config)
# and boots three times, one module each (they exclude one another), with
# the test policy of the kselftest's LSM tests loaded (lsm-policy.sh):
# AppArmor runs every suite, SELinux the kselftests, Smack the LSM tests.
# A --vanilla kernel has no LSM and boots once.
#
# usage: run.sh [--vanilla] [--debug] [--icount] [--smp N] [-a WORDS]... [-v]
#
#   --vanilla   build without kernel-patch/ (the harness alone; the gate's
#               baseline); the smoke test then checks the hijack sysfs
#               files are absent
#   --debug     add config/debug.config (lockdep, KASAN, atomic-sleep
#               checks) in its own build directory
#   --lsm NAME  boot only with this module (apparmor, selinux or smack)
#   --icount    boot on the instruction clock (see boot.sh -I)
#   --smp N     virtual CPUs (default 1; 2 exercises races for real, at
#               about half the speed under TCG)
#   -a WORDS    extra kernel command-line words (repeatable)
#   -v          show the console while the guest runs
#
# Environment: HIJACK_KCACHE (cache, see build-kernel.sh), HIJACK_PAYLOAD
# (directory packed as /opt/hijack), HIJACK_ACCEL / HIJACK_KVM (boot.sh),
# HIJACK_JOBS, HIJACK_BOOT_TIMEOUT (seconds, default 1200).
#
# Exit status 0 when everything passed, 1 on any failure.

set -eu
# build-kernel.sh's output goes through tail: its failure must stop us.
set -o pipefail

# Read the whole script before running any of it: bash reads a script as
# it goes, and the gate runs for hours while the tree may be edited.
{

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
kcache=${HIJACK_KCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel}
export HIJACK_KCACHE=$kcache
vanilla=0
debug=0
only_lsm=
boot_opts=()

usage() {
	sed -n '4,29s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--vanilla) vanilla=1 ;;
	--debug) debug=1 ;;
	--lsm) [ $# -ge 2 ] || usage; only_lsm=$2; shift ;;
	--icount) boot_opts+=(-I) ;;
	--smp) [ $# -ge 2 ] || usage; boot_opts+=(-s "$2"); shift ;;
	-a) [ $# -ge 2 ] || usage; boot_opts+=(-a "$2"); shift ;;
	-v) boot_opts+=(-v) ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument $1" >&2; usage ;;
	esac
	shift
done

die() {
	echo "run.sh: $*" >&2
	exit 1
}

now() {
	date +%s
}

# Wall time of each step, printed in the summary.
steps=()
step_start=$(now)
run_start=$step_start
step_done() {
	local t
	t=$(now)
	steps+=("$(printf '%-12s %5d s' "$1" $((t - step_start)))")
	step_start=$t
}

build_args=()
if [ "$vanilla" = 1 ]; then
	variant=vanilla
	expect=vanilla
else
	# Not "patched": the gate builds that one, without modules, and
	# compares it with a vanilla kernel of the same configuration.
	variant=patched-lsm
	expect=patched
	if [ ! -r "$repo/kernel-patch/series" ]; then
		die "kernel-patch/series is missing: the hijack patch series is not in the tree yet, nothing to test (run.sh --vanilla tests the harness alone)"
	fi
	# build-kernel.sh merges kernel-patch/config itself.
	build_args+=(-c "$here/config/lsm.config")
fi
# Each boot: the module, and the suites it runs (empty: all).
boots=()
if [ "$vanilla" = 1 ]; then
	boots=("none:")
else
	for b in apparmor: selinux:hijack_test,hijack_lsm_test smack:hijack_lsm_test; do
		[ -z "$only_lsm" ] || [ "${b%%:*}" = "$only_lsm" ] && boots+=("$b")
	done
	[ ${#boots[@]} -gt 0 ] || die "--lsm $only_lsm: not one of apparmor, selinux, smack"
fi
if [ "$debug" = 1 ]; then
	variant=$variant-debug
	build_args+=(-c "$here/config/debug.config")
fi
out=$kcache/out/$variant
mkdir -p "$out"
# Two runs of one variant would share the O= directory (kselftest, headers)
# and the console log: let the second wait for the first.
exec 8>"$out/.lock"
if ! flock -n 8; then
	echo "run.sh: another run of $variant is in progress, waiting" >&2
	flock 8
fi

# --- kernel ------------------------------------------------------------------

echo "run.sh: building the $variant kernel" >&2
if [ "$vanilla" = 1 ]; then
	image=$("$here/build-kernel.sh" -q ${build_args[@]+"${build_args[@]}"} "$variant" | tail -n1)
else
	image=$("$here/build-kernel.sh" -q ${build_args[@]+"${build_args[@]}"} "$variant" "$repo/kernel-patch" | tail -n1)
fi
[ -f "$image" ] || die "build-kernel.sh gave no image"
kout=$kcache/build/$variant
ksrc=$(readlink -f "$kout/source")
step_done kernel

# --- kselftest ---------------------------------------------------------------

selftests=()
stdir=$ksrc/tools/testing/selftests/hijack
if [ -d "$stdir" ]; then
	echo "run.sh: building the kselftest in $stdir" >&2
	make -s -C "$ksrc" O="$kout" ARCH=x86_64 headers_install >&2
	stout=$kout/kselftest/hijack
	rm -rf "$stout"
	mkdir -p "$stout"
	# The selftest's own Makefile (lib.mk) knows its flags and libraries;
	# we add only static linking and the headers of this very kernel.
	make -C "$stdir" OUTPUT="$stout" ARCH=x86_64 \
		KHDR_INCLUDES="-isystem $kout/usr/include" LDFLAGS=-static >&2 ||
		die "the kselftest does not build"
	# shellcheck disable=SC2016 # make expands these, not the shell
	printf 'hijack-print-progs:\n\t@echo $(notdir $(TEST_GEN_PROGS))\n' >"$stout/print.mk"
	progs=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$stdir" -f Makefile -f "$stout/print.mk" OUTPUT="$stout" \
		hijack-print-progs)
	for p in $progs; do
		[ -x "$stout/$p" ] || die "kselftest program $p was not built"
		selftests+=(-k "$stout/$p")
	done
	[ ${#selftests[@]} -gt 0 ] || die "$stdir builds no TEST_GEN_PROGS"
elif [ "$vanilla" = 0 ]; then
	die "the patched tree has no tools/testing/selftests/hijack/"
fi
step_done kselftest

# --- initramfs ---------------------------------------------------------------

payload=()
if [ -n "${HIJACK_PAYLOAD:-}" ]; then
	[ -d "$HIJACK_PAYLOAD" ] || die "HIJACK_PAYLOAD=$HIJACK_PAYLOAD is not a directory"
	payload=(-p "$HIJACK_PAYLOAD")
fi
if [ "$vanilla" = 0 ]; then
	"$here/lsm-policy.sh" -O "$kout" -o "$out/lsm"
	payload+=(-l "$out/lsm")
fi
"$here/mkinitramfs.sh" -O "$kout" -o "$out/initramfs.cpio.gz" \
	${selftests[@]+"${selftests[@]}"} ${payload[@]+"${payload[@]}"}
step_done initramfs

# --- boot and judge ------------------------------------------------------------

check_rc=0
logs=()
for b in "${boots[@]}"; do
	lsm=${b%%:*}
	suites=${b#*:}
	words=(-a "hijack_expect=$expect")
	if [ "$lsm" = none ]; then
		log=$out/console.log
		ktap=$out/result.ktap
	else
		log=$out/console-$lsm.log
		ktap=$out/result-$lsm.ktap
		words+=(-a "lsm=capability,$lsm" -a "hijack_lsm=$lsm")
	fi
	[ -z "$suites" ] || words+=(-a "hijack_suites=$suites")
	echo "run.sh: booting${lsm:+ with $lsm}: ${suites:-every suite}" >&2
	boot_rc=0
	"$here/boot.sh" -l "$log" -t "${HIJACK_BOOT_TIMEOUT:-1200}" \
		"${words[@]}" ${boot_opts[@]+"${boot_opts[@]}"} \
		"$image" "$out/initramfs.cpio.gz" || boot_rc=$?
	step_done "boot $lsm"

	rc=0
	"$here/ktap-check.sh" -o "$ktap" "$log" || rc=$?
	[ "$boot_rc" = 0 ] || { echo "run.sh: QEMU exited with status $boot_rc" >&2; rc=1; }
	if [ "$rc" != 0 ]; then
		check_rc=1
		# Enough context for a CI log without opening the console file.
		echo
		echo "run.sh: last lines of the console ($lsm):"
		tr -d '\r' <"$log" | tail -n 25 | sed 's/^/  | /'
	fi
	logs+=("$(printf '%-8s %s  %s' "$lsm" "$([ $rc = 0 ] && echo PASS || echo FAIL)" "$log")")
done
echo
echo "check-kernel summary ($variant)"
echo "  kernel   $image"
printf '  boot     %s\n' "${logs[@]}"
printf '  %s\n' "${steps[@]}"
printf '  %-12s %5d s\n' total $(($(now) - run_start))
if [ "$check_rc" = 0 ]; then
	echo "  result   PASS"
else
	echo "  result   FAIL"
fi
exit "$check_rc"
}
