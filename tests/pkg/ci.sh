#!/bin/bash
# tests/pkg/ci.sh: the packaging part of CI, as root on Debian 12.
#  1. dpkg-buildpackage -us -uc on a clean copy of the tree (the files
#     git tracks, staged ones included: no build products, no logs): the
#     native source package and the binaries (-b alone builds the same
#     binaries; the source package is built too so that lintian sees it);
#  2. lintian on the result, source and binaries: any error or warning
#     fails;
#  3. apt install ./*.deb;
#  4. the autopkgtests (debian/tests) against the installed packages, with
#     autopkgtest's null runner (this machine is the testbed);
#  5. the man/man3 pages regenerated from include/hijack.h match the tree;
#  6. make distcheck in the tree (configured if it is not yet); with
#     PKG_DISTCHECK=quick only the tests without containers or kernels.
# Every step is timed; the packages are left in $PKG_OUT (default
# build/pkg).  Packages it needs: sh tests/deps.sh build test pkg.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${PKG_OUT:-$top/build/pkg}
start=$(date +%s)
step() { echo "== pkg $(date -u +%H:%M:%S) (+$(($(date +%s) - start))s) $*"; }

step "clean copy of the tree"
rm -rf "$out"
mkdir -p "$out/src"
(cd "$top" && git ls-files -z -c |
	tar --null -T - -cf -) | tar -xf - -C "$out/src"

step "dpkg-buildpackage -us -uc"
(cd "$out/src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1 || {
	tail -n 60 "$out/build.log"
	echo "pkg: dpkg-buildpackage failed (log: $out/build.log)"
	exit 1
}
grep -E '^(PASS|FAIL|SKIP|ERROR|# [A-Z]+:)' "$out/build.log" | tail -n 8 || true
ls -l "$out"/*.deb

step "lintian"
lintian --fail-on error,warning --display-level '>=warning' "$out"/*.changes

step "apt install ./*.deb"
(cd "$out" && apt-get install -y -q --no-install-recommends --reinstall ./*.deb) >"$out/apt.log" 2>&1 || {
	tail -n 30 "$out/apt.log"
	exit 1
}
dpkg-query -W hijack libhijack0 libhijack-dev
hijack --version
pkg-config --libs hijack

step "autopkgtest (null runner, the installed packages)"
rc=0
autopkgtest --output-dir "$out/autopkgtest" "$out/src" -- null || rc=$?
# autopkgtest: 0 all passed, 2 some skipped, anything else failed.  As
# root with the dependencies installed nothing may be skipped.
[ $rc -eq 0 ] || { echo "pkg: autopkgtest exit $rc"; exit 1; }

step "man/man3 is what the header's kernel-doc makes (make man3)"
if [ -r /usr/src/linux-source-6.12.tar.xz ] || [ -n "${KERNEL_DOC:-}" ]; then
	sh "$top/man/gen-man3.sh" "$out/src" >/dev/null
	# The pages' date is the only part that depends on when they were made.
	diff -r -I '^\.TH ' "$top/man/man3" "$out/src/man/man3" || {
		echo "pkg: man/man3 is stale: run make man3 and commit the pages"
		exit 1
	}
else
	echo "pkg: linux-source-6.12 is not installed (tests/deps.sh kernel): pages not compared"
fi

step "make distcheck"
cd "$top"
[ -f Makefile ] || { ./autogen.sh && ./configure; } >"$out/configure.log" 2>&1
# PKG_DISTCHECK=quick (CI): only the tests that need no container and no
# kernel, which the rest of CI has run already (Makefile.am).
dc_tests=()
if [ "${PKG_DISTCHECK:-}" = quick ]; then
	dc_tests=("TESTS=$(make -s --no-print-directory print-quick-tests | tr '\n' ' ')")
fi
make -j2 distcheck "${dc_tests[@]}" >"$out/distcheck.log" 2>&1 || {
	grep -E '^(FAIL|ERROR)' "$out/distcheck.log" || true
	tail -n 30 "$out/distcheck.log"
	echo "pkg: make distcheck failed (log: $out/distcheck.log)"
	exit 1
}
grep -E '^# (TOTAL|PASS|FAIL|SKIP|ERROR):' "$out/distcheck.log" | tail -n 5
tail -n 4 "$out/distcheck.log"

step "done: $(($(date +%s) - start))s"
