#!/bin/sh
# Containers by name, with real engines: an LXC, a runc, a Docker, a Podman
# and a containerd container at once, all from one busybox root.  For each:
# entered by name, id and id prefix, and what runs is in the container's
# hostname, pid namespace, cgroups and capabilities; unknown names fail
# with 125; a container stopped, or restarted, between lookup and pinning is
# refused, and the restarted one is what the next entry gets.  Then the
# names that several engines share, --list (text and JSON), --explain, and
# the bash completion of TARGET.
#
# The daemons (containerd, dockerd, podman's API service) are started here
# when they do not run, and stopped again; one that runs already is used
# and left alone.  crun, Incus and systemd-machined cannot run here (see
# README.md): their code is tested on recorded state in check_engine.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
# A resolver that died early must not take the test down with SIGPIPE.
trap '' PIPE

: "${CTRESOLVE:=$(dirname "$FIXTURE")/ctresolve}"
require_tools lxc-create runc containerd ctr dockerd docker podman busybox python3 bash zsh

plan 60

tmp=$(tmpdir)
n=hjt$$
img=hijack-test-bb:$$
rdir=$tmp/runc

engines_cleanup() {
	docker_down "$n-web"
	podman_down "$n-web"
	ctr_down "$n-ctr"
	runc_down "$n-runc" "$rdir"
	lxc_down "$n-lxc"
	docker rmi -f "$img" >/dev/null 2>&1
	podman rmi -f "localhost/$img" >/dev/null 2>&1
	ctr images rm "$img" >/dev/null 2>&1
	podman_service_down
	docker_daemon_down
	containerd_daemon_down
}
trap 'engines_cleanup; cleanup' EXIT

bail() {
	echo "Bail out! $*"
	exit 1
}

# --- the engines and one container of each ----------------------------------
bb_rootfs "$tmp/rootfs" || bail "no busybox root"
tar -C "$tmp/rootfs" -cf "$tmp/rootfs.tar" . || bail "tar"
oci_archive "$tmp/rootfs" "$tmp/oci.tar" "$img" || bail "OCI archive"
containerd_daemon_up "$tmp" || bail "containerd did not start"
docker_daemon_up "$tmp" || bail "dockerd did not start"
docker import "$tmp/rootfs.tar" "$img" >/dev/null || bail "docker import"
podman import "$tmp/rootfs.tar" "$img" >/dev/null 2>&1 || bail "podman import"
ctr images import "$tmp/oci.tar" >/dev/null || bail "ctr images import"

lxc_up "$n-lxc" || bail "LXC container"
lxc_pid=$CT_PID
runc_up "$n-runc" "$rdir" || bail "runc container"
runc_pid=$CT_PID
ctr_up "$n-ctr" "$img" || bail "containerd container"
ctr_pid=$CT_PID
docker_up "$n-web" "$img" || bail "docker container"
docker_pid=$CT_PID docker_id=$CT_ID
# Podman's container has the docker one's name: NAME alone is ambiguous.
podman_up "$n-web" "localhost/$img" || bail "podman container"
podman_pid=$CT_PID podman_id=$CT_ID

# What the entered command sees, against what the container's own init has.
probe='h=$(hostname); p=$(readlink /proc/self/ns/pid)
[ "$(cat /proc/self/cgroup)" = "$(cat /proc/1/cgroup)" ] && c=same || c=other
[ "$(grep ^Cap /proc/self/status)" = "$(grep ^Cap /proc/1/status)" ] && k=same || k=other
echo "$h $p cgroups:$c caps:$k"'
expect() {
	echo "$(nsenter -t "$1" -u hostname) $(readlink "/proc/$1/ns/pid") cgroups:same caps:same"
}

# enter DESC PID TARGET...: each TARGET enters the container of init PID.
enter() {
	desc=$1 pid=$2
	shift 2
	want=$(expect "$pid")
	for t in "$@"; do
		out=$("$HIJACK" "$t" -- /bin/sh -c "$probe" 2>&1)
		is "$out" "$want" "$desc: '$t' enters it (hostname, pid ns, cgroups, caps)"
	done
}

enter lxc "$lxc_pid" "$n-lxc" "lxc:$n-lxc"
enter runc "$runc_pid" "$n-runc" "runc:$n-runc"
enter containerd "$ctr_pid" "$n-ctr" "containerd:$n-ctr" "containerd:default/$n-ctr"
enter docker "$docker_pid" "docker:$n-web" "$docker_id" "$(echo "$docker_id" | cut -c1-12)"
enter podman "$podman_pid" "podman:$n-web" "$podman_id" "podman:$(echo "$podman_id" | cut -c1-12)"

# Docker's containers are also containerd's (namespace moby): reachable
# there by name, but one container when every engine is searched.
enter "containerd moby" "$docker_pid" "containerd:moby/$docker_id" \
	"containerd:moby/$(echo "$docker_id" | cut -c1-12)"

# --- names that are not one container ---------------------------------------
err=$("$HIJACK" "$n-web" -- true 2>&1); rc=$?
is "$rc" 125 "a name two engines use: 125"
is "$err" "hijack: target: '$n-web' matches several containers: docker:$n-web podman:$n-web" \
	"... listing them as ENGINE:NAME"
# Names match whole: lxc, runc and containerd ids are names chosen
# freely, not abbreviated; a generated id is, by 12 hex digits or more.
err=$("$HIJACK" "$n-" -- true 2>&1); rc=$?
is "$rc" 125 "the start of several names: 125"
like "$err" "hijack: target: no running container '$n-' (searched: *): * only starts with it; names match whole, ids by 12 hex digits or more: No such file or directory" \
	"... saying that names match whole"
err=$("$HIJACK" "$(echo "$docker_id" | cut -c1-11)" -- true 2>&1); rc=$?
like "$rc:$err" "125:*no running container*" "an id prefix under 12 hex digits: 125"
for e in lxc runc docker podman containerd; do
	err=$("$HIJACK" "$e:nosuch$$" -- true 2>&1); rc=$?
	is "$rc:$err" "125:hijack: target: no running container 'nosuch$$' (searched: $e): No such file or directory" \
		"$e: an unknown name is 125, naming the engine searched"
done
err=$("$HIJACK" "nosuch$$" -- true 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: no running container 'nosuch$$' (searched: lxc, docker, podman, *containerd, runc*): No such file or directory" \
	"without ENGINE: 125, naming every engine searched"
err=$("$HIJACK" "rkt:web" -- true 2>&1); rc=$?
like "$rc:$err" "125:hijack: target: unknown engine 'rkt' in 'rkt:web' (known: *)*" "an unknown engine: 125"

# --- stopped or restarted between lookup and pinning ------------------------
# ctresolve finds TARGET, waits for a line, then pins: the container is
# stopped (or restarted) in the pause.  Its answer is in $tmp/res.
race() {
	target=$1 action=$2
	rm -f "$tmp/fifo" "$tmp/res"
	mkfifo "$tmp/fifo"
	"$CTRESOLVE" "$target" <"$tmp/fifo" >"$tmp/res" 2>&1 &
	rpid=$!
	exec 9>"$tmp/fifo"
	_wait_for 10 grep -q . "$tmp/res"
	$action
	echo go >&9
	exec 9>&-
	wait "$rpid"
	race_rc=$?
}

# check_races ENGINE TARGET STOP START...: stopped between lookup and entry
# is refused; so is a restart under the same name; the next entry gets the
# restarted container.
check_races() {
	e=$1 target=$2 stop=$3
	shift 3
	race "$target" "$stop"
	like "$race_rc $(tail -n 1 "$tmp/res")" "125 ctresolve: *$e:*stopped*" \
		"$e: stopped between lookup and pinning: refused"
	"$@" || bail "$e: could not start again"
	race "$target" "restart_$e"
	like "$race_rc $(tail -n 1 "$tmp/res")" "125 ctresolve: *$e:*: No such process" \
		"$e: restarted between lookup and pinning: refused, not the new one half-way"
	want=$(expect "$CT_PID")
	out=$("$HIJACK" "$target" -- /bin/sh -c "$probe" 2>&1)
	is "$out" "$want" "$e: after the restart, '$target' enters the new container"
}
restart_lxc() { lxc_stop "$n-lxc"; lxc_start "$n-lxc"; }
restart_runc() { runc_stop "$n-runc"; runc_start "$n-runc" "$rdir"; }
restart_containerd() { ctr_stop "$n-ctr"; ctr_start "$n-ctr"; }
restart_docker() { docker_stop "$n-web"; docker_start "$n-web"; }
restart_podman() { podman_stop "$n-web"; podman_start "$n-web"; }

check_races lxc "lxc:$n-lxc" "lxc_stop $n-lxc" lxc_start "$n-lxc"
lxc_pid=$CT_PID
check_races runc "runc:$n-runc" "runc_stop $n-runc" runc_start "$n-runc" "$rdir"
runc_pid=$CT_PID
check_races containerd "containerd:$n-ctr" "ctr_stop $n-ctr" ctr_start "$n-ctr"
ctr_pid=$CT_PID
check_races docker "docker:$n-web" "docker_stop $n-web" docker_start "$n-web"
docker_pid=$CT_PID
check_races podman "podman:$n-web" "podman_stop $n-web" podman_start "$n-web"
podman_pid=$CT_PID

# --- --list, --explain -----------------------------------------------------
out=$("$HIJACK" --list); rc=$?
is "$rc" 0 "--list: exit 0"
like "$(echo "$out" | head -n 1)" "ENGINE *NAME *ID *PID *STATE" "--list: a header like ps"
for row in "lxc $n-lxc $lxc_pid" "runc $n-runc $runc_pid" \
	"containerd default/$n-ctr $ctr_pid" "docker $n-web $docker_pid" \
	"podman $n-web $podman_pid"; do
	set -- $row
	got=$(echo "$out" | awk -v e="$1" -v n="$2" '$1 == e && $2 == n { print $1, $2, $4, $5 }')
	is "$got" "$1 $2 $3 running" "--list: $1 $2 with its pid"
done
is "$(echo "$out" | grep -c "moby/")" 0 "--list: docker's containers once, not again as containerd's"
json=$("$HIJACK" --list --json)
got=$(echo "$json" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["containers"]:
    if c["name"].startswith(sys.argv[1]) or c["name"].startswith("default/" + sys.argv[1]):
        print(c["engine"], c["name"], type(c["pid"]).__name__, c["state"])
' "$n-" | sort)
is "$got" "containerd default/$n-ctr int running
docker $n-web int running
lxc $n-lxc int running
podman $n-web int running
runc $n-runc int running" "--list --json: the same containers, pid a number"

out=$("$HIJACK" --explain "docker:$n-web")
like "$out" "container: docker:$n-web
id:      $docker_id
state:   running
init:    pid $docker_pid
target:  pid $docker_pid*" "--explain: engine, name, id and the resolved pid"
out=$("$HIJACK" --explain=json "runc:$n-runc")
got=$(echo "$out" | python3 -c 'import json, sys; c = json.load(sys.stdin)["container"]; print(c["engine"], c["name"], c["id"], c["pid"])')
is "$got" "runc $n-runc $n-runc $runc_pid" "--explain=json: the container object"

# --- podman without its API service: its CLI ---------------------------------
# The service was not started yet: what ran so far used "podman ps".  With
# the service, the compatible API answers instead, the same.
podman_service_up "$tmp" || bail "podman system service did not start"
enter "podman API" "$podman_pid" "podman:$n-web" "$podman_id"

# --- bash completion of TARGET ----------------------------------------------
if command -v bash >/dev/null; then
	comp=$(PATH="$(dirname "$HIJACK"):$PATH" bash -c '
		. "$1/../../completions/bash/hijack"
		COMP_WORDS=(hijack "$2"); COMP_CWORD=1; COMP_LINE="hijack $2"; COMP_POINT=${#COMP_LINE}
		_hijack; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$TESTDIR" "$n-")
	is "$comp" "$n-ctr
$n-lxc
$n-runc
$n-web" "bash: TARGET completes from the running containers' names"
	comp=$(PATH="$(dirname "$HIJACK"):$PATH" bash -c '
		. "$1/../../completions/bash/hijack"
		COMP_WORDS=(hijack -n docker : "$2"); COMP_CWORD=4; COMP_LINE="hijack -n docker:$2"; COMP_POINT=${#COMP_LINE}
		_hijack; printf "%s\n" "${COMPREPLY[@]}"' _ "$TESTDIR" "$n-")
	is "$comp" "$n-web" "bash: after ENGINE:, that engine's names"
else
	bail "bash is missing"
fi
# zsh, through an interactive zsh on a pseudo-terminal (zcapture.zsh).
# Once more if zsh did not answer: a loaded machine can lose it.
zengines() {
	PATH="$(dirname "$HIJACK"):$PATH" zsh -f "$TESTDIR/zcapture.zsh" \
		"$TESTDIR/../../completions/zsh" "$tmp/zcapture.out" \
		"hijack $n-" "hijack docker:$n" "hijack -t 1 hostnam" 2>&1
}
zout=$(zengines) || zout=$(zengines)
is "$(echo "$zout" | sed -n 1p)" "$n-ctr $n-lxc $n-runc $n-web" \
	"zsh: TARGET completes from the running containers' names"
is "$(echo "$zout" | sed -n 2p)" "docker:$n-web" "zsh: ENGINE:NAME too"
case $(echo "$zout" | sed -n 3p) in
"" | *"did not answer"*)
	skip "zsh: after --pid, the first word is the command" "zsh did not answer on its pseudo-terminal" ;;
*) like "$(echo "$zout" | sed -n 3p)" "*hostname*" "zsh: after --pid, the first word is the command" ;;
esac

finish
