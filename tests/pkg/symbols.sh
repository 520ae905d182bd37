#!/bin/sh
# symbols.sh - what libhijack exports is exactly what include/hijack.h
# declares and src/libhijack/libhijack.sym lists, each under a version node,
# and each function has its page in man/man3 (made by man/gen-man3.sh).
# Environment from make check: top_builddir, TESTDIR.
. "${TESTDIR:-$(dirname "$0")/../integration}/lib.sh"

src=$TESTDIR/../..
dlname=$(sed -n "s/^dlname='\(.*\)'/\1/p" "$top_builddir/libhijack.la")
lib=$top_builddir/.libs/$dlname
tmp=$(tmpdir)

plan 5

nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort >"$tmp/exported"
sed -n 's/^[[:space:]]*\(hijack_[a-z0-9_]*\);$/\1/p' "$src/src/libhijack/libhijack.sym" | sort >"$tmp/listed"
# Declarations: a line that opens a prototype of a hijack_ function.
sed -n 's/^[a-z].*[ *]\(hijack_[a-z0-9_]*\)(.*/\1/p' "$src/include/hijack.h" | sort -u >"$tmp/declared"
sed 's/@.*//' "$tmp/exported" >"$tmp/exported.names"

[ -s "$tmp/exported" ] && ! grep -qv '@@HIJACK_[0-9.]*$' "$tmp/exported"
ok $? "every exported function carries a version node"
grep -v '@@HIJACK_[0-9.]*$' "$tmp/exported" | sed 's/^/# unversioned: /'

diff "$tmp/declared" "$tmp/exported.names" >"$tmp/d1"
ok $? "exported = declared in include/hijack.h"
sed 's/^/# /' "$tmp/d1"

diff "$tmp/declared" "$tmp/listed" >"$tmp/d2"
ok $? "libhijack.sym lists = declared in include/hijack.h"
sed 's/^/# /' "$tmp/d2"

missing=""
for f in $(cat "$tmp/declared") libhijack; do
	[ -s "$src/man/man3/$f.3" ] || missing="$missing $f"
done
is "$missing" "" "every function has its man/man3 page, and libhijack.3 exists"

# groff is what man(1) uses: its warnings are the ones readers would see.
warn=$(for p in "$src"/man/man3/*.3; do
	LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -ww -z "$p" 2>&1
done)
is "$warn" "" "the pages render without groff warnings"
finish
