# containers.sh - start and remove throwaway containers of real runtimes,
# for the tests and the README's demo.  POSIX sh; needs root.
#
#   lxc_up NAME      an LXC busybox container, no network; sets CT_PID;
#                    LXC_EXTRA_CONFIG, if set, is one more line of its config
#   lxc_down NAME
#   runc_up NAME DIR a runc container from a busybox root in DIR; sets CT_PID
#   runc_down NAME DIR
#   require_tools TOOL...  bail out unless each TOOL is installed

# A test of engines bails out without one: a machine without the engines
# is not set up (tests/deps.sh), which is not a reason to skip.
require_tools() {
	for _tool; do
		command -v "$_tool" >/dev/null || {
			echo "Bail out! $_tool is missing: run tests/deps.sh test"
			exit 1
		}
	done
}

lxc_up() {
	lxc-destroy -f -n "$1" >/dev/null 2>&1
	lxc-create -n "$1" -t busybox >/dev/null 2>&1 || return 1
	# No network: this workplace has no bridge, and a demo needs none.
	sed -i '/^lxc\.net\./d' "/var/lib/lxc/$1/config"
	echo "lxc.net.0.type = empty" >>"/var/lib/lxc/$1/config"
	[ -z "${LXC_EXTRA_CONFIG:-}" ] || echo "$LXC_EXTRA_CONFIG" >>"/var/lib/lxc/$1/config"
	lxc-start -n "$1" -d || return 1
	_i=0
	while [ $_i -lt 100 ]; do
		CT_PID=$(lxc-info -pH -n "$1" 2>/dev/null)
		[ -n "$CT_PID" ] && [ "$CT_PID" -gt 0 ] 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

lxc_down() {
	lxc-stop -k -n "$1" >/dev/null 2>&1
	lxc-destroy -f -n "$1" >/dev/null 2>&1
	return 0
}

runc_up() {
	_b=$(command -v busybox) || return 1
	rm -rf "$2"
	mkdir -p "$2/rootfs/bin" "$2/rootfs/proc" "$2/rootfs/sys" \
		"$2/rootfs/dev" "$2/rootfs/tmp" "$2/rootfs/etc"
	cp "$_b" "$2/rootfs/bin/busybox"
	for _a in sh sleep hostname ps id cat ls readlink stat; do
		ln -sf busybox "$2/rootfs/bin/$_a"
	done
	(cd "$2" && runc spec) || return 1
	# Edit the generated spec: a long-running command, no terminal, a name.
	sed -i -e 's/"terminal": true/"terminal": false/' \
		-e 's/"sh"$/"sleep", "100000"/' \
		-e "s/\"hostname\": \"runc\"/\"hostname\": \"$1\"/" "$2/config.json"
	(cd "$2" && runc run -d "$1" >/dev/null 2>&1 </dev/null) || return 1
	CT_PID=$(runc state "$1" | sed -n 's/^ *"pid": \([0-9]*\),*$/\1/p')
	[ -n "$CT_PID" ] && [ "$CT_PID" -gt 0 ]
}

runc_down() {
	runc kill "$1" KILL >/dev/null 2>&1
	runc delete -f "$1" >/dev/null 2>&1
	rm -rf "$2"
	return 0
}

# --- images and daemons for the engines of 13-engines.t --------------------
# No registry is reachable: every image is made here from busybox-static.
#
#   bb_rootfs DIR          a busybox root with every applet linked
#   oci_archive ROOT TAR REF   an OCI image layout of ROOT, as a tarball
#   containerd_daemon_up LOGDIR / containerd_daemon_down
#   docker_daemon_up LOGDIR    / docker_daemon_down   (dockerd on containerd)
#   podman_service_up LOGDIR   / podman_service_down  (the compatible API)
#
# A daemon that already runs is used as it is and left running: the *_down
# functions stop only what the *_up functions started.

bb_rootfs() {
	_b=$(command -v busybox) || return 1
	rm -rf "$1"
	mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev" "$1/tmp" "$1/etc" || return 1
	cp "$_b" "$1/bin/busybox" || return 1
	for _a in $("$1/bin/busybox" --list); do
		[ "$_a" = busybox ] || ln -sf busybox "$1/bin/$_a"
	done
	echo "root:x:0:0:root:/:/bin/sh" >"$1/etc/passwd"
	echo "root:x:0:" >"$1/etc/group"
}

# _blob DIR FILE: move FILE into DIR/blobs/sha256 under its digest; print
# "DIGEST SIZE".
_blob() {
	_d=$(sha256sum "$2" | cut -d' ' -f1)
	_s=$(stat -c %s "$2")
	mv "$2" "$1/blobs/sha256/$_d"
	echo "$_d $_s"
}

oci_archive() {
	_o=$(mktemp -d) || return 1
	mkdir -p "$_o/blobs/sha256"
	tar -C "$1" -cf "$_o/layer" . || return 1
	set -- "$1" "$2" "$3" $(_blob "$_o" "$_o/layer")
	_arch=$(dpkg --print-architecture)
	printf '{"architecture":"%s","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"config":{"Cmd":["/bin/sh"]}}' \
		"$_arch" "$4" >"$_o/config"
	set -- "$@" $(_blob "$_o" "$_o/config")
	printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' \
		"$6" "$7" "$4" "$5" >"$_o/manifest"
	set -- "$@" $(_blob "$_o" "$_o/manifest")
	printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s"}}]}' \
		"$8" "$9" "$3" >"$_o/index.json"
	echo '{"imageLayoutVersion":"1.0.0"}' >"$_o/oci-layout"
	tar -C "$_o" -cf "$2" oci-layout index.json blobs
	_rc=$?
	rm -rf "$_o"
	return $_rc
}

# _wait_for SECONDS COMMAND...: until COMMAND succeeds.
_wait_for() {
	_t=$(($1 * 10))
	shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}

# containerd and dockerd are shared by the tests of a parallel make check
# (13-engines.t and 17-ansible.t both need them): each test registers as
# a user under a lock; a daemon is started when none answers, and the
# last user out stops it, whoever started it, so that no test pulls a
# daemon from under another.  flock -o: the daemon must not inherit the
# lock.
_shared=/run/hijack-tests

# _daemon_up NAME SECONDS PROBE START...: register, start if PROBE fails.
_daemon_up() {
	mkdir -p "$_shared/$1.users" || return 1
	flock -o "$_shared/$1.lock" sh -c '
		d=$1 name=$2 secs=$3 probe=$4 me=$5
		shift 5
		: >"$d/$name.users/$me"
		sh -c "$probe" >/dev/null 2>&1 && exit 0
		"$@" </dev/null &
		echo $! >"$d/$name.pid"
		t=$((secs * 10))
		while [ $t -gt 0 ]; do
			sh -c "$probe" >/dev/null 2>&1 && exit 0
			sleep 0.1
			t=$((t - 1))
		done
		exit 1' sh "$_shared" "$@"
}

# _daemon_down NAME: unregister; the last live user stops the daemon a
# test started (one that ran before the tests is never recorded).
_daemon_down() {
	[ -d "$_shared/$1.users" ] || return 0
	flock -o "$_shared/$1.lock" sh -c '
		d=$1 name=$2 me=$3
		rm -f "$d/$name.users/$me"
		for u in "$d/$name.users"/*; do
			[ -e "$u" ] || continue
			kill -0 "${u##*/}" 2>/dev/null && exit 0
			rm -f "$u"
		done
		[ -s "$d/$name.pid" ] || exit 0
		pid=$(cat "$d/$name.pid")
		rm -f "$d/$name.pid"
		kill "$pid" 2>/dev/null || exit 0
		t=300
		while [ $t -gt 0 ] && kill -0 "$pid" 2>/dev/null; do
			sleep 0.1
			t=$((t - 1))
		done' sh "$_shared" "$1" $$
}

containerd_daemon_up() {
	_daemon_up containerd 30 "ctr version" $$ \
		sh -c 'exec containerd >"$1/containerd.log" 2>&1' sh "$1"
}

containerd_daemon_down() {
	_daemon_down containerd
}

# No bridge and no iptables: this machine has no network to give, and a
# test must not rewrite the host's firewall.
docker_daemon_up() {
	_daemon_up docker 60 "docker version" $$ \
		sh -c 'exec dockerd --bridge=none --iptables=false --ip6tables=false \
			--containerd=/run/containerd/containerd.sock >"$1/dockerd.log" 2>&1' sh "$1"
}

docker_daemon_down() {
	_daemon_down docker
}

_podsvc_pid=""
podman_service_up() {
	[ -S /run/podman/podman.sock ] &&
		sock_answers /run/podman/podman.sock && return 0
	mkdir -p /run/podman
	podman system service -t 0 unix:///run/podman/podman.sock \
		>"$1/podman-service.log" 2>&1 &
	_podsvc_pid=$!
	_wait_for 30 test -S /run/podman/podman.sock
}

# Whether something accepts connections on a unix socket.
sock_answers() {
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' "$1" 2>/dev/null
}

podman_service_down() {
	[ -n "$_podsvc_pid" ] || return 0
	kill "$_podsvc_pid" 2>/dev/null
	wait "$_podsvc_pid" 2>/dev/null
	rm -f /run/podman/podman.sock
	_podsvc_pid=""
}

# --- containers of each engine: NAME up (sets CT_PID and CT_ID), stop,
# start again under the same name (sets CT_PID), down.  IMG: an image name.
docker_up() {
	CT_ID=$(docker run -d --name "$1" --hostname "$1" --network none \
		"$2" /bin/sleep 100000) || return 1
	CT_PID=$(docker inspect -f '{{.State.Pid}}' "$1")
}
docker_stop() { docker kill "$1" >/dev/null 2>&1; }
docker_start() {
	docker start "$1" >/dev/null || return 1
	CT_PID=$(docker inspect -f '{{.State.Pid}}' "$1")
}
docker_down() { docker rm -f "$1" >/dev/null 2>&1; return 0; }

# Podman with runc, not crun (crun refuses this host's hybrid cgroups);
# runc then needs the limits spelled out ("error setting rlimit type 7").
podman_up() {
	CT_ID=$(podman --runtime runc run -d --name "$1" --hostname "$1" \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		--network none "$2" /bin/sleep 100000 2>/dev/null) || return 1
	CT_PID=$(podman inspect -f '{{.State.Pid}}' "$1")
}
podman_stop() { podman kill "$1" >/dev/null 2>&1; podman wait "$1" >/dev/null 2>&1; }
podman_start() {
	podman --runtime runc start "$1" >/dev/null 2>&1 || return 1
	CT_PID=$(podman inspect -f '{{.State.Pid}}' "$1")
}
podman_down() { podman rm -f "$1" >/dev/null 2>&1; return 0; }

_ctr_pid() {
	ctr task ls 2>/dev/null | awk -v n="$1" '$1 == n && $3 == "RUNNING" { print $2 }'
}
ctr_up() {
	ctr run -d "$2" "$1" /bin/sleep 100000 >/dev/null 2>&1 || return 1
	CT_ID=$1
	CT_PID=$(_ctr_pid "$1")
	[ -n "$CT_PID" ]
}
ctr_stop() {
	ctr task kill -s KILL "$1" >/dev/null 2>&1
	_wait_for 10 sh -c "ctr task ls | grep -q '^$1 .*STOPPED'"
	ctr task rm "$1" >/dev/null 2>&1
}
ctr_start() {
	ctr task start -d "$1" >/dev/null 2>&1 || return 1
	CT_PID=$(_ctr_pid "$1")
	[ -n "$CT_PID" ]
}
ctr_down() {
	ctr_stop "$1"
	ctr container rm "$1" >/dev/null 2>&1
	return 0
}

lxc_stop() { lxc-stop -k -n "$1" >/dev/null 2>&1; }
lxc_start() {
	lxc-start -n "$1" -d || return 1
	_wait_for 10 sh -c "lxc-info -pH -n '$1' | grep -q '^[0-9]'"
	CT_PID=$(lxc-info -pH -n "$1")
}

runc_stop() {
	runc kill "$1" KILL >/dev/null 2>&1
	runc delete -f "$1" >/dev/null 2>&1
}
runc_start() {
	(cd "$2" && runc run -d "$1" >/dev/null 2>&1 </dev/null) || return 1
	CT_PID=$(runc state "$1" | sed -n 's/^ *"pid": \([0-9]*\),*$/\1/p')
	[ -n "$CT_PID" ] && [ "$CT_PID" -gt 0 ]
}

# --- Docker-like runc containers ----------------------------------------------
#   distroless_up NAME DIR BIN   a runc container whose rootfs holds BIN (a
#                                static program) as /app and nothing else: no
#                                shell, no libc; sets CT_PID
#   dockerlike_up NAME DIR       the same with a busybox root, running sleep
#   distroless_down NAME DIR / dockerlike_down NAME DIR
# Both run as Docker runs a container by default: as root, with Docker's
# default capabilities and without no_new_privs; their root is writable,
# with a 64 KiB tmpfs on /small.

_runc_dockerlike() {
	(cd "$2" && runc spec) || return 1
	python3 - "$2/config.json" "$1" "$3" <<'PY' || return 1
import json, sys
path, name, args = sys.argv[1], sys.argv[2], sys.argv[3].split()
c = json.load(open(path))
c["process"]["terminal"] = False
c["process"]["args"] = args
c["root"]["readonly"] = False
c["hostname"] = name
c["process"]["noNewPrivileges"] = False
caps = ["CAP_" + n for n in ("CHOWN DAC_OVERRIDE FSETID FOWNER MKNOD NET_RAW "
        "SETGID SETUID SETFCAP SETPCAP NET_BIND_SERVICE SYS_CHROOT KILL "
        "AUDIT_WRITE").split()]
for k in ("bounding", "effective", "permitted"):
    c["process"]["capabilities"][k] = caps
c["process"]["capabilities"].pop("inheritable", None)
c["process"]["capabilities"].pop("ambient", None)
c["mounts"].append({"destination": "/small", "type": "tmpfs",
                    "source": "tmpfs", "options": ["size=64k", "mode=1777"]})
json.dump(c, open(path, "w"))
PY
	(cd "$2" && runc run -d "$1" >/dev/null 2>&1 </dev/null) || return 1
	CT_PID=$(runc state "$1" | sed -n 's/^ *"pid": \([0-9]*\),*$/\1/p')
	[ -n "$CT_PID" ] && [ "$CT_PID" -gt 0 ]
}

distroless_up() {
	rm -rf "$2"
	mkdir -p "$2/rootfs" || return 1
	cp "$3" "$2/rootfs/app" || return 1
	_runc_dockerlike "$1" "$2" /app
}

dockerlike_up() {
	bb_rootfs "$2/rootfs" || return 1
	_runc_dockerlike "$1" "$2" "sleep 100000"
}

distroless_down() {
	runc_down "$@"
}

dockerlike_down() {
	runc_down "$@"
}

# pid_inside ARGS: the pid, in the container where the caller's function
# "inside" runs commands, of the process whose command line is ARGS (its
# words joined by spaces), waiting up to 10 s for it to appear.
pid_inside() {
	_i=0
	while [ $_i -lt 100 ]; do
		_p=$(inside sh -c 'for d in /proc/[0-9]*; do [ "$(cat $d/cmdline 2>/dev/null | tr "\0" " ")" = "$1 " ] && echo ${d#/proc/}; done' sh "$1")
		[ -n "$_p" ] && { echo "$_p"; return 0; }
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
