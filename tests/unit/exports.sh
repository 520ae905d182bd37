#!/bin/sh
# exports.sh: every function include/hijack.h declares is exported by
# libhijack (HIJACK_EXPORT, default visibility), and nothing else named
# hijack_* is: a public declaration without the attribute builds, and then
# fails to link only for an outside user of the library.
# TAP; needs the built library (top_builddir) and the header (TESTDIR).
set -eu
header=${TESTDIR:?}/../../include/hijack.h
lib=${top_builddir:?}/.libs/libhijack.a
if ! command -v readelf >/dev/null; then
	echo "1..0 # SKIP readelf (binutils) is not installed"
	exit 77
fi

# Top-level declarations "type hijack_name(" (kernel-doc lines start with
# " *", and so never match).
declared=$(grep -E '^[a-z][^(]*[ *]hijack_[a-z0-9_]+\(' "$header" |
	sed -E 's/^[^(]*[ *](hijack_[a-z0-9_]+)\(.*/\1/' | sort -u)
# Defined functions of the library: name and visibility.
defined=$(readelf -sW "$lib" | awk '$4 == "FUNC" && $7 != "UND" &&
	$8 ~ /^hijack_/ { print $8, $5, $6 }' | sort -u)

n=0
fail=0
echo "1..$(($(echo "$declared" | wc -l) + 1))"
for f in $declared; do
	n=$((n + 1))
	line=$(echo "$defined" | grep "^$f " || true)
	case $line in
	"$f GLOBAL DEFAULT") echo "ok $n - $f is exported" ;;
	"") echo "not ok $n - $f is declared but not defined"; fail=1 ;;
	*) echo "not ok $n - $f is not exported: $line"; fail=1 ;;
	esac
done
n=$((n + 1))
extra=$(echo "$defined" | awk '$2 == "GLOBAL" && $3 == "DEFAULT" { print $1 }' |
	while read -r f; do echo "$declared" | grep -qx "$f" || echo "$f"; done)
if [ -z "$extra" ]; then
	echo "ok $n - no undeclared hijack_* function is exported"
else
	echo "not ok $n - exported but not declared in hijack.h:" $extra
	fail=1
fi
exit $fail
