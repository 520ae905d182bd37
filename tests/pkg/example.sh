#!/bin/sh
# example.sh - doc/example.c, built as a user of the package would build it:
# the library, header and hijack.pc installed under a scratch DESTDIR, the
# flags from pkg-config (pointed there), and nothing from the build tree;
# then run against a real target made by the fixture.
# Environment from make check: top_builddir, TESTDIR, FIXTURE, MAKE, CC,
# libdir (the configured one; the install lands under DESTDIR).
. "${TESTDIR:-$(dirname "$0")/../integration}/lib.sh"
skip_unless_root

: "${MAKE:=make}" "${CC:=cc}" "${libdir:?libdir: run through make check}"
src=$TESTDIR/../..
tmp=$(tmpdir)
dest=$tmp/dest

plan 9

# Only the library's own install targets: the whole "make install" would
# also relink the command, which other tests are running meanwhile.
$MAKE -s -C "$top_builddir" DESTDIR="$dest" install-libLTLIBRARIES \
	install-includeHEADERS install-pkgconfigDATA >"$tmp/install.log" 2>&1
ok $? "library, header and hijack.pc install under DESTDIR"

export PKG_CONFIG_PATH="$dest$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs hijack 2>&1)
like "$flags" "*-I$dest/*-L$dest$libdir -lhijack*" "pkg-config --cflags --libs hijack points into DESTDIR"

# -I and -L name only DESTDIR: a header or library of the build tree
# cannot leak in.
# Under make check-asan the library is instrumented, and so must be its
# user (the sanitizer's runtime has to come first).
# shellcheck disable=SC2086
$CC -Wall -Werror ${SANITIZE_CFLAGS:-} -o "$tmp/example" "$src/doc/example.c" $flags 2>"$tmp/cc.log"
rc=$?
ok $rc "doc/example.c compiles and links against the installed library"
[ $rc = 0 ] || cat "$tmp/cc.log" | sed 's/^/# /'

needed=$(LC_ALL=C readelf -d "$tmp/example" | sed -n 's/.*NEEDED.*\[\(libhijack[^]]*\)\].*/\1/p')
is "$needed" "libhijack.so.0" "the example needs libhijack.so.0 by soname"

resolved=$(LD_LIBRARY_PATH="$dest$libdir" ldd "$tmp/example" | awk '/libhijack/ { print $3 }')
like "$resolved" "$dest$libdir/libhijack.so.0" "the installed library is the one loaded"

start_target --hostname example-target
out=$(LD_LIBRARY_PATH="$dest$libdir" "$tmp/example" "$TARGET" /bin/sh -c 'hostname; exit 7' 2>"$tmp/err")
rc=$?
is "$rc" 7 "the command ran inside and its exit status came back"
like "$out" "*example-target*" "the command saw the target's hostname"
like "$out" "*pid*$TARGET*" "the plan was printed first"

out=$(LD_LIBRARY_PATH="$dest$libdir" "$tmp/example" 999999999 /bin/true 2>&1)
rc=$?
like "$rc:$out" "125:example: target: *" "a pid that does not exist: 125 and the failed step named"
stop_target
finish
