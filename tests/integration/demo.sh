#!/bin/sh
# demo.sh: the README's first command.  Installs what hijack needs, builds
# it, starts a throwaway LXC busybox container, and enters it by name to
# show the container's hostname, its own pid-1 process list and id.  The
# container is removed afterwards.  Needs root.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
"$top/tests/deps.sh" build test

build=${HIJACK_BUILDDIR:-$top/build}
mkdir -p "$build"
(
	cd "$top"
	[ -x configure ] || ./autogen.sh >/dev/null
	cd "$build"
	[ -f Makefile ] || "$top/configure" -q
	make -j"$(nproc)" src/cli/hijack >/dev/null
)
hijack=$build/src/cli/hijack

. "$top/tests/integration/containers.sh"
name=hijack-demo-$$
trap 'lxc_down "$name"' EXIT INT TERM
echo "== starting a throwaway LXC busybox container '$name'"
lxc_up "$name" || { echo "demo: could not start the LXC container" >&2; exit 1; }
echo "== the containers hijack sees:"
"$hijack" --list
echo
echo "== what 'hijack $name' will do:"
"$hijack" --explain "$name"
echo
cmd='echo "hostname: $(hostname)"; ps; id'
echo "== hijack $name -- /bin/sh -c '$cmd'"
"$hijack" "$name" -- /bin/sh -c "$cmd"
