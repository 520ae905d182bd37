# lib.sh - TAP helpers for hijack's integration tests.  POSIX sh: the same
# scripts run under bash on the host and busybox ash in the QEMU guest.
#
# Environment: HIJACK (the CLI), FIXTURE (tests/integration/fixture),
# TESTDIR (this directory).  make check sets all three.

: "${HIJACK:?HIJACK must name the hijack binary}"
: "${FIXTURE:?FIXTURE must name the fixture binary}"

_n=0
_seq=0
_failed=0
_pids=""
# Made here, in the test's own shell: $(tmpdir) runs in a subshell.
_tmp=$(mktemp -d "${TMPDIR:-/tmp}/hijack-test.XXXXXX") || exit 1
chmod 755 "$_tmp"

plan() { echo "1..$1"; }

# skip_all REASON: nothing in this file can run here.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 77
}

# need_program PATH: a test program that make check builds, or skip.
need_program() {
	[ -x "$1" ] || skip_all "no $(basename "$1") at $1: make check builds it"
}

skip_unless_root() {
	[ "$(id -u)" = 0 ] || skip_all "needs root (namespaces, mounts): run as root"
}

ok() {
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
}

# is GOT EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
	fi
}

# like GOT PATTERN DESCRIPTION (a shell case pattern)
like() {
	case "$1" in
	$2) ok 0 "$3" ;;
	*)
		ok 1 "$3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
		;;
	esac
}

# unlike GOT PATTERN DESCRIPTION: GOT does not match the case pattern
unlike() {
	case "$1" in
	$2)
		ok 1 "$3"
		echo "#   got:          '$1'"
		echo "#   not expected: '$2'"
		;;
	*) ok 0 "$3" ;;
	esac
}

skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}

diag() { echo "# $*"; }

tmpdir() { echo "$_tmp"; }

cleanup() {
	for p in $_pids; do
		kill "$p" 2>/dev/null
	done
	for p in $_pids; do
		wait "$p" 2>/dev/null
	done
	[ -z "$_tmp" ] || rm -rf "$_tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# start_target [fixture options]: start a fixture target; sets TARGET (its
# pid) and FIXTURE_PID (the fixture process, killed at exit).
start_target() {
	_seq=$((_seq + 1))
	_out=$_tmp/target.$_seq
	"$FIXTURE" "$@" >"$_out" &
	FIXTURE_PID=$!
	_pids="$_pids $FIXTURE_PID"
	TARGET=""
	_i=0
	while [ $_i -lt 100 ]; do
		TARGET=$(cat "$_out" 2>/dev/null)
		[ -n "$TARGET" ] && return 0
		kill -0 "$FIXTURE_PID" 2>/dev/null || break
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "Bail out! fixture $* did not start"
	exit 1
}

stop_target() {
	kill "$FIXTURE_PID" 2>/dev/null
	wait "$FIXTURE_PID" 2>/dev/null
	return 0
}

# nsid PID TYPE: "device:inode" of a task's namespace, seen from outside.
nsid() {
	stat -L -c '%d:%i' "/proc/$1/ns/$2" 2>/dev/null
}

# make_rootfs DIR: a minimal root with busybox, for chrooted targets.
make_rootfs() {
	# busybox's own sh may answer "busybox" for its applets: want a path.
	_bb=""
	for _p in "$(command -v busybox)" /bin/busybox /usr/bin/busybox; do
		case $_p in /*) [ -x "$_p" ] && { _bb=$_p; break; } ;; esac
	done
	[ -n "$_bb" ] || return 1
	mkdir -p "$1/bin" "$1/proc" "$1/tmp" "$1/srv/dir"
	cp "$_bb" "$1/bin/busybox"
	for a in sh cat hostname id ls readlink stat sleep echo pwd kill ps true; do
		ln -sf busybox "$1/bin/$a"
	done
	cp "$FIXTURE" "$1/bin/fixture"
}

finish() {
	if [ "$_failed" -gt 0 ]; then
		diag "$_failed of $_n failed"
		exit 1
	fi
	exit 0
}
