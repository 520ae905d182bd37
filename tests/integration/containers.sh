# containers.sh - start and remove throwaway containers of real runtimes,
# for the tests and the README's demo.  POSIX sh; needs root.
#
#   lxc_up NAME      an LXC busybox container, no network; sets CT_PID
#   lxc_down NAME
#   runc_up NAME DIR a runc container from a busybox root in DIR; sets CT_PID
#   runc_down NAME DIR

lxc_up() {
	lxc-destroy -f -n "$1" >/dev/null 2>&1
	lxc-create -n "$1" -t busybox >/dev/null 2>&1 || return 1
	# No network: this workplace has no bridge, and a demo needs none.
	sed -i '/^lxc\.net\./d' "/var/lib/lxc/$1/config"
	echo "lxc.net.0.type = empty" >>"/var/lib/lxc/$1/config"
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
