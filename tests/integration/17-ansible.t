#!/bin/sh
# The Ansible connection plugin (ansible/hijack.py) with Debian's Ansible:
# one playbook (ansible/site.yml: raw, command, copy, template, stat,
# fetch, a handler, a failing task) against an LXC, a runc and a Docker
# container with Python and a distroless one (Python only, no shell),
# first on this host, then "on another host": through an sshd this test
# starts on a loopback address with a key it makes.  Then the plugin as
# installed (make's install targets, as a collection too), its
# documentation, 125 as an unreachable host, --user, become with su,
# put_file and fetch_file in the distroless container, fetches of what a
# hostile container puts at a path (/dev/zero, a FIFO, its
# /proc/self/environ, a file over hijack_max_size) failing at once, and a
# short fan-out against community.docker.nsenter (the long one is
# `make bench-ansible`, tests/bench/ansible-fanout.sh).
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
. "$TESTDIR/pyroot.sh"
. "$TESTDIR/sshd.sh"
skip_unless_root
trap '' PIPE

for tool in ansible ansible-playbook ansible-doc lxc-create runc dockerd docker \
	containerd ssh ssh-keygen busybox python3; do
	command -v "$tool" >/dev/null ||
		{ echo "Bail out! $tool is missing: run tests/deps.sh test"; exit 1; }
done
[ -x /usr/sbin/sshd ] || { echo "Bail out! sshd is missing: run tests/deps.sh test"; exit 1; }

plan 126

tmp=$(tmpdir)
n=hja$$
img=hijack-test-py:$$

ansible_cleanup() {
	for s in "$tmp"/cp/hj-*; do
		[ -S "$s" ] && ssh -o ControlPath="$s" -O exit x >/dev/null 2>&1
	done
	sshd_stop
	runc_down "$n-runc" "$tmp/runc"
	runc_down "$n-dl" "$tmp/dl"
	lxc_down "$n-lxc"
	docker_down "$n-dk"
	docker rmi -f "$img" >/dev/null 2>&1
	docker_daemon_down
	containerd_daemon_down
}
trap 'ansible_cleanup; cleanup' EXIT

bail() {
	echo "Bail out! $*"
	exit 1
}

# Ansible's own files stay in the test's directory, and only Debian's
# Ansible runs (not one a user installed elsewhere in PATH).
# The Python roots' cache stays the user's (pyroot.sh chose it already).
export HIJACK_PYROOT_CACHE
export HOME="$tmp/home" ANSIBLE_LOCAL_TEMP="$tmp/ansible-local"
export ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_RETRY_FILES_ENABLED=False
export ANSIBLE_NOCOLOR=1 ANSIBLE_DEPRECATION_WARNINGS=False
mkdir -p "$HOME"
A=/usr/bin

# --- the plugin as installed ---------------------------------------------
# By make's install targets from the build tree; as an autopkgtest (no
# build tree), the package's.
if [ -n "${top_builddir:-}" ]; then
	make -s -C "$top_builddir" DESTDIR="$tmp/inst" install-dist_ansibleconnectionDATA \
		install-dist_ansiblecollectionDATA install-dist_ansiblecollectionmetaDATA \
		install-ansiblecollectionpluginDATA >/dev/null || bail "make install of the plugin"
	plugdir=$(dirname "$(find "$tmp/inst" -path '*/plugins/connection/hijack.py' ! -path '*/collections/*')")
	colldir=$(find "$tmp/inst" -type d -name collections -path '*/ansible/collections')
else
	plugdir=/usr/share/ansible/plugins/connection
	colldir=/usr/share/ansible/collections
fi
export ANSIBLE_CONNECTION_PLUGINS="$plugdir" ANSIBLE_COLLECTIONS_PATH="$colldir"
is "$(test -f "$plugdir/hijack.py" && echo yes)" yes "make install puts the plugin under DATADIR/ansible/plugins/connection"
is "$(test -f "$colldir/ansible_collections/hijack/containers/plugins/connection/hijack.py" && echo yes)" yes \
	"... and the collection hijack.containers under DATADIR/ansible/collections"

doc=$("$A/ansible-doc" -t connection hijack 2>&1)
for word in "hijack TARGET" hijack_host remote_user "hijack --write-file" \
	hijack_setenv hijack_seccomp hijack_max_size hijack_pyc_cache pipelining "ansible_user" "su' or \`sudo'"; do
	like "$doc" "*$word*" "ansible-doc -t connection hijack documents '$word'"
done
doc=$("$A/ansible-doc" -t connection hijack.containers.hijack 2>&1)
like "$doc" "*hijack_host*" "ansible-doc finds it as the collection's hijack.containers.hijack"

# --- the containers ------------------------------------------------------
pyroot "$tmp/root" || bail "no Python root"
pyroot_bare "$tmp/bare" || bail "no bare Python root"
lxc_root=$(readlink -f "$tmp/root")
pylxc_up "$n-lxc" "$tmp/root" || bail "LXC container"
pyrunc_up "$n-runc" "$tmp/runc" "$tmp/root" /bin/sleep 100000 || bail "runc container"
pyrunc_up "$n-dl" "$tmp/dl" "$tmp/bare" /usr/bin/python3 -c 'import time; time.sleep(1e6)' ||
	bail "distroless container"
containerd_daemon_up "$tmp" || bail "containerd did not start"
docker_daemon_up "$tmp" || bail "dockerd did not start"
tar -C "$lxc_root" -cf - . | docker import - "$img" >/dev/null || bail "docker import"
docker_up "$n-dk" "$img" || bail "docker container"

# inventory FILE [VAR=VALUE...]: the four containers, extra variables for all.
inventory() {
	f=$1
	shift
	cat >"$f" <<EOF
[boxes]
lxc ansible_host=lxc:$n-lxc
runc ansible_host=runc:$n-runc
docker ansible_host=docker:$n-dk

[distroless]
dl ansible_host=runc:$n-dl ansible_hijack_shell=none

[all:vars]
ansible_connection=hijack
ansible_hijack_exe=$HIJACK
ansible_python_interpreter=/usr/bin/python3
ansible_remote_tmp=/tmp/.ansible
EOF
	for v in "$@"; do
		echo "$v" >>"$f"
	done
}

# play NAME INVENTORY: run site.yml; its results in $tmp/NAME.res.
play() {
	rm -rf "$tmp/fetch-$1"
	ANSIBLE_STDOUT_CALLBACK=json "$A/ansible-playbook" -i "$2" -f 4 \
		-e fetch_dir="$tmp/fetch-$1" "$TESTDIR/ansible/site.yml" \
		>"$tmp/$1.json" 2>"$tmp/$1.err"
	play_rc=$?
	python3 "$TESTDIR/ansible/results.py" "$tmp/$1.json" >"$tmp/$1.res" 2>&1
}

# res NAME HOST TASK: that task's "STATE|rc|changed|text".
res() {
	grep "^$2|$3|" "$tmp/$1.res" | head -n 1 | cut -d'|' -f3-
}

# check_play NAME: what site.yml did in each container.
check_play() {
	is "$play_rc" 2 "$1: ansible-playbook exits 2 (the failing tasks)"
	for h in lxc runc docker; do
		case $h in
		lxc) hn=$n-lxc t=lxc:$n-lxc ;;
		runc) hn=$n-runc t=runc:$n-runc ;;
		docker) hn=$n-dk t=docker:$n-dk ;;
		esac
		is "$(res "$1" $h raw)" "ok|0|true|$hn" "$1 $h: raw runs in the container (its hostname)"
		is "$(res "$1" $h command)" "ok|0|true|root" "$1 $h: command"
		like "$(res "$1" $h copy)" "ok||true|*" "$1 $h: copy changes the file"
		like "$(res "$1" $h template)" "ok||true|*" "$1 $h: template"
		like "$(res "$1" $h stat)" "ok||false|*" "$1 $h: stat"
		is "$(cat "$tmp/fetch-$1/$h/tmp/motd" 2>&1)" "$h is $t; hello from $h" \
			"$1 $h: fetch brings back the templated file"
		like "$(res "$1" $h "copy again")" "ok||false|*" "$1 $h: copy again changes nothing"
		is "$(res "$1" $h handler)" "ok|0|true|" "$1 $h: the handler ran"
		is "$(res "$1" $h failing)" "failed|3|true|broken on purpose in $hn" \
			"$1 $h: the failing task fails with its own message and status"
		is "$(grep "^$h|stats|" "$tmp/$1.res" | cut -d'|' -f3-)" "8|6|1|0" \
			"$1 $h: ok 8, changed 6 (raw, command, copy, template, fetch, handler), one failure, reachable"
	done
	is "$(res "$1" dl raw)" "ok|0|true|$n-dl" "$1 distroless: raw runs without a shell"
	like "$(res "$1" dl failing)" "failed|127|true|hijack: exec: /bin/sh*: No such file or directory" \
		"$1 distroless: a missing program is the task's failure (127), not an unreachable host"
}

inventory "$tmp/local.ini"
play local "$tmp/local.ini"
check_play local
st=$(python3 - "$tmp/local.json" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
for t in run["plays"][1]["tasks"]:
    if t["task"]["name"] == "stat":
        s = t["hosts"]["runc"]["stat"]
        print(s["exists"], s["mode"], s["size"])
EOF
)
is "$st" "True 0640 16" "local runc: stat sees the copied file (mode, size)"

# --- ad hoc: pipelining, 125, --user, become ------------------------------
out=$("$A/ansible" -i "$tmp/local.ini" runc -m command -a 'id -un' -vvv 2>&1)
like "$out" "*runc | CHANGED | rc=0 >>*root*" "ad hoc: command"
is "$(echo "$out" | grep -c "PUT ")" 0 "... pipelined: the module goes to Python's stdin, no file is copied"
like "$(echo "$out" | grep "EXEC" | head -n 1)" "*'--no-pty', \"--reason=ansible play 'Ansible Ad-Hoc', task 'command'\", 'runc:$n-runc', '--', '/usr/bin/python3'\]" \
	"... as hijack --no-pty --reason=... TARGET -- INTERPRETER, without Ansible's two shells"
out=$("$A/ansible" -i "$tmp/local.ini" runc -m raw -a 'echo raw' -vvv 2>&1)
like "$(echo "$out" | grep "EXEC" | head -n 1)" "*'runc:$n-runc', '--', '/bin/sh', '-c', 'echo raw'\]" \
	"... and any other command as hijack ... TARGET -- /bin/sh -c COMMAND"
# The bytecode cache (hijack_pyc_cache): the module's user's own directory
# in the container, used only when that user owns it and others have no
# access: one the container's app user planted for root is left alone.
pyc=/tmp/.hijack-ansible-pyc-0
"$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "rm -rf $pyc && mkdir -m 700 $pyc && chown 1000 $pyc"
out=$("$A/ansible" -i "$tmp/local.ini" lxc -m command -a 'echo cached' 2>&1)
like "$out" "*lxc | CHANGED | rc=0 >>*cached*" "pyc cache: a module runs where another user planted root's cache directory"
is "$("$HIJACK" "lxc:$n-lxc" -- ls -A $pyc)" "" "... and neither reads nor writes it"
"$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "rm -rf $pyc && mkdir -m 777 $pyc"
"$A/ansible" -i "$tmp/local.ini" lxc -m command -a true >/dev/null 2>&1
is "$("$HIJACK" "lxc:$n-lxc" -- ls -A $pyc)" "" "... nor one that others may write to"
# ... nor one below a directory another user owns (TMPDIR there): that
# user could swap the checked directory for one of theirs before it is
# used (the renames need no right on root's directory).
"$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "rm -rf /tmp/hjapp && mkdir -p -m 777 /tmp/hjapp/t && chown -R 1000 /tmp/hjapp"
out=$("$A/ansible" -i "$tmp/local.ini" -e '{"ansible_hijack_setenv": {"TMPDIR": "/tmp/hjapp/t"}}' lxc -m command -a 'echo swapped' 2>&1)
like "$out" "*lxc | CHANGED | rc=0 >>*swapped*" "pyc cache: a module runs with TMPDIR in another user's directory"
is "$("$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "test -e /tmp/hjapp/t/.hijack-ansible-pyc-0 && echo made")" "" "... and makes no cache there"
"$HIJACK" "lxc:$n-lxc" -- rm -rf /tmp/hjapp
# What the container prints is bounded: a command that prints without
# end fails its task, killed, instead of filling the controller's memory.
out=$(timeout 120 "$A/ansible" -i "$tmp/local.ini" -e ansible_hijack_max_output=1000000 lxc -m raw -a 'while :; do echo flood; done' 2>&1)
like "$out" "*printed more than 1000000 bytes (hijack_max_output) and was killed*" "hijack_max_output: endless output fails the task, and it is killed"
is "$("$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "ps | grep -c '[f]lood'")" 0 "... and nothing of it runs on"
"$HIJACK" "lxc:$n-lxc" -- rm -rf $pyc
"$A/ansible" -i "$tmp/local.ini" lxc -m command -a true >/dev/null 2>&1
out=$("$A/ansible" -i "$tmp/local.ini" lxc -m command -a 'echo again' 2>&1)
like "$out" "*lxc | CHANGED | rc=0 >>*again*" "... a module runs from the cache it made"
is "$("$HIJACK" "lxc:$n-lxc" -- stat -c '%A %u' $pyc)" "drwx------ 0" "... which is root's alone"
"$HIJACK" "lxc:$n-lxc" -- rm -rf $pyc
"$A/ansible" -i "$tmp/local.ini" -e ansible_hijack_pyc_cache=false lxc -m command -a true >/dev/null 2>&1
is "$("$HIJACK" "lxc:$n-lxc" -- /bin/sh -c "test -e $pyc && echo made")" "" "ansible_hijack_pyc_cache=false: no cache"
out=$("$A/ansible" -i "$tmp/local.ini" -e ansible_host="runc:nosuch$$" runc -m command -a true 2>&1)
rc=$?
is "$rc" 4 "an unknown container: ansible exits 4 (unreachable)"
like "$out" "*UNREACHABLE*hijack: target: no running container 'nosuch$$' (searched: runc)*" \
	"... with hijack's own message"
out=$("$A/ansible" -i "$tmp/local.ini" -e ansible_user=nobody boxes -m command -a 'id -un' 2>&1)
is "$(echo "$out" | grep -c "CHANGED | rc=0")" 3 "ansible_user=nobody: the task runs as nobody (hijack --user) in all three"
is "$(echo "$out" | grep -cx nobody)" 3 "... and says so"
[ "$(echo "$out" | grep -cx nobody)" = 3 ] || diag "$out"
# A process of the container's app user, in a directory of its own with a
# hashlib.py that Python finds first, whose PYTHONPATH holds a
# sitecustomize and whose PATH a su of its own: each writes what it saw.
# ansible_user=root into it runs the module as root, and nothing of the
# app's; become (su) from it does not run the app's su, which would take
# the password.
"$HIJACK" "lxc:$n-lxc" -- /bin/sh -c 'rm -rf /tmp/hjevil; mkdir -p /tmp/hjevil/bin &&
	echo "import os; open(\"/tmp/hjevil/pwned.site.%d\" % os.geteuid(), \"w\").close()" >/tmp/hjevil/sitecustomize.py &&
	echo "import os; open(\"/tmp/hjevil/pwned.cwd.%d\" % os.geteuid(), \"w\").close(); raise ImportError" >/tmp/hjevil/hashlib.py &&
	printf "#!/bin/sh\ncat >/tmp/hjevil/stolen\n" >/tmp/hjevil/bin/su && chmod 755 /tmp/hjevil/bin/su &&
	chown -R app /tmp/hjevil'
"$HIJACK" "lxc:$n-lxc" --user app --wd=/tmp/hjevil --setenv PYTHONPATH=/tmp/hjevil \
	--setenv PATH=/tmp/hjevil/bin:/bin:/usr/bin -- /bin/sh -c "setsid sleep 7$$ </dev/null >/dev/null 2>&1 &"
app=$(pgrep -xf "sleep 7$$")
out=$("$A/ansible" -i "$tmp/local.ini" -e ansible_user=root -e ansible_host="pid:$app" lxc -m command -a 'id -u' 2>&1)
like "$out" "*lxc | CHANGED | rc=0 >>*0*" "ansible_user=root into the app's process: the module runs as root"
is "$("$HIJACK" "lxc:$n-lxc" -- ls /tmp/hjevil | tr '\n' ' ')" "bin hashlib.py sitecustomize.py " "... and neither the app's PYTHONPATH nor its directory runs anything as root"
"$A/ansible" -i "$tmp/local.ini" -e ansible_host="pid:$app" -b --become-method=su --become-user=root \
	-e ansible_become_password=TopSecret -e ansible_timeout=5 lxc -m command -a 'id -u' >/dev/null 2>&1
is "$("$HIJACK" "lxc:$n-lxc" -- ls /tmp/hjevil | tr '\n' ' ')" "bin hashlib.py sitecustomize.py " "become from the app's process: the app's su never gets the password"
kill "$app" 2>/dev/null
# runc's default spec gives its container neither CAP_SETUID (su) nor
# CAP_CHOWN (Ansible hands its files to the become user): hijack keeps that
# confinement, so become is tried where the engines grant both.
out=$("$A/ansible" -i "$tmp/local.ini" -b --become-method=su --become-user=app 'lxc:docker' \
	-m command -a 'id -un' 2>&1)
is "$(echo "$out" | grep -c "CHANGED | rc=0")" 2 "become with the container's su (busybox), in LXC and Docker"
is "$(echo "$out" | grep -cx app)" 2 "... the task runs as the container's user app"
[ "$(echo "$out" | grep -cx app)" = 2 ] || diag "$out"
out=$("$A/ansible" -i "$tmp/local.ini" -b --become-method=su --become-user=app runc \
	-m command -a 'id -un' 2>&1)
like "$out" "*FAILED*Failed to set permissions on the temporary files*" \
	"... and in runc's container, without CAP_CHOWN, fails as it would from inside"
# With a password to give, the plugin waits for su's prompt; what answers
# in the container may print without end and never prompt (and ignore the
# SIGHUP of hijack's death): ansible_timeout bounds the whole wait, not
# each read.
"$HIJACK" "lxc:$n-lxc" -- /bin/sh -c 'printf "%s\n" "trap \"\" HUP" \
	"while :; do echo working; sleep 0.2; done" >/tmp/spew && chmod 755 /tmp/spew'
out=$(timeout 60 "$A/ansible" -i "$tmp/local.ini" -b --become-method=su --become-user=app \
	-e ansible_become_password=x -e ansible_hijack_shell=/tmp/spew -e ansible_timeout=3 \
	lxc -m raw -a true 2>&1)
like "$?:$out" "2:*lxc | FAILED*timeout waiting for privilege escalation*working*" \
	"become that prints and never prompts: the task fails after ansible_timeout"
out=$("$A/ansible" -i "$tmp/local.ini" -c hijack.containers.hijack lxc -m raw -a hostname 2>&1)
like "$out" "*CHANGED | rc=0 >>*$n-lxc*" "the plugin loaded from the collection as hijack.containers.hijack"

# --- files in the distroless container, through the plugin itself ---------
# --- the play and task go into hijack's --reason (hijack(1), AUDIT) --------
cat >"$tmp/hjlog" <<EOF
#!/bin/sh
for a; do case \$a in --reason=*) printf '%s\n' "\$a" >>"$tmp/reasons" ;; esac; done
exec "$HIJACK" "\$@"
EOF
chmod +x "$tmp/hjlog"
cat >"$tmp/reason.yml" <<'EOF'
- name: audit trail
  hosts: lxc
  gather_facts: false
  tasks:
    - name: say hi
      raw: echo hi
    - raw: echo unnamed
EOF
inventory "$tmp/reason.ini" "ansible_hijack_exe=$tmp/hjlog"
"$A/ansible-playbook" -i "$tmp/reason.ini" "$tmp/reason.yml" >"$tmp/reason.out" 2>&1
is "$(sed -n 1p "$tmp/reasons")" "--reason=ansible play 'audit trail', task 'say hi'" \
	"--reason names the play and the task"
is "$(sed -n 2p "$tmp/reasons")" "--reason=ansible play 'audit trail', task 'raw'" \
	"--reason names the module of a task without a name"

# No module that transfers a file can run there (no shell to make its
# temporary directory): put_file and fetch_file are called as Ansible's
# copy and fetch call them.
head -c 300000 /dev/urandom >"$tmp/blob"
out=$(python3 - "$tmp/blob" "$tmp/blob.back" "runc:$n-dl" "$HIJACK" <<'EOF' 2>&1
import sys
sys.path.insert(0, "/usr/lib/python3/dist-packages")
from ansible.playbook.play_context import PlayContext
from ansible.plugins.loader import connection_loader
src, back, target, exe = sys.argv[1:]
pc = PlayContext()
pc.remote_addr = target
conn = connection_loader.get("hijack", pc, None)
conn.set_options(var_options={"ansible_host": target, "ansible_hijack_exe": exe,
                              "ansible_hijack_shell": "none"})
conn._connect()
conn.put_file(src, "/tmp/blob")
conn.fetch_file("/tmp/blob", back)
rc, out, err = conn.exec_command("/usr/bin/python3 -c 'import os; print(oct(os.stat(\"/tmp/blob\").st_mode & 0o777))'")
print(rc, out.decode().strip())
try:
    conn.fetch_file("/nonexistent", back + ".2")
except Exception as e:
    print(type(e).__name__)
EOF
)
is "$(echo "$out" | head -n 1)" "0 0o600" "distroless: put_file writes the file (mode 0600, Ansible's own)"
is "$(cmp "$tmp/blob" "$tmp/blob.back" 2>&1 && echo same)" "same" "distroless: fetch_file reads it back byte for byte"
is "$(echo "$out" | sed -n 2p)" "AnsibleError" "distroless: fetching a missing file fails"
is "$(test ! -e "$tmp/blob.back.2" && test ! -e "$tmp/blob.back.2.hijack-part" && echo yes)" yes \
	"... leaving nothing behind"
st=$("$A/ansible" -i "$tmp/local.ini" dl -m stat -a path=/tmp/blob 2>&1)
like "$st" "*dl | SUCCESS*\"size\": 300000,*" "distroless: a pipelined module runs without a shell (its interpreter alone)"

# --- fetches of what a hostile container puts at a path -----------------------
# The container's root plants them itself.  fetch_file is called as
# Ansible's fetch calls it once the container's stat module has said
# "a regular file" (which a container may say of anything, or swap the
# path after): each must fail at once with hijack's message and leave
# nothing at the destination.
"$HIJACK" "runc:$n-dl" -- /usr/bin/python3 -c '
import os
os.symlink("/dev/zero", "/tmp/zero")
os.mkfifo("/tmp/fifo")
os.symlink("/proc/self/environ", "/tmp/app.conf")
open("/tmp/big", "wb").write(b"x" * (2 << 20))'
out=$(HJ_CONTROLLER_SECRET=s3cret-$$ python3 - "$tmp/hostile" "runc:$n-dl" "$HIJACK" <<'EOF' 2>&1
import os, sys, time
sys.path.insert(0, "/usr/lib/python3/dist-packages")
from ansible.playbook.play_context import PlayContext
from ansible.plugins.loader import connection_loader
back, target, exe = sys.argv[1:]
pc = PlayContext()
pc.remote_addr = target
conn = connection_loader.get("hijack", pc, None)
conn.set_options(var_options={"ansible_host": target, "ansible_hijack_exe": exe,
                              "ansible_hijack_shell": "none", "ansible_hijack_max_size": "1M"})
conn._connect()
for name in ("zero", "fifo", "app.conf", "big"):
    dest = back + "." + name
    t0 = time.monotonic()
    try:
        conn.fetch_file("/tmp/" + name, dest)
        what = "fetched"
    except Exception as e:
        what = type(e).__name__ + ": " + str(e).splitlines()[0]
    left = [p for p in (dest, dest + ".hijack-part") if os.path.exists(p)]
    print("%s|%s|%s|%s" % (name, time.monotonic() - t0 < 5, left, what))
EOF
)
res_of() { echo "$out" | grep "^$1|"; }
like "$(res_of zero)" "zero|True|[[]]|AnsibleError: FETCH /tmp/zero: exit status 1: hijack: file: reading /tmp/zero: a character device in the container, not a regular file (refused)*" \
	"fetch of a path pointed at /dev/zero: fails at once with hijack's message, nothing left"
like "$(res_of fifo)" "fifo|True|[[]]|AnsibleError: FETCH /tmp/fifo: exit status 1: hijack: file: reading /tmp/fifo: a FIFO in the container*" \
	"fetch of a FIFO: fails at once, nothing left"
like "$(res_of app.conf)" "app.conf|True|[[]]|AnsibleError: FETCH /tmp/app.conf: exit status 1: hijack: file: reading /tmp/app.conf: a /proc file*" \
	"fetch of a symlink to /proc/self/environ: refused, nothing left"
like "$(res_of big)" "big|True|[[]]|AnsibleError: FETCH /tmp/big: exit status 1: hijack: file: reading /tmp/big: 2 MiB, more than the bound of 1 MiB (--max-size)*" \
	"ansible_hijack_max_size=1M: a 2 MiB file fails the fetch"
[ "$(echo "$out" | grep -c '|True|\[\]|AnsibleError')" = 4 ] || diag "$out"
# The whole fetch action, in a container with Python: its stat module
# finds a regular file with a checksum at /tmp/app.conf (its own
# /proc/self/environ), so Ansible asks the plugin for it.
"$HIJACK" "runc:$n-runc" -- ln -sf /proc/self/environ /tmp/app.conf
out=$(HJ_CONTROLLER_SECRET=s3cret-$$ "$A/ansible" -i "$tmp/local.ini" runc -m fetch \
	-a "src=/tmp/app.conf dest=$tmp/fetched/ flat=yes" 2>&1)
like "$out" "*runc | FAILED*hijack: file: reading /tmp/app.conf: a /proc file*" \
	"ansible -m fetch of a container's symlink to /proc/self/environ: the task fails with hijack's message"
is "$(grep -rl "s3cret-$$" "$tmp/fetched" 2>/dev/null | wc -l):$(ls -A "$tmp/fetched" 2>/dev/null | wc -l)" "0:0" \
	"... and the controller's environment is nowhere in the fetch directory"

# --- the same playbook "on another host", over ssh -------------------------
ssh_addr=127.0.0.2
sshd_start "$tmp/ssh" "$ssh_addr" || bail "no sshd on $ssh_addr"

# The same changes again, from a clean start.
for t in "lxc:$n-lxc" "runc:$n-runc" "docker:$n-dk"; do
	"$HIJACK" "$t" -- rm -f /tmp/greeting /tmp/motd /tmp/handler-ran
done
inventory "$tmp/ssh.ini" "hijack_host=$ssh_addr" "hijack_ssh_port=$sshd_port" \
	"hijack_ssh_user=root" "hijack_control_dir=$tmp/cp" \
	"hijack_ssh_args=['-i', '$tmp/ssh/id', '-o', 'UserKnownHostsFile=$tmp/ssh/known_hosts', '-o', 'StrictHostKeyChecking=yes']"
play ssh "$tmp/ssh.ini"
check_play ssh
logins=$(grep -c "Accepted publickey for root" "$tmp/ssh/log")
tasks=$(grep -vc "|stats|" "$tmp/ssh.res")
is "$(test "$logins" -ge 1 && test "$logins" -le 4 && echo yes)" yes \
	"ssh: $tasks tasks over $logins logins (ControlMaster: one per host, at most one per fork)"
is "$(ssh -o ControlPath="$(ls "$tmp"/cp/hj-* | head -n 1)" -O check x 2>&1 | grep -q "Master running" && echo yes)" yes \
	"ssh: the master connection persists for the next run (ControlPersist)"
out=$("$A/ansible" -i "$tmp/ssh.ini" -e ansible_host="lxc:nosuch$$" lxc -m raw -a true 2>&1)
like "$out" "*UNREACHABLE*hijack: target: no running container 'nosuch$$' (searched: lxc)*" \
	"ssh: an unknown container is unreachable with hijack's message from the remote host"
out=$("$A/ansible" -i "$tmp/ssh.ini" -e hijack_ssh_port=1 lxc -m raw -a true 2>&1)
like "$out" "*UNREACHABLE*ssh to $ssh_addr*" "ssh: a host that does not answer is unreachable, naming it"
out=$("$A/ansible" -i "$tmp/ssh.ini" lxc -m raw -a 'exit 255' 2>&1)
like "$out" "*lxc | FAILED | rc=255*" "ssh: a command's own 255 is its failure, not ssh's"

# --- fan-out, short: 6 containers, forks=10, against nsenter --------------
FANOUT_COUNT=6 FANOUT_ROUNDS=1 sh "$TESTDIR/../bench/ansible-fanout.sh" >"$tmp/fanout" 2>&1
rc=$?
is "$rc" 0 "fan-out: 6 containers, forks=10, hijack and community.docker.nsenter both succeed"
diag "$(cat "$tmp/fanout")"
