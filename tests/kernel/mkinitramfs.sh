#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkinitramfs.sh - pack the test initramfs with the kernel's gen_init_cpio.
#
# usage: mkinitramfs.sh [-O KBUILD_OUT] -o OUTPUT.cpio.gz [-k BINARY]...
#                       [-p PAYLOAD_DIR] [-l LSM_DIR] [-i INIT] [-b BUSYBOX]
#
#   -O DIR   a kernel O= build directory or source tree, for gen_init_cpio
#            (default: the pristine tree in $HIJACK_KCACHE, so a prebuilt
#            bzImage can be booted too)
#   -o FILE  gzip-compressed cpio archive to write
#   -k BIN   static kselftest binary, installed in /usr/lib/kselftest/
#            (repeatable; /init runs each one as a suite)
#   -p DIR   payload copied to /opt/hijack (static hijack CLI, integration
#            tests, /opt/hijack/run-tests printing TAP, run-<mode> entries)
#   -l DIR   test policies for hijack_lsm= (lsm-policy.sh), copied to
#            /usr/lib/hijack-lsm
#   -i FILE  /init script (default: init.sh next to this script)
#   -b FILE  static busybox (default: busybox-static's /bin/busybox)
#
# gen_init_cpio writes device nodes and ownership from a list, so no root
# privilege is needed and the archive is the same on every run (fixed
# timestamp, sorted payload, gzip -n).

set -eu

# Read the whole script before running any of it: bash reads a script as
# it goes, and the gate runs for hours while the tree may be edited.
{

here=$(cd "$(dirname "$0")" && pwd)
kout=
output=
payload=
lsmdir=
init=$here/init.sh
busybox=${HIJACK_BUSYBOX:-/bin/busybox}
selftests=()

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

usage() {
	sed -n '4,21s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while getopts O:o:k:p:l:i:b: opt; do
	case $opt in
	O) kout=$OPTARG ;;
	o) output=$OPTARG ;;
	k) selftests+=("$OPTARG") ;;
	p) payload=$OPTARG ;;
	l) lsmdir=$OPTARG ;;
	i) init=$OPTARG ;;
	b) busybox=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 0 ] || [ -z "$output" ]; then
	usage
fi
[ -r "$init" ] || die "cannot read $init"

# A dynamically linked binary would fail in the guest with a bare
# "not found": refuse it here instead.
require_static() {
	if [ ! -f "$1" ] || [ ! -x "$1" ]; then
		die "$1 is not an executable file"
	fi
	if LC_ALL=C readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'; then
		die "$1 is dynamically linked; build it with -static"
	fi
}
require_static "$busybox"
for t in ${selftests[@]+"${selftests[@]}"}; do
	require_static "$t"
done

# gen_init_cpio is a host program of the kernel tree; kbuild builds it
# only when it packs a built-in initramfs, so build it ourselves if needed.
if [ -n "$kout" ]; then
	[ -d "$kout" ] || die "no kernel directory $kout"
	gen=$kout/usr/gen_init_cpio
	srcfile=$kout/source/usr/gen_init_cpio.c
	[ -r "$srcfile" ] || srcfile=$kout/usr/gen_init_cpio.c
else
	kcache=${HIJACK_KCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel}
	gen=$kcache/bin/gen_init_cpio
	srcfile=
	for f in "$kcache"/src/pristine-*/usr/gen_init_cpio.c; do
		[ -r "$f" ] && srcfile=$f
	done
	[ -n "$srcfile" ] || die "no -O and no kernel tree in $kcache: run build-kernel.sh once"
fi
if [ ! -x "$gen" ]; then
	[ -r "$srcfile" ] || die "no $gen and no source to build it"
	mkdir -p "$(dirname "$gen")"
	${HOSTCC:-cc} -O2 -o "$gen" "$srcfile"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
list=$tmp/list

# Names go into a whitespace-separated list: refuse what it cannot carry.
check_name() {
	# shellcheck disable=SC2016 # a literal ${, which gen_init_cpio expands
	case $1 in
	*[[:space:]]*|*'${'*) die "cannot pack a file name with blanks or \${: '$1'" ;;
	esac
}

emit_tree() {
	# $1: host directory, $2: path in the archive
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort) | while read -r rel; do
		rel=${rel#./}
		check_name "$rel"
		host=$1/$rel
		dest=$2/$rel
		mode=$(stat -c %a "$host")
		if [ -L "$host" ]; then
			echo "slink $dest $(readlink "$host") 0777 0 0"
		elif [ -d "$host" ]; then
			echo "dir $dest $mode 0 0"
		elif [ -f "$host" ]; then
			echo "file $dest $host $mode 0 0"
		else
			die "cannot pack $host: not a file, directory or symlink"
		fi
	done
}

# Tests that switch to an unprivileged user look it up by name.
mkdir "$tmp/etc"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
	'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$tmp/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$tmp/etc/group"

{
	echo "dir /dev 0755 0 0"
	# Without /dev/console in the archive, init has no stdout.
	echo "nod /dev/console 0600 0 0 c 5 1"
	for d in /bin /sbin /usr /usr/bin /usr/sbin /usr/lib /usr/lib/kselftest \
		 /proc /sys /tmp /etc /root /opt /mnt /run /var; do
		echo "dir $d 0755 0 0"
	done
	echo "file /etc/passwd $tmp/etc/passwd 0644 0 0"
	echo "file /etc/group $tmp/etc/group 0644 0 0"
	echo "file /init $(cd "$(dirname "$init")" && pwd)/$(basename "$init") 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	"$busybox" --list-full | LC_ALL=C sort | while read -r applet; do
		[ "$applet" = bin/busybox ] && continue
		echo "slink /$applet /bin/busybox 0777 0 0"
	done
	for t in ${selftests[@]+"${selftests[@]}"}; do
		echo "file /usr/lib/kselftest/$(basename "$t") $(cd "$(dirname "$t")" && pwd)/$(basename "$t") 0755 0 0"
	done
	if [ -n "$payload" ]; then
		[ -d "$payload" ] || die "payload $payload is not a directory"
		echo "dir /opt/hijack 0755 0 0"
		emit_tree "$(cd "$payload" && pwd)" /opt/hijack
	fi
	if [ -n "$lsmdir" ]; then
		[ -d "$lsmdir" ] || die "LSM directory $lsmdir is not a directory"
		echo "dir /usr/lib/hijack-lsm 0755 0 0"
		emit_tree "$(cd "$lsmdir" && pwd)" /usr/lib/hijack-lsm
	fi
} >"$list"

"$gen" -t "${SOURCE_DATE_EPOCH:-0}" "$list" | gzip -n -9 >"$output.tmp"
mv "$output.tmp" "$output"
echo "mkinitramfs: $output ($(stat -c %s "$output") bytes)" >&2
exit
}
