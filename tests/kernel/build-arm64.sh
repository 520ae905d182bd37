#!/bin/bash
# build-arm64.sh [--objs]: cross-compile Linux 6.12 with the series in
# kernel-patch/ for arm64: `make ARCH=arm64 defconfig`, then
# kernel-patch/config and config/lsm.config (SELinux and AppArmor, for
# their hijack hooks), then the Image.  Build only: nothing boots.
#
#   --objs   only `make prepare` and the objects the series touches
#            (minutes instead of the hour or more a defconfig Image takes
#            on two cores)
#
# The patched source tree is the one build-kernel.sh keeps in the cache
# (src/patched), brought up to date by running it first; the arm64 build
# has its own O= directory, build/arm64.  Needs gcc-aarch64-linux-gnu
# (tests/deps.sh kernel).  Exit status 0 when everything built.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kcache=${HIJACK_KCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hijack-kernel}
jobs=${HIJACK_JOBS:-$(nproc)}
cross=aarch64-linux-gnu-

die() { echo "build-arm64: $*" >&2; exit 1; }
log() { echo "build-arm64: $*" >&2; }

objs=false
case ${1:-} in
'') ;;
--objs) objs=true ;;
*) echo "usage: build-arm64.sh [--objs]" >&2; exit 2 ;;
esac

command -v "${cross}gcc" >/dev/null ||
	die "no ${cross}gcc (apt-get install gcc-aarch64-linux-gnu)"

# The series applied to the pristine tree, as check-kernel builds it.
"$here/build-kernel.sh" -q patched "$top/kernel-patch" >/dev/null
src=$kcache/src/patched
out=$kcache/build/arm64
mkdir -p "$out"

export KBUILD_BUILD_USER=hijack KBUILD_BUILD_HOST=hijack LC_ALL=C
mk() { make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE="$cross" "$@"; }

log "configuring: arm64 defconfig + kernel-patch/config + lsm.config"
mk defconfig
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"$top/kernel-patch/config" "$here/config/lsm.config" >/dev/null
mk olddefconfig
# Kconfig drops silently what a dependency forbids.
lost=$(grep -h '^CONFIG_' "$top/kernel-patch/config" "$here/config/lsm.config" |
	while read -r line; do
		grep -qxF "$line" "$out/.config" || echo "$line"
	done)
[ -z "$lost" ] || die "lost from .config: $(echo $lost)"

start=$(date +%s)
if $objs; then
	log "make prepare and the objects the series touches (-j$jobs)"
	mk -j"$jobs" prepare
	mk -j"$jobs" kernel/hijack.o kernel/fork.o kernel/nsproxy.o \
		kernel/cred.o kernel/user_namespace.o kernel/cgroup/cgroup.o \
		kernel/sys_ni.o arch/arm64/kernel/sys.o arch/arm64/kernel/sys32.o \
		security/security.o security/selinux/hooks.o \
		security/apparmor/lsm.o fs/namespace.o
else
	log "make Image (-j$jobs)"
	mk -j"$jobs" Image
	ls -l "$out/arch/arm64/boot/Image"
fi
# The generated tables must carry the call, native and compat.
grep -q '__NR_hijack 500' "$out/arch/arm64/include/generated/uapi/asm/unistd_64.h" ||
	die "no __NR_hijack 500 in the generated arm64 unistd_64.h"
grep -q '__NR_compat32_hijack 500' "$out/arch/arm64/include/generated/asm/unistd_compat_32.h" ||
	die "no __NR_compat32_hijack 500 in the generated arm64 unistd_compat_32.h"
log "arm64 $($objs && echo objects || echo Image) built in $(( $(date +%s) - start )) s"
