# tap.sh - the TAP helpers the bench test scripts share.  Source it after
# setting nothing; it makes $tmp (removed at exit) and counts results.
#   ok DESC / not_ok DESC / skip DESC REASON
#   check DESC EXPECTED-EXIT COMMAND...   (stdout in $tmp/out, stderr in $tmp/err)
#   tap_done                               prints the plan, fails if any failed
#   find_bindir PROGRAM                    sets $bindir (below)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
}
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
check() {
	desc=$1
	want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $got, wanted $want)"
		sed 's/^/# /' "$tmp/err" "$tmp/out" | head -40
	fi
}
tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}

# Where the programs under test are: $BENCH_BINDIR, else gate/ of the
# build tree (make check runs at its top), else, when PROGRAM is not there,
# the gate's source folder above the test scripts (make -f gate/Makefile.dev
# builds them there).
find_bindir() {
	bindir=${BENCH_BINDIR:-${top_builddir:-.}/gate}
	[ -x "$bindir/$1" ] || bindir=$(cd "$here/.." && pwd)
}
