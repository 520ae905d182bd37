#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot.sh - boot a test kernel under QEMU and capture its serial console.
#
# usage: boot.sh [options] BZIMAGE INITRAMFS
#        boot.sh --probe BZIMAGE INITRAMFS    print "kvm" or "tcg" and exit
#
#   -l FILE     serial log (default: ./boot.log); the first line records
#               how the guest was started
#   -t SECONDS  kill QEMU after this long (default 1200)
#   -a WORDS    extra kernel command-line words (repeatable), e.g.
#               "hijack_mode=bench" or "hijack_cgroup=hybrid"
#   -I          instruction clock: -icount shift=0,sleep=off,align=off
#               -rtc clock=vm, and guest "norandmaps nokaslr"
#   -s N        virtual CPUs (default 1)
#   -m SIZE     guest memory (default 1G)
#   -q ARG      extra QEMU argument (repeatable)
#   -v          copy the console to stdout while it runs
#   -i          interactive: a shell on the console (hijack_mode=shell),
#               no timeout, no log
#
# Accelerator: HIJACK_ACCEL=tcg|kvm forces one. Otherwise KVM is used only
# if /dev/kvm exists, HIJACK_KVM is not 0, and a short probe boot reaches
# init's first line: some hosts (nested PVM) expose a /dev/kvm that cannot
# boot an ordinary guest. Callers that boot many times run --probe once
# and export HIJACK_ACCEL with the answer.
#
# Exit status: QEMU's (0 after the guest's reboot -f), 124 on timeout.
# Whether the tests passed is for ktap-check.sh to say from the log.

set -eu

# Read the whole script before running any of it: bash reads a script as
# it goes, and the gate runs for hours while the tree may be edited.
{

qemu=${HIJACK_QEMU:-qemu-system-x86_64}
probe_secs=${HIJACK_KVM_PROBE_SECS:-15}
log=boot.log
limit=1200
icount=0
smp=1
mem=1G
verbose=0
probe_only=0
interactive=0
words=()
qargs=()

die() {
	echo "boot: $*" >&2
	exit 1
}

usage() {
	sed -n '4,22s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

if [ "${1:-}" = --probe ]; then
	probe_only=1
	shift
fi
while getopts l:t:a:Is:m:q:vi opt; do
	case $opt in
	l) log=$OPTARG ;;
	t) limit=$OPTARG ;;
	a) words+=("$OPTARG") ;;
	I) icount=1 ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	q) qargs+=("$OPTARG") ;;
	v) verbose=1 ;;
	i) interactive=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
kernel=$1
initrd=$2
[ -r "$kernel" ] || die "cannot read kernel $kernel"
[ -r "$initrd" ] || die "cannot read initramfs $initrd"
command -v "$qemu" >/dev/null || die "$qemu not found (apt-get install qemu-system-x86)"

# oops=panic and panic=-1: after an oops the guest is not trustworthy;
# rebooting at once (QEMU exits, -no-reboot) loses the sentinel line, which
# ktap-check.sh reports as a dead VM together with the oops itself.
cmdline="console=ttyS0 panic=-1 oops=panic"

# Arguments common to the probe and the real boot.
base_args() {
	# $1: accelerator
	printf '%s\n' -nodefaults -no-user-config -display none -no-reboot \
		-serial stdio -m "$mem" -smp "$smp" -kernel "$kernel" -initrd "$initrd"
	case $1 in
	kvm) printf '%s\n' -accel kvm -cpu host ;;
	tcg) printf '%s\n' -accel tcg ;;
	esac
}

probe_kvm() {
	local out
	[ "${HIJACK_KVM:-1}" != 0 ] || return 1
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	# A working KVM reaches init in a second or two; a broken one
	# emulates for minutes and then dies. Looking for init's first
	# line is the only test that tells them apart.
	out=$(mapfile -t a < <(base_args kvm)
	      timeout -s KILL "$probe_secs" "$qemu" "${a[@]}" \
		-append "$cmdline hijack_mode=probe" </dev/null 2>&1) || true
	grep -aq HIJACK-INIT-START <<<"$out"
}

accel=${HIJACK_ACCEL:-}
case $accel in
kvm|tcg) ;;
'')
	if probe_kvm; then accel=kvm; else accel=tcg; fi
	echo "boot: KVM probe: $accel" >&2
	;;
*) die "HIJACK_ACCEL must be kvm or tcg, not $accel" ;;
esac
if [ "$probe_only" = 1 ]; then
	echo "$accel"
	exit 0
fi

mapfile -t args < <(base_args "$accel")
if [ "$icount" = 1 ]; then
	[ "$accel" = tcg ] || die "the instruction clock (-I) needs TCG: set HIJACK_ACCEL=tcg"
	# Guest time advances with executed instructions only; with the
	# address space layout fixed, runs become repeatable
	# (gate/README.md).
	args+=(-icount "shift=0,sleep=off,align=off" -rtc "clock=vm")
	cmdline="$cmdline norandmaps nokaslr"
fi
for w in ${words[@]+"${words[@]}"}; do
	cmdline="$cmdline $w"
done
if [ "$interactive" = 1 ]; then
	cmdline="$cmdline hijack_mode=shell"
	# Ctrl-A X quits; Ctrl-A C reaches the QEMU monitor.
	exec "$qemu" "${args[@]/#stdio/mon:stdio}" -append "$cmdline" ${qargs[@]+"${qargs[@]}"}
fi
args+=(-append "$cmdline")
args+=(${qargs[@]+"${qargs[@]}"})

echo "# boot.sh: accel=$accel icount=$icount smp=$smp mem=$mem kernel=$kernel cmdline=$cmdline" >"$log"
echo "boot: accel=$accel icount=$icount, log $log" >&2
start=$(date +%s.%N)
rc=0
if [ "$verbose" = 1 ]; then
	# The pipeline's status is tee's: take QEMU's from PIPESTATUS.
	timeout -s KILL "$limit" "$qemu" "${args[@]}" </dev/null 2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
else
	timeout -s KILL "$limit" "$qemu" "${args[@]}" </dev/null >>"$log" 2>&1 || rc=$?
fi
# timeout -s KILL reports 137; say 124 like plain timeout does.
[ "$rc" = 137 ] && rc=124
end=$(date +%s.%N)
printf 'boot: QEMU exited %d after %.1f s (accel=%s icount=%d)\n' \
	"$rc" "$(echo "$end - $start" | bc)" "$accel" "$icount" >&2
exit "$rc"
}
