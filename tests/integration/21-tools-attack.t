#!/bin/sh
# hijack --tools attacked from inside: the container plants code and
# settings that the debugging command loads or runs (its environment, a
# program or a .git/config in its tree), then works on the command from
# outside (a uid the command drops to, a signal that dumps core, writes to
# /proc/sys through the view, mounts both ways, the terminal).  Each
# attack succeeded against the first --tools (the host's / as the view, a
# fresh procfs, the container's environment); each must fail now.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
. "$TESTDIR/containers.sh"
skip_unless_root
for tool in runc lxc-start busybox python3 cc git perl setpriv; do
	command -v "$tool" >/dev/null || skip_all "no $tool"
done
: "${DISTROLESS:=$(dirname "$FIXTURE")/distroless}"

plan 32

tmp=$(tmpdir)
n=hj21-$$
bb=$tmp/bb
dbg=
teardown() {
	[ -z "$dbg" ] || kill "$dbg" 2>/dev/null
	[ -z "$tp" ] || runc exec "$n" kill "$tp" 2>/dev/null
	dockerlike_down "$n" "$bb"
	lxc_down "$n-lxc"
	cleanup
}
trap teardown EXIT
bail() { echo "Bail out! $*"; exit 1; }

dockerlike_up "$n" "$bb" || bail "busybox runc container"
cp "$DISTROLESS" "$bb/rootfs/bin/ptry"
R=$bb/rootfs
inside() { runc exec "$n" "$@"; }
# hostpid CTPID: the same process's pid on the host.
hostpid() {
	for _d in /proc/[0-9]*; do
		[ "$(sed -n 's/^NSpid:.*\t\([0-9]*\)$/\1/p' "$_d/status" 2>/dev/null)" = "$1" ] &&
			[ "$(nsid "${_d#/proc/}" pid)" = "$(nsid "$CT_PID" pid)" ] &&
			{ echo "${_d#/proc/}"; return 0; }
	done
	return 1
}

# --- code the container plants where the command's programs load it ----------
# A process of the container whose environment names files of the
# container's tree as the view shows it (/run/hijack/root/...): a library
# to preload, shell start-up files, Python and Perl start-up code, a gconv
# module path, a HOME with start-up files.
cat >"$tmp/evil.c" <<'EOF'
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void)
{
	int fd = open("/run/hijack/root/pwned", O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (fd >= 0) { (void)!write(fd, "preload\n", 8); close(fd); }
}
EOF
cc -shared -fPIC -o "$R/evil.so" "$tmp/evil.c" || bail "cc evil.so"
printf 'echo "shell $0" >>/run/hijack/root/pwned\n' >"$R/evil.sh"
mkdir -p "$R/py" "$R/pl" "$R/home"
echo 'open("/run/hijack/root/pwned", "a").write("python\n")' >"$R/py/sitecustomize.py"
cp "$R/py/sitecustomize.py" "$R/py/startup.py"
printf 'package evil; open(my $f, ">>", "/run/hijack/root/pwned"); print $f "perl\\n"; 1;\n' >"$R/pl/evil.pm"
cp "$R/evil.sh" "$R/home/.bashrc"
cp "$R/evil.sh" "$R/home/.profile"
runc exec -d --env LD_PRELOAD=/run/hijack/root/evil.so \
	--env LD_LIBRARY_PATH=/run/hijack/root \
	--env BASH_ENV=/run/hijack/root/evil.sh --env ENV=/run/hijack/root/evil.sh \
	--env PYTHONPATH=/run/hijack/root/py --env PYTHONSTARTUP=/run/hijack/root/py/startup.py \
	--env PERL5OPT=-Mevil --env PERL5LIB=/run/hijack/root/pl \
	--env GCONV_PATH=/run/hijack/root --env HOME=/run/hijack/root/home \
	--env PATH=/run/hijack/root/bin:/bin \
	"$n" sleep 4711 || bail "a process with a hostile environment"
tp=$(pid_inside "sleep 4711") || bail "no hostile process"
TP=$(hostpid "$tp") || bail "hostile process not found on the host"
"$HIJACK" --tools --pid "$TP" -- bash -c 'true'
"$HIJACK" --tools --pid "$TP" -- sh -c 'true'
"$HIJACK" --tools --pid "$TP" -- bash -i -c 'true' </dev/null >/dev/null 2>&1
"$HIJACK" --tools --pid "$TP" -- python3 -c 'pass'
"$HIJACK" --tools --pid "$TP" -- perl -e 1
"$HIJACK" --tools --pid "$TP" -- iconv -f UTF-8 -t UTF-16 /dev/null
is "$(cat "$R/pwned" 2>/dev/null)" "" \
	"the container's environment loads nothing into the host's programs (LD_PRELOAD, BASH_ENV, ENV, PYTHON*, PERL5*, GCONV_PATH, HOME)"
out=$("$HIJACK" --tools --pid "$TP" -- env | cut -d= -f1 | sort | tr '\n' ' ')
like "$out" "*HOME*PATH*" "the command's environment: the caller's terminal and locale, PATH and HOME"
case $out in
*LD_*|*BASH_ENV*|*ENV\ *|*PYTHON*|*PERL5*|*GCONV*) ok 1 "... and none of the container's variables: $out" ;;
*) ok 0 "... and none of the container's variables" ;;
esac
out=$("$HIJACK" --tools --pid "$TP" -- sh -c 'echo "$HOME $PATH"')
is "$out" "/tmp /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
	"HOME is the view's /tmp, PATH the view's program directories"
out=$(HJ_CALLER_SECRET=s3cret LANG=C.UTF-8 "$HIJACK" --tools --pid "$TP" -- env)
case $out in *s3cret*) ok 1 "the caller's other variables stay out too" ;;
*) ok 0 "the caller's other variables stay out too" ;; esac
like "$out" "*LANG=C.UTF-8*" "... but its locale comes in"
err=$("$HIJACK" --tools --env=target --pid "$TP" -- true 2>&1); rc=$?
like "$rc:$err" "125:hijack: --tools never gives the container's environment to the host's programs*" \
	"--env=target with --tools is refused"
out=$("$HIJACK" --tools --env=keep --setenv LD_PRELOAD= --pid "$TP" -- sh -c 'echo "[$LD_PRELOAD]"')
is "$out" "[]" "--env=keep is the caller's, and --setenv still applies"
runc exec "$n" kill "$tp"
tp=

# A program, or a tool's setting, in the container's tree run by the
# command: git's core.fsmonitor, as an admin's "git status" in a checkout of
# the container would run it.  It gets the view: no host secret, nothing of
# the host writable, no /proc/sys to write, no mount to make.
cat >"$R/probe.sh" <<'EOF'
r=/run/hijack/root/report
: >"$r"
for f in /etc/shadow /etc/sudoers /root /home /var/lib /etc/ssh; do
	[ -e "$f" ] && echo "seen $f" >>"$r"
done
for f in /usr/bin/hj21 /usr/lib/hj21 /etc/hj21 /hj21 /bin/hj21; do
	(echo x >"$f") 2>/dev/null && echo "wrote $f" >>"$r"
done
v=$(cat /proc/sys/vm/overcommit_ratio)
(echo "$v" >/proc/sys/vm/overcommit_ratio) 2>/dev/null && echo "wrote /proc/sys" >>"$r"
mount -t tmpfs hj21 /usr 2>/dev/null && echo "mounted on /usr" >>"$r"
mount -o remount,bind,rw /usr 2>/dev/null && echo "remounted /usr" >>"$r"
umount -l /usr 2>/dev/null && echo "unmounted /usr" >>"$r"
echo done >>"$r"
EOF
mkdir "$R/repo" && git -C "$R/repo" init -q && git -C "$R/repo" config core.fsmonitor "sh /run/hijack/root/probe.sh; echo" ||
	bail "git repository in the container"
"$HIJACK" --tools --wd /repo "runc:$n" -- git status >/dev/null 2>&1
is "$(cat "$R/report" 2>/dev/null)" "done" \
	"code from the container run by the command (git core.fsmonitor) sees no host secret, writes nothing of the host, mounts nothing"
rm -f "$R/report"
"$HIJACK" --tools "runc:$n" -- sh /run/hijack/root/probe.sh
is "$(cat "$R/report" 2>/dev/null)" "done" "... nor does a script of the container run directly"
changed=
for f in /usr/bin/hj21 /usr/lib/hj21 /etc/hj21 /hj21; do
	[ ! -e "$f" ] || { changed="$changed $f"; rm -f "$f"; }
done
is "$changed" "" "the host's /usr, /etc and / are unchanged"

# --- the view: what it holds --------------------------------------------------
out=$("$HIJACK" --tools "runc:$n" -- sh -c 'ls -A /; ls -A /run; ls -A /etc | tr "\n" " "')
like "$out" "bin
dev
etc
lib*
proc
run
sbin
sys
tmp
usr
hijack
*" "the view's root: the host's program directories, /etc, the container's /proc, /sys, /dev, /tmp and /run/hijack"
case $out in *shadow*|*sudoers*|*ssh*) ok 1 "no host secret in the view's /etc" ;; *) ok 0 "no host secret in the view's /etc" ;; esac
out=$("$HIJACK" --tools "runc:$n" -- sh -c 'cut -d: -f3 /etc/passwd /etc/group' | awk '$1 > 999 && $1 != 65534')
is "$out" "" "the view's passwd and group hold system accounts only, no person of the host"
out=$("$HIJACK" --tools "runc:$n" -- sh -c 'grep -E " /(usr|etc/ld.so.cache|proc/sys|proc/keys) " /proc/self/mountinfo | cut -d" " -f5,6')
like "$out" "/usr ro,nosuid,nodev*" "the host's /usr is read-only, nosuid, nodev"
like "$out" "*/proc/sys ro,*" "the container's read-only /proc/sys stays read-only"
like "$out" "*/proc/keys *" "... and its masked /proc/keys masked"

# --- a uid change in the command: the mark stays --------------------------------
"$HIJACK" --tools --setenv HJ21=VIEWONLY "runc:$n" -- sh -c \
	'echo VIEWONLY >/tmp/secret; chmod 644 /tmp/secret; exec setpriv --reuid=1000 --regid=1000 --clear-groups sh -c "exec 3</tmp/secret; exec sleep 4712"' &
dbg=$!
cpid=$(pid_inside "sleep 4712") || bail "the command after setpriv --reuid is not visible"
is "$(inside ptry asuid 1000 /bin/cat /proc/self/status | sed -n 's/^Uid:\t//p')" "1000	1000	1000	1000" \
	"control: a container process of uid 1000"
out=$(inside ptry asuid 1000 /bin/sh -c "cat /proc/$cpid/root/tmp/secret /proc/$cpid/fd/3 /proc/$cpid/environ" 2>&1)
case $out in *VIEWONLY*) ok 1 "after setpriv --reuid=1000, uid 1000 of the container reads the command's view or environment: $out" ;;
*) ok 0 "after setpriv --reuid=1000, uid 1000 of the container reads nothing of the command's (root, fd, environ)" ;; esac
out=$(inside ptry asuid 1000 /bin/ptry ptrace "$cpid" 2>&1)
is "$out" "ptrace $cpid: Operation not permitted" "... nor ptraces it"
out=$(sed -n 's/^CapPrm:\t//p' "/proc/$(hostpid "$cpid")/status")
is "$out" "0000000800000000" "the mark survives the uid change and the exec after it"
kill "$dbg"; wait "$dbg" 2>/dev/null; dbg=

# --- a core dump the container provokes ---------------------------------------
runc exec -d "$n" sh -c 'ulimit -c unlimited; exec sleep 4713' || bail "a target with unlimited core dumps"
tp=$(pid_inside "sleep 4713") || bail "no core target"
TP=$(hostpid "$tp")
"$HIJACK" --tools --pid "$TP" --wd /tmp -- sleep 4714 &
dbg=$!
cpid=$(pid_inside "sleep 4714") || bail "no debugging command"
is "$(sed -n 's/^Max core file size *\([0-9a-z]*\) *\([0-9a-z]*\).*/\1 \2/p' "/proc/$(hostpid "$cpid")/limits")" "0 0" \
	"the command's RLIMIT_CORE is 0, soft and hard, whatever the target's"
inside kill -SEGV "$cpid"
wait "$dbg" 2>/dev/null
dbg=
case $(cat /proc/sys/kernel/core_pattern) in
\|*) skip "core_pattern is a pipe here: no file to look for" ;;
*) is "$(ls "$R/tmp" | grep -c core)" 0 "SIGSEGV from the container dumps no core of the command into the container" ;;
esac
runc exec "$n" kill "$tp"
tp=

# --- the terminal: a devpts of the view's own, never the host's ------------------
# With the container's devpts, its root would open the command's
# /dev/pts/N, read what the caller types and write to the caller's screen.
# The container leads its /dev/ptmx to its own devpts as the view shows it.
inside sh -c 'rm -f /dev/ptmx && ln -s /run/hijack/root/dev/pts/ptmx /dev/ptmx' ||
	bail "a /dev/ptmx symlink in the container"
"$HIJACK" --tools --pty "runc:$n" -- sh -c 'stat -c "%d %t:%T" "$(tty)" >/run/hijack/root/ttyinfo; sleep 3' </dev/null >/dev/null &
dbg=$!
_i=0
while [ ! -s "$R/ttyinfo" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
set -- $(cat "$R/ttyinfo")
ctdev=$(inside stat -c %d /dev/pts/ptmx)
hostdev=$(stat -c %d /dev/pts/ptmx)
ok $([ -n "$1" ] && [ "$1" != "$ctdev" ] && [ "$1" != "$hostdev" ]; echo $?) \
	"the command's terminal is on a devpts of its own ($1), neither the container's ($ctdev) nor the host's ($hostdev)"
is "$(inside ls /dev/pts)" "ptmx" "the container sees no pseudo-terminal of the command's to open"
wait "$dbg"
dbg=

# --- a container process stops hijack's child before its exec ---------------------
# Until its exec the child is in the container's pid namespace as uid 0,
# the uid of the container's root, which may signal it: SIGSTOP used to
# leave hijack waiting for ever, Ctrl-C blocked.
runc exec -d "$n" sh -c 'while :; do for d in /proc/[0-9]*; do [ "$(cat $d/comm 2>/dev/null)" = hijack ] && kill -STOP ${d#/proc/}; done; done'
sleep 0.5
for w in "--tools" ""; do
	# Stopped after its exec, the command is its own: timeout's SIGTERM,
	# forwarded, must still end it (hijack continues it).
	timeout -k 10 60 "$HIJACK" $w "runc:$n" -- /bin/true </dev/null >"$tmp/stop.out" 2>&1
	rc=$?
	case "$rc:$(cat "$tmp/stop.out")" in
	"125:hijack: wait: the command's process was stopped (Stopped (signal)) before it started"*) ok 0 "${w:-plain}: the container stops hijack's child: 125 at once, and it says so" ;;
	0:*) ok 0 "${w:-plain}: the container stops hijack's child: (it was too late to stop it: ran)" ;;
	124:*) ok 0 "${w:-plain}: the container stops the command after its exec: timeout's SIGTERM, forwarded, still ends it" ;;
	*) ok 1 "${w:-plain}: the container stops hijack's child: 125 at once, and it says so"; diag "got $rc: $(cat "$tmp/stop.out")" ;;
	esac
done
# A file copy is hijack's own code, in the container's pid namespace as
# long as it copies: stopped there, it ends (125), it does not hang.
(sleep 2; echo new) | timeout 60 "$HIJACK" "runc:$n" --write-file=/etc/motd >"$tmp/stop.out" 2>&1
rc=$?
# Stopped while it sets up or while it copies: the copy's process either way.
like "$rc:$(cat "$tmp/stop.out")" "125:hijack: wait: the copy's process was stopped (Stopped (signal)) before it *" \
	"--write-file: the container stops the copy: 125 at once, and it says so"
inside sh -c 'for d in /proc/[0-9]*; do case "$(cat $d/cmdline 2>/dev/null | tr "\0" " ")" in *"kill -STOP"*) kill ${d#/proc/} ;; esac; done' 2>/dev/null
inside pkill -f "kill -STOP" 2>/dev/null

# --- mounts both ways, CAP_SYS_ADMIN in the container -----------------------------
# A privileged LXC container keeps CAP_SYS_ADMIN; without CAP_SYS_PTRACE it
# may be debugged, and without CAP_WAKE_ALARM the command has a mark.
LXC_EXTRA_CONFIG="lxc.cap.drop = sys_ptrace wake_alarm" lxc_up "$n-lxc" || bail "LXC container"
L=$CT_PID
ct_mounts() { sed 's/^[0-9]* [0-9]* //' "/proc/$L/mountinfo" | sort; }
lx_before=$(ct_mounts)
HJ21_CALLER=callersecret "$HIJACK" --tools "lxc:$n-lxc" -- sh -c \
	'mount -t tmpfs hj21view /run/hijack/root/tmp 2>/dev/null && echo mounted; echo VIEWONLY >/tmp/secret; exec 3</tmp/secret; sleep 3; grep -c hj21ct /proc/self/mountinfo' \
	>"$tmp/lx.out" 2>&1 &
dbg=$!
sleep 1
lxc-attach -n "$n-lxc" -- mount -t tmpfs hj21ct /tmp || bail "a mount in the container"
cpid=$(lxc-attach -n "$n-lxc" -- sh -c 'for d in /proc/[0-9]*; do [ "$(cat $d/cmdline | tr "\0" " ")" = "sleep 3 " ] && echo ${d#/proc/}; done')
out=$(lxc-attach -n "$n-lxc" -- sh -c "cat /proc/$cpid/root/tmp/secret /proc/$cpid/fd/3" 2>&1)
case $out in *VIEWONLY*) ok 1 "with CAP_SYS_ADMIN, the container reads the command's view through root or fd" ;;
*) ok 0 "with CAP_SYS_ADMIN, the container reads nothing of the command's view through root or fd" ;; esac
# mm_access() lets CAP_PERFMON or CAP_SYS_ADMIN of the initial user
# namespace read any process's environ, maps and auxv on recent kernels;
# what the command's hold is the caller's terminal and locale, no more.
out=$(lxc-attach -n "$n-lxc" -- cat "/proc/$cpid/environ" 2>&1)
case $out in *callersecret*) ok 1 "... and the command's environ holds none of the caller's other variables" ;;
*) ok 0 "... and the command's environ holds none of the caller's other variables" ;; esac
wait "$dbg"
is "$(cat "$tmp/lx.out")" "0" "a mount the container makes later stays out of the view, and the command (CAP_SYS_ADMIN withheld) mounts nothing"
lxc-attach -n "$n-lxc" -- umount /tmp
dbg=
is "$(ct_mounts)" "$lx_before" "nothing the command did reached the container's mount table"
finish
