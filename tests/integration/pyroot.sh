# pyroot.sh - container roots with Python, for Ansible's modules, made from
# the host's Debian python3 (its interpreter, standard library and the
# shared libraries they load), and cached: the build takes a while, the
# tests start many containers from it.  POSIX sh; sourced after
# containers.sh (bb_rootfs).
#
#   pyroot DIR        a busybox root with python3 (a shell and the usual
#                     tools, as a small distribution's container has)
#   pyroot_bare DIR   python3 and nothing else: no shell, no tools (a
#                     "distroless" container)
#
# Both are made once under $HIJACK_PYROOT_CACHE (default
# ~/.cache/hijack/pyroot), keyed by the python3 package's version, and
# DIR is a symbolic link to the cached root: use it read-only.

: "${HIJACK_PYROOT_CACHE:=${HOME:-/root}/.cache/hijack/pyroot}"

# _pyroot_libs FILE...: the shared libraries FILEs load, and the loader.
_pyroot_libs() {
	ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 ~ /^\(/ { print $1 }' | sort -u
}

# _pyroot_python DIR: the interpreter, its standard library (without the
# parts no module uses: tests, IDLE, Tk) and their libraries into DIR.
_pyroot_python() {
	_py=$(readlink -f /usr/bin/python3) || return 1
	_ver=$(basename "$_py")
	mkdir -p "$1/usr/bin" "$1/usr/lib" "$1/tmp" "$1/var/tmp" "$1/proc" "$1/sys" "$1/dev" "$1/etc" || return 1
	chmod 1777 "$1/tmp" "$1/var/tmp"
	cp "$_py" "$1/usr/bin/$_ver" || return 1
	ln -sf "$_ver" "$1/usr/bin/python3"
	tar -C /usr/lib --exclude="$_ver/test" --exclude="$_ver/idlelib" \
		--exclude="$_ver/tkinter" --exclude="$_ver/ensurepip" \
		--exclude="$_ver/lib2to3" --exclude='__pycache__' \
		-cf - "$_ver" | tar -C "$1/usr/lib" -xf - || return 1
	for _l in $(_pyroot_libs "$_py" "/usr/lib/$_ver"/lib-dynload/*.so); do
		mkdir -p "$1$(dirname "$_l")"
		cp -L "$_l" "$1$_l" || return 1
	done
	# Debian's libraries live in /lib/<triplet>, reached through /lib64's
	# loader and the merged /usr: give both spellings.
	[ -e "$1/usr/lib/x86_64-linux-gnu" ] || [ ! -d "$1/lib/x86_64-linux-gnu" ] ||
		ln -s ../../lib/x86_64-linux-gnu "$1/usr/lib/x86_64-linux-gnu"
	echo "root:x:0:0:root:/root:/bin/sh" >"$1/etc/passwd"
	echo "app:x:1000:1000:app:/tmp:/bin/sh" >>"$1/etc/passwd"
	echo "nobody:x:65534:65534:nobody:/nonexistent:/bin/false" >>"$1/etc/passwd"
	printf 'root:x:0:\napp:x:1000:\nnogroup:x:65534:\n' >"$1/etc/group"
	mkdir -p "$1/root"
}

# _pyroot_cached NAME BUILDER: the cached root NAME, built by BUILDER DIR
# first when missing; prints its path.
_pyroot_cached() {
	_key=$(dpkg-query -W -f '${Version}' "$(readlink /usr/bin/python3)-minimal" 2>/dev/null)
	# v2: the layout of the root; bump it when _pyroot_python changes.
	_dir="$HIJACK_PYROOT_CACHE/$1-v2-${_key:-unknown}"
	if [ ! -e "$_dir/.complete" ]; then
		rm -rf "$_dir.new"
		mkdir -p "$_dir.new" || return 1
		"$2" "$_dir.new" || { rm -rf "$_dir.new"; return 1; }
		touch "$_dir.new/.complete"
		rm -rf "$_dir"
		mv "$_dir.new" "$_dir" || return 1
	fi
	echo "$_dir"
}

_pyroot_full() {
	bb_rootfs "$1" && _pyroot_python "$1"
}

pyroot() {
	_r=$(_pyroot_cached full _pyroot_full) || return 1
	rm -rf "$1"
	ln -s "$_r" "$1"
}

pyroot_bare() {
	_r=$(_pyroot_cached bare _pyroot_python) || return 1
	rm -rf "$1"
	ln -s "$_r" "$1"
}

# pyrunc_up NAME DIR ROOT ARG...: a runc container named NAME, its bundle
# in DIR, on ROOT read-only (many containers share one root) with fresh
# tmpfs on /tmp, /var/tmp and /root, running ARG...; sets CT_PID.  Removed with runc_down.
pyrunc_up() {
	_pr_n=$1 _pr_d=$2 _pr_root=$(readlink -f "$3")
	shift 3
	rm -rf "$_pr_d"
	mkdir -p "$_pr_d" || return 1
	(cd "$_pr_d" && runc spec) || return 1
	python3 - "$_pr_d/config.json" "$_pr_root" "$_pr_n" "$@" <<'PY' || return 1
import json, sys
path, root, name, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with open(path) as f:
    spec = json.load(f)
spec["root"] = {"path": root, "readonly": True}
spec["hostname"] = name
spec["process"]["terminal"] = False
spec["process"]["args"] = args
spec["process"]["env"] = ["PATH=/usr/bin:/bin", "HOME=/root"]
spec["mounts"].append({"destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
                       "options": ["nosuid", "nodev", "mode=1777", "size=65536k"]})
spec["mounts"].append({"destination": "/var/tmp", "type": "tmpfs", "source": "tmpfs",
                       "options": ["nosuid", "nodev", "mode=1777", "size=65536k"]})
spec["mounts"].append({"destination": "/root", "type": "tmpfs", "source": "tmpfs",
                       "options": ["nosuid", "nodev", "mode=700", "size=65536k"]})
with open(path, "w") as f:
    json.dump(spec, f)
PY
	(cd "$_pr_d" && runc run -d "$_pr_n" >/dev/null 2>&1 </dev/null) || return 1
	CT_PID=$(runc state "$_pr_n" | sed -n 's/^ *"pid": \([0-9]*\),*$/\1/p')
	[ -n "$CT_PID" ] && [ "$CT_PID" -gt 0 ]
}

# pylxc_up NAME ROOT: an LXC container (busybox template) with ROOT's
# Python and users copied in; sets CT_PID.  Removed with lxc_down.
pylxc_up() {
	lxc-destroy -f -n "$1" >/dev/null 2>&1
	lxc-create -n "$1" -t busybox >/dev/null 2>&1 || return 1
	sed -i '/^lxc\.net\./d' "/var/lib/lxc/$1/config"
	echo "lxc.net.0.type = empty" >>"/var/lib/lxc/$1/config"
	tar -C "$(readlink -f "$2")" -cf - usr lib lib64 etc/passwd etc/group var/tmp |
		tar -C "/var/lib/lxc/$1/rootfs" --keep-directory-symlink -xf - || return 1
	lxc_start "$1"
}
