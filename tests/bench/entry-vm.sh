#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entry-vm.sh - `make bench-entry-vm`: what an entry into a container costs
# on the patched kernel, each way, on the instruction clock.
#
# usage: entry-vm.sh [-o DIR] [-n SAMPLES] [-m MS] [-k BZIMAGE] BUILDDIR
#
#   -o DIR      results: console.log, entry.txt (default BUILDDIR/entry-vm)
#   -n SAMPLES  samples per row (default 5)
#   -m MS       minimum batch length in guest milliseconds (default 300)
#   -k BZIMAGE  a patched kernel already built (default: build-kernel.sh
#               patched kernel-patch/, from its cache when it has one)
#
# The guest (run-entry.sh) starts a target in seven fresh namespaces and a
# child cgroup, and times six ways of starting one static program inside
# it: plain fork+exec (no entry, the floor), hijack(2) and the setns(pidfd)
# path with no tool around them, the hijack CLI by either method, and
# nsenter -a.  On the instruction clock a guest nanosecond is one
# instruction, so one boot gives figures that repeat to a fraction of a
# percent and no host load changes them.
#
# Exit status 0 with the table printed, 1 when the boot or a row failed.

set -eu
set -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
kernel_dir=$repo/tests/kernel
out=
samples=5
minbatch=300
image=

die() {
	echo "entry-vm: $*" >&2
	exit 1
}

usage() {
	sed -n '6,13s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while getopts o:n:m:k:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	n) samples=$OPTARG ;;
	m) minbatch=$OPTARG ;;
	k) image=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
builddir=$(cd "$1" && pwd)
whole() { # OPTION VALUE
	case $2 in '' | 0* | *[!0-9]*) die "$1: '$2' is not a whole number above 0" ;; esac
}
whole -n "$samples"
whole -m "$minbatch"
out=${out:-$builddir/entry-vm}
mkdir -p "$out"

for p in tests/bench/entrybench tests/bench/exit0; do
	[ -x "$builddir/$p" ] || die "no $builddir/$p: run make first"
done

# --- the kernel ----------------------------------------------------------------
kcache=${HIJACK_KCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel}
export HIJACK_KCACHE=$kcache
if [ -z "$image" ]; then
	image=$("$kernel_dir/build-kernel.sh" -q patched "$repo/kernel-patch" | tail -n1)
fi
[ -f "$image" ] || die "no kernel image at $image"
# Its build tree has gen_init_cpio; a given image may have none there.
kout=$kcache/build/patched
[ -d "$kout" ] || kout=

# --- the payload -----------------------------------------------------------------
# hijack (libtool's real binary) and util-linux's nsenter (the comparison)
# and unshare (busybox's has no --time) are dynamically linked: each goes
# with its libraries, and the guest links the loader where they look.
payload=$out/payload
rm -rf "$payload"
mkdir -p "$payload/bin" "$payload/lib" "$payload/libexec"
with_libs() { # BINARY DEST
	local lib
	cp "$1" "$2"
	for lib in $(LD_LIBRARY_PATH=$builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$1" |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'); do
		cp -L "$lib" "$payload/lib/"
		case $lib in */ld-linux*) basename "$lib" >"$payload/lib/LOADER" ;; esac
	done
}
hijack=$builddir/src/cli/.libs/hijack
[ -x "$hijack" ] || hijack=$builddir/src/cli/hijack
with_libs "$hijack" "$payload/libexec/hijack"
for tool in nsenter unshare; do
	path=$(command -v "$tool") || die "no $tool on this machine"
	with_libs "$path" "$payload/bin/$tool"
done
[ -s "$payload/lib/LOADER" ] || die "no dynamic loader found for $hijack"
cp "$builddir/tests/bench/entrybench" "$payload/bin/entrybench"
cp "$builddir/tests/bench/exit0" "$payload/bin/true"
cp "$here/run-entry.sh" "$payload/run-entry"
chmod 755 "$payload/run-entry" "$payload/bin/"* "$payload/libexec/hijack"
"$kernel_dir/mkinitramfs.sh" ${kout:+-O "$kout"} -o "$out/initramfs.cpio.gz" -p "$payload"

# --- the boot --------------------------------------------------------------------
log=$out/console.log
echo "entry-vm: booting $(basename "$image") on the instruction clock" >&2
rc=0
"$kernel_dir/boot.sh" -I -t "${HIJACK_BOOT_TIMEOUT:-3600}" -l "$log" \
	-a hijack_mode=entry -a "en_samples=$samples" -a "en_minbatch=$minbatch" \
	"$image" "$out/initramfs.cpio.gz" || rc=$?
tr -d '\r' <"$log" | sed -n '/^ENTRY-BEGIN$/,/^ENTRY-END$/p' | grep '^ENTRY-ROW ' >"$out/rows" || true
if [ "$rc" != 0 ] || [ "$(wc -l <"$out/rows")" != 6 ]; then
	tr -d '\r' <"$log" | tail -n 20 | sed 's/^/  | /' >&2
	die "the guest gave $(wc -l <"$out/rows") of 6 rows (QEMU exit status $rc)"
fi

# --- the table -------------------------------------------------------------------
awk -v samples="$samples" '
{ label[NR] = $2; ns[$2] = $3 }
function ratio(a, b) { return sprintf("%.3f", ns[a] / ns[b]) }
END {
	printf "entry into a target in 7 fresh namespaces and a child cgroup\n"
	printf "(instruction clock: 1 ns = 1 guest instruction; median of %d samples)\n\n", samples
	printf "| %-20s | %12s | %14s |\n", "way in", "µs per entry", "× fork+exec"
	printf "|%s|%s|%s|\n", "----------------------", "-------------:", "---------------:"
	for (i = 1; i <= NR; i++)
		printf "| %-20s | %12.1f | %14s |\n", label[i], ns[label[i]] / 1000, ratio(label[i], "fork+exec")
	printf "\n"
	printf "hijack(2) / setns(pidfd) path:          %s\n", ratio("hijack-2", "setns-pidfd")
	printf "hijack CLI, syscall / pidfd method:     %s\n", ratio("hijack-cli-syscall", "hijack-cli-pidfd")
	printf "hijack CLI (syscall) / nsenter -a:      %s\n", ratio("hijack-cli-syscall", "nsenter-a")
	printf "hijack(2) / fork+exec (target <= 1.3):  %s\n", ratio("hijack-2", "fork+exec")
}' "$out/rows" | tee "$out/entry.txt"
