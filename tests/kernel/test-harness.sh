#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-harness.sh - test the kernel harness itself, without a kernel or a VM.
#
# Prints TAP. Covers ktap-check.sh on crafted console logs, and
# build-kernel.sh's patch/rebuild bookkeeping on a fake kernel tarball
# whose Makefile only concatenates two files (a few seconds in all).

set -eu

{
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
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

# check DESCRIPTION EXPECTED_STATUS COMMAND...
check() {
	local desc=$1 want=$2 rc=0
	shift 2
	"$@" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc, want $want)"
		sed 's/^/# /' "$tmp/out"
	fi
}

echo "TAP version 13"
echo "1..22"

# ---- ktap-check.sh -----------------------------------------------------------

good() {
	printf '\033c\033[?7l# boot.sh: accel=tcg\r\n'
	printf '[    0.000000] Linux version 6.12.117\r\n'
	printf 'HIJACK-INIT-START\r\n'
	printf 'KTAP version 1\r\n1..2\r\n'
	printf '    KTAP version 1\r\n    1..2\r\n    ok 1 a\r\n'
	printf '    ok 2 b # SKIP no reason\r\nok 1 smoke\r\n'
	printf '    TAP version 13\r\n    1..1\r\n    ok 1 x\r\n'
	printf 'ok 2 selftests: hijack: x\r\n'
	printf 'HIJACK-DONE mode=test rc=0\r\n'
	printf '[    1.000000] reboot: Restarting system\r\n'
}
kc=$here/ktap-check.sh

good >"$tmp/good.log"
check "ktap-check: a clean log passes" 0 "$kc" -o "$tmp/good.ktap" "$tmp/good.log"
if grep -q '^ok 2 selftests' "$tmp/good.ktap" && ! grep -q 'Linux version' "$tmp/good.ktap"; then
	ok "ktap-check: -o writes the KTAP without kernel messages"
else
	not_ok "ktap-check: -o writes the KTAP without kernel messages"
fi

good | sed 's/    ok 1 x/    not ok 1 x/' >"$tmp/l"
check "ktap-check: a nested not ok fails" 1 "$kc" "$tmp/l"

good | sed 's/    ok 1 x/    not ok 1 x # TODO later/' >"$tmp/l"
check "ktap-check: a not-ok line with a TODO directive does not fail" 0 "$kc" "$tmp/l"

good | grep -av HIJACK-DONE >"$tmp/l"
check "ktap-check: no sentinel (dead VM) fails" 1 "$kc" "$tmp/l"

good | sed 's/rc=0/rc=1/' >"$tmp/l"
check "ktap-check: a non-zero status in the sentinel fails" 1 "$kc" "$tmp/l"

good | sed 's/^1\.\.2/1..3/' >"$tmp/l"
check "ktap-check: a plan larger than the results fails" 1 "$kc" "$tmp/l"

good | sed 's/^ok 2 selftests/ok 3 selftests/' >"$tmp/l"
check "ktap-check: results out of order fail" 1 "$kc" "$tmp/l"

good | grep -av '^KTAP version 1' >"$tmp/l"
check "ktap-check: no KTAP header fails" 1 "$kc" "$tmp/l"

good | sed 's/^ok 1 smoke/[    0.5] WARNING: CPU: 0 PID: 1 at kernel\/fork.c:1 x\nok 1 smoke/' >"$tmp/l"
check "ktap-check: a kernel WARNING fails" 1 "$kc" "$tmp/l"

good | sed 's/^    ok 1 a/    ok 1 a[    0.7] BUG: KASAN: use-after-free in x/' >"$tmp/l"
check "ktap-check: a report in the middle of a test line fails" 1 "$kc" "$tmp/l"

good | sed 's/^    ok 1 a/[    0.6] ======================================================\n[    0.6] WARNING: possible circular locking dependency detected\n    ok 1 a/' >"$tmp/l"
check "ktap-check: a lockdep report fails" 1 "$kc" "$tmp/l"

good | sed 's/^    ok 1 x/    # WARNING: BUG: Oops in the test'"'"'s own words\n    ok 1 x/' >"$tmp/l"
check "ktap-check: test output naming kernel reports does not fail" 0 "$kc" "$tmp/l"

good | sed 's/^ok 2 selftests: hijack: x/ok 2 selftests: hi[    0.8] random: crng init done/' >"$tmp/l"
check "ktap-check: a result line cut by a printk still counts" 0 "$kc" "$tmp/l"

good | grep -av 'KTAP\|ok\|1\.\.' | sed 's/mode=test/mode=bench/' >"$tmp/l"
check "ktap-check -n: a bench log without KTAP passes" 0 "$kc" -n "$tmp/l"

# ---- build-kernel.sh bookkeeping ---------------------------------------------

# A fake kernel: "bzImage" is a.c followed by b.c; each rebuild is counted.
mkdir -p "$tmp/linux-fake/scripts/kconfig"
printf 'A1\n' >"$tmp/linux-fake/a.c"
printf 'B1\n' >"$tmp/linux-fake/b.c"
# shellcheck disable=SC2016 # make variables
printf '%s\n' 'O ?= .' \
	'kernelversion: ; @echo 9.9.9' \
	'tinyconfig: ; @echo "# tiny" > $(O)/.config' \
	'olddefconfig: ; @sed -i /CONFIG_DROPPED/d $(O)/.config' \
	'bzImage: $(O)/arch/x86/boot/bzImage' \
	'$(O)/arch/x86/boot/bzImage: a.c b.c' \
	'	@mkdir -p $(dir $@) $(O)/include/config' \
	'	@cat a.c b.c > $@; echo 9.9.9 > $(O)/include/config/kernel.release' \
	'	@echo rebuilt >> $(O)/rebuilds' >"$tmp/linux-fake/Makefile"
# merge_config.sh -m -O OUT BASE FRAGMENTS...: append is enough here.
# shellcheck disable=SC2016 # the stub's own variables
printf '%s\n' '#!/bin/sh' 'base=$4; shift 4; cat "$@" >>"$base"' \
	>"$tmp/linux-fake/scripts/kconfig/merge_config.sh"
chmod +x "$tmp/linux-fake/scripts/kconfig/merge_config.sh"
touch -d 2020-01-01 "$tmp/linux-fake/a.c" "$tmp/linux-fake/b.c"
tar -C "$tmp" -cJf "$tmp/fake.tar.xz" linux-fake

# mkseries DIR SUBJECT A B: a one-patch series turning a.c, b.c into A, B.
mkseries() {
	mkdir -p "$1" "$tmp/d/a" "$tmp/d/b"
	cp "$tmp/linux-fake/a.c" "$tmp/linux-fake/b.c" "$tmp/d/a/"
	printf '%s\n' "$3" >"$tmp/d/b/a.c"
	printf '%s\n' "$4" >"$tmp/d/b/b.c"
	# diff exits 1 when the files differ, which is the point here.
	{ echo "Subject: $2"; echo
	  cd "$tmp/d"
	  diff -u a/a.c b/a.c || :
	  diff -u a/b.c b/b.c || :; } >"$1/0001.patch"
	echo 0001.patch >"$1/series"
	rm -rf "$tmp/d"
}
mkseries "$tmp/s1" "change a" A2 B1
mkseries "$tmp/s1b" "change a, reworded" A2 B1
mkseries "$tmp/s2" "change b only" A1 B2

export HIJACK_KCACHE=$tmp/cache HIJACK_KSRC=$tmp/fake.tar.xz
bk=$here/build-kernel.sh
img=$HIJACK_KCACHE/build/v/arch/x86/boot/bzImage

# build SERIES EXPECTED_IMAGE EXPECTED_REBUILDS DESCRIPTION
build() {
	local got rebuilds
	if ! "$bk" -q v "$tmp/$1" >"$tmp/out" 2>&1; then
		not_ok "$4 (build failed)"
		sed 's/^/# /' "$tmp/out"
		return
	fi
	got=$(tr '\n' ' ' <"$img")
	rebuilds=$(wc -l <"$HIJACK_KCACHE/build/v/rebuilds")
	if [ "$got" = "$2" ] && [ "$rebuilds" = "$3" ]; then
		ok "$4"
	else
		not_ok "$4 (image '$got', $rebuilds builds; want '$2', $3)"
	fi
}
build s1 "A2 B1 " 1 "build-kernel: a series is applied and built"
build s1 "A2 B1 " 1 "build-kernel: an unchanged series rebuilds nothing"
build s1b "A2 B1 " 1 "build-kernel: a reworded series with the same code rebuilds nothing"
build s2 "A1 B2 " 2 "build-kernel: a file the old series changed is rebuilt when reverted"

p=$(echo "$HIJACK_KCACHE"/src/pristine-*)
if [ "$(cat "$p/a.c" "$p/b.c")" = "$(printf 'A1\nB1')" ]; then
	ok "build-kernel: the pristine tree is untouched"
else
	not_ok "build-kernel: the pristine tree is untouched"
fi

echo CONFIG_DROPPED=y >"$tmp/drop.config"
check "build-kernel: a fragment line Kconfig drops fails the build" 1 \
	"$bk" -q -c "$tmp/drop.config" v "$tmp/s2"

mkseries "$tmp/s3" "with a config" A1 B2
echo CONFIG_SERIES_OPT=y >"$tmp/s3/config"
if "$bk" -q v "$tmp/s3" >"$tmp/out" 2>&1 &&
   grep -qx CONFIG_SERIES_OPT=y "$HIJACK_KCACHE/build/v/.config"; then
	ok "build-kernel: the series' own config fragment is merged"
else
	not_ok "build-kernel: the series' own config fragment is merged"
	sed 's/^/# /' "$tmp/out"
fi

[ "$failed" = 0 ]
exit
}
