#!/bin/sh
# deps.sh [build] [test] [kernel]: install, with apt-get, the Debian 12
# packages hijack needs to build (build), to run its tests (test), and to
# build and boot its kernel and the fork-path gate (kernel), to fuzz
# (fuzz: clang and libFuzzer), and to try a brand-new Debian 12
# (fresh: tests/fresh-debian.sh).  No argument: build and test.  Idempotent;
# needs root.  --list prints the packages of the groups named (or of every
# group, "all") instead, one a line, for tests/deps-check.py.
set -eu

build="autoconf automake libtool pkgconf gcc binutils make libc6-dev
	libcap-dev libseccomp-dev libmount-dev check libsubunit-dev libgsl-dev
	libjansson-dev libsmartcols-dev lxc-dev"
test="busybox-static lxc runc util-linux procps python3 bash bash-completion
	zsh groff-base mandoc ministat shfmt docker.io containerd podman uidmap
	keyutils strace iproute2 gdb tcpdump git gcc libc6-dev
	parallel openssh-server openssh-client"
kernel="linux-source-6.12 qemu-system-x86 flex bison bc libelf-dev libssl-dev
	xz-utils cpio python3-ply patch rsync gcc-aarch64-linux-gnu
	checkpolicy apparmor"
fuzz="clang libclang-rt-14-dev"
fresh="debootstrap git"
# --- packaging (tests/pkg/) ---
# make check compares the library's ABI with abi/libhijack.abi (abidiff)
# and checks the exported symbols (nm, from binutils).
test="$test abigail-tools binutils"
# make coverage: lcov (and its genhtml) reads the gcov data.
test="$test lcov"
# tests/bench/entry-latency.sh: bc for its arithmetic, perf (task-clock)
# and strace for the per-phase breakdown and the system call counts, GNU
# time for the peak RSS.
test="$test bc linux-perf strace time"
# --- ansible (17-ansible.t, tests/bench/ansible-fanout.sh) ---
# Debian's Ansible (ansible-core; ansible for community.docker.nsenter,
# the fan-out comparison), and OpenSSH for the plugin's remote hosts.
test="$test ansible-core ansible openssh-client openssh-server"
# --- end ansible ---
# --- audit (src/audit/, 22-audit.t) ---
# libaudit (the kernel's audit log) to build (the journal needs no
# library); to test, a real journald (systemd), rsyslog and auditd that
# 22-audit.t starts itself, and jq to read the journal's JSON.
build="$build libaudit-dev"
# libcrypto (SHA-256) for the size and hash of a file copy's end record.
build="$build libssl-dev"
test="$test systemd rsyslog auditd jq"
# Session recordings (24-record.t): the real player replays them, and
# setpriv and script (util-linux, above) play the other user and the
# terminal it wants.
test="$test asciinema"
# --- end audit ---
# A fourth group, pkg: what building the Debian packages, linting them and
# running their autopkgtests needs (tests/pkg/ci.sh).
pkg="debhelper dpkg-dev fakeroot lintian autopkgtest git gcc libc6-dev"
# --- end packaging ---

list=""
if [ "${1:-}" = --list ]; then
	list=1
	shift
	[ $# -gt 0 ] || set -- all
fi
[ $# -gt 0 ] || set -- build test
want=""
for group in "$@"; do
	case "$group" in
	build) want="$want $build" ;;
	test) want="$want $test" ;;
	kernel) want="$want $kernel" ;;
	pkg) want="$want $pkg" ;;
	fuzz) want="$want $fuzz" ;;
	fresh) want="$want $fresh" ;;
	all) want="$want $build $test $kernel $pkg $fuzz $fresh" ;;
	*) echo "deps.sh: unknown group '$group' (known: build test kernel pkg fuzz fresh all)" >&2; exit 2 ;;
	esac
done
if [ -n "$list" ]; then
	printf '%s\n' $want
	exit 0
fi

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
