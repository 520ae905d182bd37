#!/bin/sh
# Against a real LXC container: what hijack gives the entered command must
# match the container's init on namespaces, capabilities and cgroups, and
# be equal to or stricter than what lxc-attach gives.  nsenter -a is shown
# beside them for the record: it hands out the host's capabilities and
# leaves the command in the host's cgroups.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
command -v lxc-create >/dev/null || skip_all "needs lxc (apt-get install lxc)"
command -v busybox >/dev/null || skip_all "needs busybox-static"

plan 21

name=hijack-parity-$$
lxc_up "$name" || { lxc_down "$name"; echo "Bail out! could not start an LXC container"; exit 1; }
_pids="$_pids"
trap 'cleanup; lxc_down "$name"' EXIT
init=$CT_PID

# started PATTERN: the pid of the newest "sleep PATTERN" process.
started() {
	_i=0
	while [ $_i -lt 100 ]; do
		_p=$(pgrep -n -x -f "sleep $1")
		[ -n "$_p" ] && { echo "$_p"; return; }
		sleep 0.05
		_i=$((_i + 1))
	done
}
field() { grep "^$2:" "/proc/$1/status" | cut -f2; }

"$HIJACK" --pid "$init" -- sleep 3001 & hp=$!
lxc-attach -n "$name" -- sleep 3002 & ap=$!
nsenter -t "$init" -a sleep 3003 & np=$!
_pids="$_pids $hp $ap $np"
h=$(started 3001)
a=$(started 3002)
e=$(started 3003)

diag "what each entry tool gives (from the host's /proc)"
diag "$(printf '%-11s %-18s %-18s %-18s %s' field init hijack lxc-attach 'nsenter -a')"
for f in Uid Gid CapInh CapPrm CapEff CapBnd CapAmb NoNewPrivs Seccomp; do
	diag "$(printf '%-11s %-18s %-18s %-18s %s' $f "$(field $init $f)" "$(field $h $f)" "$(field $a $f)" "$(field $e $f)")"
done
diag "$(printf '%-11s %-18s %-18s %-18s %s' "cgroup v2" "$(grep '^0::' /proc/$init/cgroup)" "$(grep '^0::' /proc/$h/cgroup)" "$(grep '^0::' /proc/$a/cgroup)" "$(grep '^0::' /proc/$e/cgroup)")"

for t in mnt uts ipc net pid user cgroup; do
	is "$(nsid $h $t)" "$(nsid $init $t)" "hijack: $t namespace is the container's"
done
for f in CapInh CapPrm CapEff CapBnd CapAmb; do
	is "$(field $h $f)" "$(field $init $f)" "hijack: $f equals the container init's"
done
for f in CapPrm CapEff CapBnd CapAmb; do
	hv=$((0x$(field $h $f)))
	av=$((0x$(field $a $f)))
	is "$((hv & ~av))" 0 "hijack: $f holds nothing lxc-attach does not give"
done
is "$(cat /proc/$h/cgroup)" "$(cat /proc/$init/cgroup)" "hijack: in the container's cgroup on every hierarchy"
while read -r line; do
	ctl=${line#*:}
	ctl=${ctl%%:*}
	ap_path=$(grep "^[0-9]*:$ctl:" /proc/$a/cgroup | cut -d: -f3-)
	hp_path=${line#*:*:}
	case "$ap_path" in
	"$hp_path" | "$hp_path"/*) ;;
	*) diag "controllers '$ctl': lxc-attach in $ap_path, hijack in $hp_path"; bad=1 ;;
	esac
done </proc/$h/cgroup
is "${bad:-0}" 0 "hijack's cgroups contain lxc-attach's (lxc-attach may use a leaf below)"
is "$(field $h NoNewPrivs)" "$(field $init NoNewPrivs)" "hijack: no_new_privs as the init"
is "$(field $h Seccomp)" "$(field $init Seccomp)" "hijack: seccomp mode as the init"
nh=$((0x$(field $h CapEff)))
ne=$((0x$(field $e CapEff)))
[ $((ne & ~nh)) -ne 0 ]
ok $? "for the record: nsenter -a holds capabilities the container does not ($(printf '%x' $((ne & ~nh))))"

kill $hp $ap $np 2>/dev/null
finish
