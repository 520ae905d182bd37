#!/bin/sh
# abi.sh - ABI discipline: abidiff compares the built libhijack with the
# baseline abi/libhijack.abi (abidw output kept in the tree).  An
# incompatible change under the same soname fails; with a bumped soname it
# passes and says to refresh the baseline ("make abi-baseline").  An
# added function passes and says the same.  abi/libhijack.suppr lists what
# is not ABI (the opaque struct hijack_target).
# Environment from make check: top_builddir, TESTDIR.
. "${TESTDIR:-$(dirname "$0")/../integration}/lib.sh"

src=$TESTDIR/../..
baseline=${ABI_BASELINE:-$src/abi/libhijack.abi}
# The built library by its soname, as libtool recorded it.
dlname=$(sed -n "s/^dlname='\(.*\)'/\1/p" "$top_builddir/libhijack.la")
lib=${ABI_LIBRARY:-$top_builddir/.libs/$dlname}

command -v abidiff >/dev/null || {
	echo "Bail out! abidiff not found: sh tests/deps.sh test installs abigail-tools"
	exit 1
}
# abidw records the architecture: type sizes differ on another one, where
# this baseline says nothing.
arch=$(sed -n "s/.*<abi-corpus .*architecture='\([^']*\)'.*/\1/p" "$baseline" | head -n 1)
case "$arch:$(uname -m)" in
elf-amd-x86_64:x86_64) ;;
*) skip_all "the baseline is for $arch, this is $(uname -m)" ;;
esac
plan 3

[ -r "$lib" ] && [ -r "$baseline" ]
ok $? "the library and the baseline are there"

old=$(sed -n "s/.*<abi-corpus .*soname='\([^']*\)'.*/\1/p" "$baseline" | head -n 1)
new=$(LC_ALL=C readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
like "$old:$new" "libhijack.so.*:libhijack.so.*" "sonames: baseline $old, built $new"

# Two questions.  Did anything the baseline has change or go?  abidiff
# marks a removed function incompatible (8) but a changed structure only
# "changed" (4), so with additions left out any change counts as breaking:
# a change reviewed as compatible is accepted by refreshing the baseline.
# Was anything added?  That is compatible, and only asks for a refresh.
supp=$src/abi/libhijack.suppr
abidiff --no-show-locs --suppressions "$supp" --no-added-syms "$baseline" "$lib" >"$(tmpdir)/diff"
rc=$?
sed 's/^/# /' "$(tmpdir)/diff"
abidiff --no-show-locs --suppressions "$supp" "$baseline" "$lib" >/dev/null
added=$?
# abidiff's status is a bit mask: 1 error, 2 usage, 4 change, 8 incompatible.
if [ $((rc & 3)) -ne 0 ] || [ $((added & 3)) -ne 0 ]; then
	ok 1 "abidiff ran (status $rc, $added)"
elif [ $((rc & 12)) -ne 0 ] && [ "$old" = "$new" ]; then
	ok 1 "no ABI break under soname $new: bump the soname (-version-info in Makefile.am), or undo the change (or, reviewed as compatible, make abi-baseline)"
elif [ $((rc & 12)) -ne 0 ]; then
	diag "ABI break with the soname bumped to $new: run make abi-baseline and commit it"
	ok 0 "an ABI break comes with a new soname ($old -> $new)"
else
	[ $((added & 12)) -eq 0 ] || diag "functions added: run make abi-baseline and commit it"
	ok 0 "no ABI break under soname $new"
fi
finish
