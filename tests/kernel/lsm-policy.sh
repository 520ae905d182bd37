#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# lsm-policy.sh - the test policies of the kselftest's LSM tests
# (hijack_lsm_test.c), for the test initramfs.
#
# usage: lsm-policy.sh -O KBUILD_OUT -o DIR
#
#   -O DIR   the O= directory of a kernel built with CONFIG_SECURITY_SELINUX
#            (its scripts/selinux/mdp writes a policy for its own class map,
#            the new process2:hijack included)
#   -o DIR   written: selinux.policy (binary, for /sys/fs/selinux/load),
#            apparmor.profiles and apparmor_parser with the libraries it
#            loads (it compiles the profiles in the guest, for the
#            guest kernel's features); init.sh loads them with hijack_lsm=
#
# The SELinux policy is mdp's allow-everything policy with its one domain
# turned into an attribute of several, and the process and process2
# permissions between them spelled out for the tests: see the rules below.

set -eu
{

here=$(cd "$(dirname "$0")" && pwd)
kout=
outdir=

die() {
	echo "lsm-policy: $*" >&2
	exit 1
}

while getopts O:o: opt; do
	case $opt in
	O) kout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) die "usage: lsm-policy.sh -O KBUILD_OUT -o DIR" ;;
	esac
done
[ -n "$kout" ] && [ -n "$outdir" ] || die "usage: lsm-policy.sh -O KBUILD_OUT -o DIR"
mdp=$kout/scripts/selinux/mdp/mdp
[ -x "$mdp" ] || die "no $mdp: the kernel in $kout was not built with SELinux"
command -v checkpolicy >/dev/null || die "checkpolicy is missing (tests/deps.sh kernel)"
parser=$(PATH=$PATH:/usr/sbin:/sbin command -v apparmor_parser || true)
[ -n "$parser" ] || die "apparmor_parser is missing (tests/deps.sh kernel)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$outdir"
mkdir -p "$outdir"

# --- SELinux -------------------------------------------------------------

(cd "$tmp" && "$mdp" policy.conf file_contexts >/dev/null)
grep -q '^class process2$' "$tmp/policy.conf" || die "mdp wrote no process2 class"
grep -Eq '^[[:space:]]+hijack$' "$tmp/policy.conf" ||
	die "the kernel's class map has no process2:hijack: not the patched kernel?"

# Domains: base_t is everything that is not a test label (the kernel's
# initial SIDs, every file); hj_* are the tests' callers and targets.
cat >"$tmp/types" <<'EOF'
attribute hj_domain;
type base_t, hj_domain;
type hj_caller_t, hj_domain;
type hj_target_t, hj_domain;
type hj_nnp_target_t, hj_domain;
type hj_bounded_t, hj_domain;
type hj_nodyn_t, hj_domain;
type hj_nohijack_t, hj_domain;
type hj_nosetcur_t, hj_domain;
typebounds hj_caller_t hj_bounded_t;
EOF

# The permissions the tests are about, between the domains that have them.
cat >"$tmp/rules" <<'EOF'
allow base_t hj_domain:process { dyntransition setcurrent };
allow base_t hj_domain:process2 { hijack nnp_transition };
allow { hj_caller_t hj_bounded_t hj_target_t hj_nnp_target_t } self:process setcurrent;
allow { hj_nodyn_t hj_nohijack_t } self:process setcurrent;
allow hj_caller_t { hj_target_t hj_nnp_target_t hj_bounded_t hj_caller_t }:process2 hijack;
allow hj_caller_t { hj_target_t hj_nnp_target_t hj_bounded_t }:process dyntransition;
allow hj_caller_t hj_nnp_target_t:process2 nnp_transition;
allow hj_nodyn_t hj_target_t:process2 hijack;
allow hj_nohijack_t hj_target_t:process dyntransition;
allow hj_nosetcur_t hj_target_t:process2 hijack;
allow hj_nosetcur_t hj_target_t:process dyntransition;
EOF

awk -v types="$tmp/types" -v rules="$tmp/rules" '
	function cat(f,  line) {
		while ((getline line < f) > 0)
			print line
		close(f)
	}
	$0 == "type base_t;" { cat(types); next }
	$0 == "role base_r types { base_t };" {
		print "role base_r types hj_domain;"
		next
	}
	/^allow base_t base_t:process \*;$/ {
		print "allow hj_domain hj_domain:process ~{ dyntransition setcurrent };"
		next
	}
	/^allow base_t base_t:process2 \*;$/ {
		print "allow hj_domain hj_domain:process2 ~{ hijack nnp_transition };"
		next
	}
	/^allow base_t base_t:/ { sub(/base_t base_t/, "hj_domain hj_domain"); print; next }
	# Only the capability the tests need: checkpolicy may not know
	# the newest ones the kernel does.
	/^policycap / && $2 != "nnp_nosuid_transition;" { next }
	/^user user_u / { cat(rules) }
	{ print }
' "$tmp/policy.conf" >"$tmp/test.conf"
grep -q '^typebounds' "$tmp/test.conf" || die "mdp's output changed: no 'type base_t;' line to replace"
grep -q '^allow hj_caller_t' "$tmp/test.conf" || die "mdp's output changed: no 'user user_u' line"
grep -q '^policycap nnp_nosuid_transition;' "$tmp/test.conf" ||
	die "mdp wrote no nnp_nosuid_transition policy capability"
checkpolicy -U deny -o "$outdir/selinux.policy" "$tmp/test.conf" >"$tmp/checkpolicy.log" 2>&1 ||
	{ cat "$tmp/checkpolicy.log" >&2; die "checkpolicy refused the test policy"; }

# --- AppArmor ------------------------------------------------------------

cp "$here/lsm/apparmor.profiles" "$outdir/"
# apparmor_parser runs in the guest through the dynamic loader it names.
cp "$parser" "$outdir/apparmor_parser"
interp=$(LC_ALL=C readelf -l "$parser" | sed -n 's/.*program interpreter: \(.*\)]/\1/p')
[ -n "$interp" ] || die "$parser names no program interpreter"
cp -L "$interp" "$outdir/ld.so"
ldd "$parser" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r lib; do
	cp -L "$lib" "$outdir/"
done

echo "lsm-policy: $outdir: $(cd "$outdir" && echo *)" >&2
exit
}
