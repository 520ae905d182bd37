#!/bin/sh
# deps.sh [build] [test] [kernel]: install, with apt-get, the Debian 12
# packages hijack needs to build (build), to run its tests (test), and to
# build and boot its kernel and the fork-path gate (kernel).  No argument:
# build and test.  Idempotent; needs root.
set -eu

build="autoconf automake libtool pkg-config gcc make libc6-dev
	libcap-dev libseccomp-dev libmount-dev check libsubunit-dev libgsl-dev"
test="busybox-static lxc runc util-linux procps python3 bash bash-completion
	zsh groff-base mandoc ministat
	parallel openssh-server openssh-client rsync"
kernel="linux-source-6.12 qemu-system-x86 flex bison bc libelf-dev libssl-dev
	xz-utils cpio python3-ply"

[ $# -gt 0 ] || set -- build test
want=""
for group in "$@"; do
	case "$group" in
	build) want="$want $build" ;;
	test) want="$want $test" ;;
	kernel) want="$want $kernel" ;;
	*) echo "deps.sh: unknown group '$group' (known: build test kernel)" >&2; exit 2 ;;
	esac
done

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: installing packages needs root: run it with sudo" >&2
	exit 1
fi

# Only ask apt when something is missing: a warm machine starts at once.
missing=""
for p in $want; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps.sh: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi
