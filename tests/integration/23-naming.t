#!/bin/sh
# Entering by name enters the container named, and no other.  Each case
# is an attack, by an unprivileged local user or through a name:
#
#  - LXC's monitor sockets are abstract, with no owner: a user binds the
#    socket of a container that does not run (or that another engine runs
#    under that name) and answers liblxc's questions with the pid of a
#    process of theirs, in a cgroup named like the container's (as in the
#    cgroup systemd delegates to a user, where the user's own LXC
#    containers run).  Root's --list must not list it, entering it must
#    fail (125, saying why), and real names stay enterable and unambiguous;
#  - a cgroup mark ends at "/": lxc.payload.NAME is not lxc.payload.NAME.1,
#    even when a (lying) monitor gives NAME.1's pid for NAME;
#  - names match whole: the prefix of a running container's name is not
#    its name (only generated hex ids are abbreviated);
#  - names with control characters never reach the terminal raw.
#
# The shell completions of hostile names are in 07-completions.t.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
require_tools lxc-create lxc-config runc setpriv findmnt busybox python3

plan 26

tmp=$(tmpdir)
n=hjn$$
web=$n-web
web1=$n-web.1
fake=$n-fake
rdir=$tmp/runc
lxcpath=$(lxc-config lxc.lxcpath)
# The interpreter itself: a user may not be able to run a shim in root's home.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
mons=""

bail() {
	echo "Bail out! $*"
	exit 1
}

naming_cleanup() {
	for p in $mons; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	[ -z "$upid" ] || { kill "$upid" 2>/dev/null; wait "$upid" 2>/dev/null; }
	[ -z "$ucg" ] || rmdir "$ucg" "${ucg%/*}" 2>/dev/null
	lxc_down "$web1"
	lxc_down "$web"
	runc_down "$n-runc" "$rdir"
}
trap 'naming_cleanup; cleanup' EXIT

# mon OUT [PREFIX...] -- NAME:PID...: a fake monitor (lxcmon.py) run by
# PREFIX (e.g. setpriv), its output in OUT; waits until it has bound.
mon() {
	_out=$1
	shift
	_pre=""
	while [ "$1" != -- ]; do
		_pre="$_pre $1"
		shift
	done
	shift
	$_pre "$py" "$TESTDIR/lxcmon.py" "$lxcpath" "$@" >"$_out" 2>&1 &
	mons="$mons $!"
	_wait_for 10 grep -qx ready "$_out" || bail "lxcmon.py did not start: $(cat "$_out")"
}

lxc_up "$web1" || bail "LXC container $web1"
web1_pid=$CT_PID
# Defined, never started: only its longer-named neighbour runs.
lxc-create -n "$web" -t busybox >/dev/null 2>&1 || bail "LXC container $web"
runc_up "$n-runc" "$rdir" || bail "runc container"

# The user's own process, in a cgroup of theirs named like $fake's.
cg2=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
[ -n "$cg2" ] || bail "no cgroup2 mount"
ucg=$cg2/$n-user/lxc.payload.$fake
mkdir -p "$ucg" || bail "mkdir $ucg"
chown -R 65534:65534 "$cg2/$n-user"
$nobody sleep 100000 &
upid=$!
echo "$upid" >"$ucg/cgroup.procs" || bail "cannot move $upid into $ucg"

esc=$(printf '\033')
# What a terminal may obey: C0 controls but newline and tab, DEL, and the
# C1 byte 0x9b (CSI, raw or as the second byte of U+009B).
ctl=$(printf '[\001-\010\013-\037\177\233]')

# --- 1. someone else's monitor socket ---------------------------------------
mon "$tmp/user.mon" $nobody -- "$fake:$upid" "$n-runc:$upid" "$web1:$upid" \
	"$n-esc${esc}[31m:$upid"
like "$(cat "$tmp/user.mon")" "*busy $web1*" \
	"a running container's socket cannot be bound again (the user binds the others)"

out=$("$HIJACK" --list 2>"$tmp/list.err")
is "$(echo "$out" | grep -c -- "$fake")" 0 "--list: no fake container (a user's socket)"
is "$(echo "$out" | awk -v n="$web1" '$2 == n { print $1, $2, $4 }')" "lxc $web1 $web1_pid" \
	"--list: the real container, once, with its init"
is "$(echo "$out" | grep -c -- "$n-runc")" 1 "--list: a runc name a user answers for is listed once"
like "$(cat "$tmp/list.err")" "*left out lxc:$fake not believed: its monitor socket @$lxcpath/$fake/command is held by uid 65534 (pid *), not by root or the owner of $lxcpath*" \
	"--list: says on stderr which name it left out, and why"
LC_ALL=C grep -q "$ctl" "$tmp/list.err"
ok $((! $?)) "--list: no control character on stderr (the user's name with ESC)"
json=$("$HIJACK" --list --json 2>/dev/null)
is "$(echo "$json" | grep -c -- "$fake")" 0 "--list --json: no fake container"

err=$("$HIJACK" "lxc:$fake" -- id -u 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: lxc:$fake not believed: its monitor socket @$lxcpath/$fake/command is held by uid 65534 (pid *), not by root or the owner of $lxcpath: Operation not permitted" \
	"lxc:FAKE: refused with 125, naming the container and why"
err=$("$HIJACK" "$fake" -- id -u 2>&1); rc=$?
like "$rc:$err" "125:*lxc:$fake not believed*" "FAKE without ENGINE: refused with 125"
out=$("$HIJACK" "$n-runc" -- hostname 2>&1); rc=$?
is "$rc:$out" "0:$n-runc" "a runc name a user answers for over LXC: still one container, entered"
out=$("$HIJACK" "lxc:$web1" -- hostname 2>&1); rc=$?
is "$rc:$out" "0:$web1" "the real LXC container: entered by lxc:NAME"
out=$("$HIJACK" "$web1" -- hostname 2>&1); rc=$?
is "$rc:$out" "0:$web1" "the real LXC container: entered by NAME"

# --- 2. cgroup marks end at "/" -----------------------------------------------
err=$("$HIJACK" "lxc:$web" -- hostname 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: no running container '$web' (searched: lxc): lxc:$web1 only starts with it; *" \
	"lxc:NAME, stopped, with NAME.1 running: 125, not NAME.1"
err=$("$HIJACK" "$web" -- hostname 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: no running container '$web' *" "NAME without ENGINE: 125"
# Even a monitor that root runs, lying with NAME.1's init for NAME, does
# not get NAME.1 entered: the proof "lxc.payload.NAME" is not a prefix.
mon "$tmp/root.mon" -- "$web:$web1_pid"
err=$("$HIJACK" "lxc:$web" -- hostname 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: pid $web1_pid is no longer lxc:$web's *" \
	"a monitor giving NAME.1's init for NAME: its cgroup is not NAME's, 125"
err=$("$HIJACK" --explain "lxc:$web" 2>&1); rc=$?
like "$rc:$err" "125:*no longer lxc:$web's*" "--explain of it: 125 too"
for p in $mons; do
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
done
mons=""

# --- 3. names match whole ----------------------------------------------------
for t in "lxc:$n-we" "$n-we" "lxc:$n-" "$n-web."; do
	err=$("$HIJACK" "$t" -- hostname 2>&1); rc=$?
	like "$rc:$err" "125:hijack: target: no running container '${t#lxc:}' (searched: *): * only starts with it; names match whole, ids by 12 hex digits or more: No such file or directory" \
		"'$t', the start of a running container's name: 125, saying names match whole"
done
err=$("$HIJACK" "runc:$n-ru" -- hostname 2>&1); rc=$?
like "$rc:$err" "125:*no running container '$n-ru'*" "runc: an id chosen freely is not abbreviated either"

# --- control characters in names ----------------------------------------------
# Root's own monitors, believed, with names a terminal would obey: hijack
# lists neither (nor lets them reach JSON raw).
mon "$tmp/ctl.mon" -- "$n-csi$(printf '\302\233')31m:$upid" "$n-esc${esc}[31m:$upid"
out=$("$HIJACK" --list 2>&1)
LC_ALL=C grep -q "$ctl" <<EOF
$out
EOF
ok $((! $?)) "--list: no control character (names with ESC and U+009B)"
out=$("$HIJACK" --list --json 2>&1)
LC_ALL=C grep -q "$ctl" <<EOF
$out
EOF
ok $((! $?)) "--list --json: no control character"
is "$(echo "$out" | grep -c -- "$n-csi\|$n-esc")" 0 "--list --json: such names left out"
err=$("$HIJACK" "lxc:$n-esc${esc}[31m" -- true 2>&1); rc=$?
is "$rc:$err" "125:hijack: target: empty or unprintable container name: Invalid argument" \
	"a TARGET with ESC: 125, and not echoed"
err=$("$HIJACK" "lxc:$n-csi$(printf '\302\233')31m" -- true 2>&1); rc=$?
is "$rc:$err" "125:hijack: target: empty or unprintable container name: Invalid argument" \
	"a TARGET with U+009B: 125, and not echoed"

finish
