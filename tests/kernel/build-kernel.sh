#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-kernel.sh - build a bzImage for QEMU tests, incrementally.
#
# usage: build-kernel.sh [-c FRAGMENT]... [-q] NAME [SERIES_DIR]
#
#   NAME        build variant (e.g. vanilla, patched, patched-debug); names
#               the source copy and the O= build directory in the cache
#   SERIES_DIR  a directory holding `series` and the patches it lists,
#               applied with patch -p1 in order; omit for vanilla. Its
#               `config` file, if any, is merged after config/base.config
#               (the options the series needs, e.g. CONFIG_HIJACK=y)
#   -c FRAG     extra Kconfig fragment, merged after those
#               (repeatable; later fragments win)
#   -q          quieter make output
#
# Environment:
#   HIJACK_KCACHE   cache dir (default ${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel)
#   HIJACK_KSRC     source tarball (default /usr/src/linux-source-6.12.tar.*)
#   HIJACK_JOBS     make -j (default: number of CPUs)
#   SOURCE_DATE_EPOCH  build timestamp recorded in the kernel (default 0)
#
# Prints the path of the bzImage on the last line of stdout; everything
# else goes to stderr. An immutable copy, named by its sha256, is kept in
# $HIJACK_KCACHE/images/NAME-<sha256:12>.bzImage (NAME.bzImage links to the
# latest): boot that one when the kernel must not change during a run.
#
# Cache layout ($HIJACK_KCACHE):
#   src/pristine-<ver>/   the tarball, extracted once, never modified
#   src/<NAME>/           hard-link copy of pristine with the series applied
#   build/<NAME>/         O= directory (objects, .config, bzImage)
#   images/               immutable bzImage copies
# The pristine tree is shared by hard links, so a patch must never write
# to a file in place: GNU patch writes a new file and renames it over the
# old one, which breaks the link; apply_series() verifies that.

set -eu

# Read the whole script before running any of it: bash reads a script as
# it goes, and the gate runs for hours while the tree may be edited.
{

here=$(cd "$(dirname "$0")" && pwd)
kcache=${HIJACK_KCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel}
jobs=${HIJACK_JOBS:-$(nproc)}
quiet=
frags=("$here/config/base.config")

die() {
	echo "build-kernel: $*" >&2
	exit 1
}

log() {
	echo "build-kernel: $*" >&2
}

while getopts c:q opt; do
	case $opt in
	c) [ -r "$OPTARG" ] || die "cannot read fragment $OPTARG"
	   frags+=("$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG")") ;;
	q) quiet=-s ;;
	*) sed -n '4,18s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	sed -n '4,18s/^# \{0,1\}//p' "$0" >&2
	exit 2
fi
name=$1
series_dir=${2:-}
case $name in
''|*/*|.*) die "bad variant name '$name'" ;;
esac
if [ -n "$series_dir" ]; then
	[ -r "$series_dir/series" ] || die "no series file in $series_dir"
	series_dir=$(cd "$series_dir" && pwd)
	# Right after the base, so that -c fragments can still override it.
	# Every caller (check-kernel, the gate) then builds the series with
	# the options it needs, without having to know about them.
	if [ -r "$series_dir/config" ]; then
		frags=("${frags[0]}" "$series_dir/config" "${frags[@]:1}")
	fi
fi

# Identical sources must give identical images: kbuild otherwise records
# the time, user and host of the build in the version string.
export KBUILD_BUILD_TIMESTAMP
KBUILD_BUILD_TIMESTAMP=$(date -u -d "@${SOURCE_DATE_EPOCH:-0}" '+%a %b %e %T UTC %Y')
export KBUILD_BUILD_USER=hijack KBUILD_BUILD_HOST=hijack KBUILD_BUILD_VERSION=1
# Keep the path of the cache out of the image's strings (kbuild already
# maps $(srctree) away with -fmacro-prefix-map).
export LC_ALL=C

mkdir -p "$kcache/src" "$kcache/build"
exec 9>"$kcache/.lock"
# One builder at a time per cache: the pristine tree and variant trees
# are shared state.
flock 9

# --- pristine tree ------------------------------------------------------

tarball=${HIJACK_KSRC:-}
if [ -z "$tarball" ]; then
	for t in /usr/src/linux-source-6.12.tar.*; do
		[ -e "$t" ] && tarball=$t
	done
fi
if [ -z "$tarball" ] || [ ! -r "$tarball" ]; then
	die "no kernel source tarball (apt-get install linux-source-6.12, or set HIJACK_KSRC)"
fi

# Keyed by size and mtime: a new Debian upload gives a new pristine tree
# and, through the stamps below, new variant trees.
tarkey=$(stat -L -c '%s-%Y' "$tarball")
pristine=
for d in "$kcache"/src/pristine-*; do
	if [ -f "$d/.hijack-tarkey" ] && [ "$(cat "$d/.hijack-tarkey")" = "$tarkey" ]; then
		pristine=$d
	fi
done
if [ -z "$pristine" ]; then
	log "extracting $tarball"
	tmp=$(mktemp -d "$kcache/src/.extract.XXXXXX")
	tar -C "$tmp" -xf "$tarball"
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
	[ -f "$top/Makefile" ] || die "unexpected tarball layout in $tarball"
	ver=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$top" kernelversion 2>/dev/null) || ver=$tarkey
	echo "$tarkey" >"$top/.hijack-tarkey"
	[ -e "$kcache/src/pristine-$ver" ] && rm -rf "$kcache/src/pristine-$ver"
	mv "$top" "$kcache/src/pristine-$ver"
	rmdir "$tmp"
	pristine=$kcache/src/pristine-$ver
fi
log "pristine tree $pristine"

# --- variant source tree --------------------------------------------------

# Print the patch files of a series, in order (quilt syntax: one name per
# line, # comments, optional -pN which we do not support).
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series" |
	while read -r p opt; do
		[ -z "${opt:-}" ] || [ "$opt" = -p1 ] || die "unsupported option '$opt' in series"
		[ -r "$1/$p" ] || die "series lists $p, which is missing"
		printf '%s\n' "$1/$p"
	done
}

# Files a patch touches, relative to the tree (git and plain diffs).
patch_files() {
	sed -n -e 's#^+++ b/##p' -e 's#^--- a/##p' \
		-e 's#^rename from ##p' -e 's#^rename to ##p' \
		-e 's#^copy to ##p' "$@" | sed 's/\t.*//' | sort -u
}

# Replace a hard link by a private copy with a fresh mtime, so make sees
# the file as changed and the pristine inode stays untouched.
unshare_file() {
	if [ -f "$1" ]; then
		cp -p "$1" "$1.hijack-tmp"
		touch "$1.hijack-tmp"
		mv -f "$1.hijack-tmp" "$1"
	fi
}

src=$pristine
if [ -n "$series_dir" ]; then
	src=$kcache/src/$name
	mapfile -t patches < <(series_patches "$series_dir")
	[ ${#patches[@]} -gt 0 ] || die "$series_dir/series lists no patch"
	want=$( { echo "$tarkey"; cat "${patches[@]}"; } | sha256sum | cut -d' ' -f1)
	have=$(cat "$src/.hijack-series-hash" 2>/dev/null || true)
	if [ "$want" != "$have" ]; then
		log "applying ${#patches[@]} patch(es) from $series_dir"
		stale=
		[ -f "$src/.hijack-series-files" ] && stale=$(cat "$src/.hijack-series-files")
		rm -rf "$src.tmp"
		cp -al "$pristine" "$src.tmp"
		rm -f "$src.tmp/.hijack-tarkey"
		for p in "${patches[@]}"; do
			log "  $(basename "$p")"
			if ! patch -d "$src.tmp" -p1 -N -s --no-backup-if-mismatch \
				-i "$p" >&2; then
				rm -rf "$src.tmp"
				die "$(basename "$p") does not apply"
			fi
		done
		new=$(patch_files "${patches[@]}")
		# A patched file that still shares its inode with pristine was
		# written in place: the pristine tree is corrupt.
		for f in $new; do
			if [ -f "$src.tmp/$f" ] && [ -f "$pristine/$f" ] &&
			   [ "$src.tmp/$f" -ef "$pristine/$f" ] &&
			   ! grep -q "^rename from $f\$" "${patches[@]}"; then
				die "patch modified $f in place, pristine tree is corrupt: rm -rf $pristine"
			fi
		done
		# make decides by mtime, so give every file the series touches
		# (now or before) an mtime that tells the truth about its
		# content compared with the previous tree:
		# - same content: keep the old mtime, so that editing a commit
		#   message or only the selftest rebuilds nothing (patch stamps
		#   every file it writes with the current time);
		# - a file the old series changed and the new one does not is
		#   back to pristine content with pristine's old mtime, older
		#   than the objects built from the patched version: give it a
		#   fresh mtime (on a private copy, pristine is shared).
		if [ -d "$src" ]; then
			for f in $(printf '%s\n' "$stale" "$new" | sort -u); do
				[ -f "$src.tmp/$f" ] || continue
				if [ -f "$src/$f" ] && cmp -s "$src/$f" "$src.tmp/$f"; then
					if printf '%s\n' "$new" | grep -Fxq "$f" &&
					   ! [ "$src.tmp/$f" -ef "$pristine/$f" ]; then
						touch -r "$src/$f" "$src.tmp/$f"
					fi
				elif ! printf '%s\n' "$new" | grep -Fxq "$f"; then
					unshare_file "$src.tmp/$f"
				fi
			done
			rm -rf "$src"
		fi
		printf '%s\n' "$new" >"$src.tmp/.hijack-series-files"
		echo "$want" >"$src.tmp/.hijack-series-hash"
		mv "$src.tmp" "$src"
	else
		log "series unchanged, reusing $src"
	fi
fi

# --- configuration --------------------------------------------------------

out=$kcache/build/$name
# Objects built from another tarball may be newer than the new sources'
# mtimes (tar keeps the upstream ones): start such a build dir afresh.
if [ -f "$out/.hijack-tarkey" ] && [ "$(cat "$out/.hijack-tarkey")" != "$tarkey" ]; then
	log "new source tarball: cleaning $out"
	rm -rf "$out"
fi
mkdir -p "$out"
echo "$tarkey" >"$out/.hijack-tarkey"
kmake() {
	make $quiet -C "$src" O="$out" ARCH=x86_64 -j"$jobs" "$@" >&2
}

# Regenerate .config only when an input changed, so an unchanged rebuild
# does not even run Kconfig.
# The result of Kconfig depends on the fragments and on the Kconfig files
# (and the defconfig fragments tinyconfig reads), not on the rest of the
# series: a change to C code or to a commit message keeps .config.
kconfig_inputs() {
	local f
	[ -f "$src/.hijack-series-files" ] || return 0
	while read -r f; do
		case $f in
		*Kconfig*|*/configs/*)
			echo "$f"
			[ -f "$src/$f" ] && cat "$src/$f"
			;;
		esac
	done <"$src/.hijack-series-files"
}
cfgkey=$( { echo "$tarkey"; kconfig_inputs; cat "${frags[@]}"; } |
	sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.hijack-config-key" 2>/dev/null)" != "$cfgkey" ]; then
	log "configuring: tinyconfig + ${frags[*]##*/}"
	rm -f "$out/.hijack-config-key"
	kmake tinyconfig
	# merge_config.sh reports every symbol a fragment redefines (about a
	# hundred on top of tinyconfig): keep that in a file, shown on error.
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		"${frags[@]}" >"$out/.hijack-merge.log" 2>&1 ||
		{ cat "$out/.hijack-merge.log" >&2; die "merge_config.sh failed"; }
	kmake olddefconfig

	# Kconfig silently drops what a dependency forbids: check that the
	# last word of every fragment on each symbol is what .config says.
	missing=$(cat "${frags[@]}" |
		sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' |
		awk '{ want[$1] = $2 } END { for (s in want) print s, want[s] }' |
		sort | while read -r sym val; do
			if [ "$val" = n ]; then
				grep -Eq "^$sym=[ym]\$" "$out/.config" && echo "$sym=n (is $(grep "^$sym=" "$out/.config"))"
			else
				grep -Fxq "$sym=$val" "$out/.config" || echo "$sym=$val (is $(grep "^$sym=" "$out/.config" || echo unset))"
			fi
		done) || true
	if [ -n "$missing" ]; then
		echo "build-kernel: fragment lines missing from .config:" >&2
		printf '%s\n' "$missing" | sed "s/^/  /" >&2
		exit 1
	fi
	echo "$cfgkey" >"$out/.hijack-config-key"
fi

# --- build ----------------------------------------------------------------

log "make bzImage in $out (-j$jobs)"
kmake bzImage
image=$out/arch/x86/boot/bzImage
[ -f "$image" ] || die "no bzImage after build"
# kbuild rewrites bzImage in place, under the feet of anyone booting it.
# Publish an immutable copy named by content, for runs that must boot the
# same kernel for hours (the gate), plus a symlink to the latest one.
mkdir -p "$kcache/images"
sum=$(sha256sum "$image" | cut -c1-12)
copy=$kcache/images/$name-$sum.bzImage
if [ ! -f "$copy" ]; then
	cp "$image" "$copy.tmp"
	mv "$copy.tmp" "$copy"
fi
ln -sfn "${copy##*/}" "$kcache/images/$name.bzImage"
log "$(cat "$out/include/config/kernel.release") built: $image"
log "immutable copy: $copy"
echo "$image"
exit
}
