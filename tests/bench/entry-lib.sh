# entry-lib.sh: sourced by entry-latency.sh and entry-scale.sh.  Sets
# HIJACK and FIXTURE (defaults: the build tree in ./build).  In a build
# tree src/cli/hijack is libtool's wrapper script, which would add a
# shell's start-up to every entry timed: the binary itself is timed, with
# the build tree's libhijack.so.0.
# shellcheck shell=bash
top=$(cd "$(dirname "$0")/../.." && pwd)
HIJACK=${HIJACK:-$top/build/src/cli/hijack}
FIXTURE=${FIXTURE:-$top/build/tests/integration/fixture}
if [ -x "$(dirname "$HIJACK")/.libs/hijack" ]; then
	LD_LIBRARY_PATH=$(cd "$(dirname "$HIJACK")/../.." && pwd)/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	HIJACK=$(dirname "$HIJACK")/.libs/hijack
fi
[ "$(id -u)" = 0 ] || { echo "$(basename "$0"): needs root (namespaces)" >&2; exit 1; }
