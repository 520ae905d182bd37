#!/bin/sh
# fresh-debian.sh [-b] DIR: what .ci/run's install step does on a machine
# that never saw this project, tried in a brand-new Debian 12.
#
# DIR (outside the clone, must not exist yet) becomes a debootstrap of
# bookworm, variant minbase: only the Essential and Priority: required
# packages and apt, the very set tests/deps-check.py accepts without
# deps.sh.  Its apt sources are the host's (/etc/apt/sources.list and
# sources.list.d/: bookworm-security brings linux-source-6.12).  The
# repository's committed HEAD is cloned into DIR/src/hijack; inside, as
# root, `sh tests/deps.sh build test kernel fuzz fresh` installs what CI
# installs, and tests/deps-check.py then resolves every program the
# scripts, Makefiles and the kernel build call.  With -b it also builds
# hijack there and runs the unit tests and the other checks that need no
# container runtime.
#
# Each step runs with DIR as the root of a mount namespace of its own.
# No service of the new system is started (a policy-rc.d says no): it
# shares the host's kernel, network and /dev.  DIR is kept for a look,
# and removed with `rm -rf --one-file-system DIR`.  Needs root and
# `sh tests/deps.sh fresh` (debootstrap, git).
set -eu

build=""
if [ "${1:-}" = -b ]; then
	build=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: fresh-debian.sh [-b] DIR" >&2; exit 2; }
root=$1
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "fresh-debian.sh: needs root" >&2; exit 1; }
[ ! -e "$root" ] || { echo "fresh-debian.sh: $root exists" >&2; exit 1; }
for p in debootstrap git; do
	command -v "$p" >/dev/null ||
		{ echo "fresh-debian.sh: no $p: run sh tests/deps.sh fresh" >&2; exit 1; }
done

# The first mirror of the host's sources, one-line or deb822 format.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' \
		-e 's/^URIs: *\([^ ]*\).*/\1/p' | head -n 1)
[ -n "$mirror" ] || { echo "fresh-debian.sh: no bookworm mirror in the host's apt sources" >&2; exit 1; }

start=$(date +%s)
stamp() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - start))s) $*"; }

stamp "debootstrap --variant=minbase bookworm from $mirror"
mkdir -p "$root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$root.debootstrap.log"; exit 1; }

rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	if [ -f "$f" ]; then cp "$f" "$root$f"; fi
done
printf '#!/bin/sh\n# fresh-debian.sh: no service starts in this system\nexit 101\n' \
	>"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

git clone -q --no-local "$src" "$root/src/hijack"

# Run a command in the new system: in a mount namespace of its own, whose
# root is DIR by pivot_root (not chroot: the kernel treats a chrooted
# process differently, e.g. /proc/PID/root, new user namespaces), with
# /proc, /sys and /dev, all gone with the namespace.
in_root() {
	unshare --mount --propagation private sh -c '
		set -e
		r=$1
		mount --rbind "$r" "$r"
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount --rbind /dev "$r/dev"
		mkdir -p "$r/.oldroot"
		cd "$r"
		pivot_root . .oldroot
		umount -l /.oldroot
		cd /src/hijack
		exec env -i HOME=/root TERM=dumb LC_ALL=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			sh -c "$2"' sh "$root" "$1"
}

stamp "before deps.sh, missing from the new system:"
in_root 'for c in rsync patch gcc make qemu-system-x86_64 clang shfmt; do
	command -v $c >/dev/null || echo "  $c"; done'

stamp "sh tests/deps.sh build test kernel fuzz fresh"
in_root 'sh tests/deps.sh build test kernel fuzz fresh' >"$root.deps.log" 2>&1 ||
	{ tail -n 20 "$root.deps.log"; exit 1; }

stamp "tests/deps-check.py"
rc=0
in_root 'python3 tests/deps-check.py' >"$root.deps-check.log" 2>&1 || rc=1
grep -v '^ok ' "$root.deps-check.log" || true
echo "$(grep -c '^ok ' "$root.deps-check.log") ok, $(grep -c '^not ok ' "$root.deps-check.log") not ok"

if [ -n "$build" ]; then
	stamp "build and unit tests"
	# The integration tests want LXC and runc with their services and
	# cgroups, which this bare system does not start.
	in_root './autogen.sh && ./configure -q && make -j"$(nproc)" &&
		make check TESTS="tests/unit/check_ns tests/unit/check_options
			tests/unit/check_plan tests/unit/check_seccomp
			tests/pkg/symbols.sh tests/deps-check.py
			tests/fuzz/fuzz-options tests/fuzz/fuzz-policy"' \
		>"$root.build.log" 2>&1 || rc=1
	grep -E '^(FAIL|ERROR|# [A-Z]+:)' "$root.build.log" || tail -n 20 "$root.build.log"
fi
stamp "done"
exit $rc
