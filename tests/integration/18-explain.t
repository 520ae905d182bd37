#!/bin/sh
# --explain and --explain=json, byte for byte: a spread of options against
# three fixture targets (confined, plain, under a user namespace), each
# answer (stdout, stderr and exit status) compared with a file in
# tests/integration/expected/explain-CASE.{txt,json}.  The printer may be
# rewritten; what it prints may not change without these files changing.
#
# Only what differs between runs or hosts is normalised (norm() below):
#   - the target's pid and the fixture's cgroup name (it holds our pid);
#   - namespace inode numbers (width kept) and the nsfs device;
#   - the caller's capability masks, wherever a set is the caller's;
#   - the cgroup hierarchies: only the v2 one is kept, its mount point and
#     the caller's place in it replaced (v1 hierarchies come and go);
#   - resource limits the fixture does not set (inherited from the caller)
#     and the caller's oom_score_adj;
#   - the policy file's temporary directory;
#   - with --env=keep, the number of hijack's own variables: env -i fixes
#     those of the command line, but an uninstalled build's libtool
#     wrapper (make check) adds its own, and the installed binary
#     (autopkgtest) does not.
# The environment is fixed (env -i) for the targets and for hijack, and the
# targets have no supplementary groups (setpriv), so that nothing depends
# on who runs the tests; hijack runs in / (--wd=keep shows it) and no fd
# of it is a terminal.  The files describe a host where no LSM is active and the
# kernel has no hijack(2); elsewhere the file is skipped.
#
# To write the files anew (after a deliberate change of the output):
# HIJACK_EXPLAIN_REGEN=1 make check TESTS=tests/integration/18-explain.t
. "${TESTDIR:-$(dirname "$0")}/lib.sh"
skip_unless_root
grep -q '^0::' /proc/self/cgroup || skip_all "no cgroup v2 hierarchy"

fixed_env="PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C"
cg=hijack-explain-$$

# target NAME FIXTURE-OPTIONS...: start a fixture in the fixed environment;
# its pid in the variable NAME.
target() {
	_name=$1
	shift
	_fixture=$FIXTURE
	FIXTURE=setpriv
	# shellcheck disable=SC2086
	start_target --clear-groups env -i $fixed_env "$_fixture" "$@"
	FIXTURE=$_fixture
	eval "$_name=\$TARGET"
}

# RLIMIT_NOFILE (7) 777/888, oom_score_adj 123, uid/gid 1000 with groups,
# CAP_KILL (5) and CAP_NET_BIND_SERVICE (10) kept, CAP_CHOWN and
# CAP_DAC_OVERRIDE bounded, no_new_privs, one seccomp filter.
target confined --cgroup "$cg" --uid 1000 --gid 1000 --groups 1000,27 \
	--caps 5,10 --bound 0,1 --nnp --deny-mkdir --rlimit 7:777:888 --oom 123
target plain
target userns --userns 1000 --caps 0,21

policy=$(tmpdir)/policy
printf '# deny chmod\ndefault allow\nerrno EACCES chmod fchmod fchmodat\n' >"$policy"

cg2mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg2self=$(sed -n 's/^0:://p' /proc/self/cgroup)
oom=$(cat /proc/self/oom_score_adj)

# The caller's capability masks, but none that is all zero: that says
# nothing about the caller.
caller_caps=""
for f in CapInh CapPrm CapEff CapBnd CapAmb; do
	v=$(sed -n "s/^$f:[[:space:]]*//p" /proc/self/status)
	[ "$v" = 0000000000000000 ] || caller_caps="$caller_caps $v"
done

rlimits='cpu\|fsize\|data\|stack\|core\|rss\|nproc\|nofile\|memlock\|as\|locks\|sigpending\|msgqueue\|nice\|rtprio\|rttime'

norm() {
	_s=""
	for v in $caller_caps; do
		_s="$_s -e s/$v/CALLER_CAPS_MASK/g"
		# ... and as a note writes it, in short hex.
		_s="$_s -e s/0x$(echo "$v" | sed 's/^0*//')\\>/0xCALLER_CAPS_MASK/g"
	done
	# Below the mount point, the caller's cgroup as if it were the root.
	[ "$cg2self" = / ] || _s="$_s -e s#$cg2self/#/#g -e s#$cg2self#/#g"
	# shellcheck disable=SC2086
	sed -e "s#$(tmpdir)#TMPDIR#g" \
		-e "s/$cg/hijack-explain/g" \
		-e "s#$cg2mnt#CGROUP2#g" \
		$_s \
		-e "s/\\<\\($confined\\|$plain\\|$userns\\)\\>/PID/g" \
		-e 's/40265[0-9]\{5\}/NSINODE###/g' \
		-e 's/"dev":"[0-9]*:[0-9]*"/"dev":"D:D"/g' \
		-e "s/(caller $oom)/(caller OOM)/" \
		-e 's/^env:     keep: [0-9]* variables$/env:     keep: N variables/' \
		-e 's/"env":{"mode":"keep","count":[0-9]*,/"env":{"mode":"keep","count":N,/' \
		-e '/^cgroups:/,/^seccomp:/{/^  /{/^  (v2) /!d}}' \
		-e 's/{"controllers":"[^"][^}]*}//g' \
		-e 's/"hierarchies":\[,*/"hierarchies":[/' \
		-e 's/,,*\]}/]}/' \
		-e 's/"nofile":\[777,888\]/"nofile":SET/' \
		-e "s/\"\\($rlimits\\)\":\\[[^]]*\\]/\"\\1\":HOST/g" \
		-e 's/"nofile":SET/"nofile":[777,888]/'
}

# check CASE FORMAT PID [OPTIONS...]: FORMAT txt or json.
check() {
	_case=$1 _fmt=$2 _pid=$3
	shift 3
	_arg=--explain
	[ "$_fmt" = json ] && _arg=--explain=json
	_exp=$TESTDIR/expected/explain-$_case.$_fmt
	# shellcheck disable=SC2086
	_got=$( (cd / && env -i $fixed_env "$HIJACK" --pid "$_pid" "$_arg" "$@" 2>&1 </dev/null
		echo "exit $?") | norm)
	if [ -n "$HIJACK_EXPLAIN_REGEN" ]; then
		printf '%s\n' "$_got" >"$_exp"
	fi
	is "$_got" "$(cat "$_exp" 2>/dev/null)" "$_case $_arg matches expected/explain-$_case.$_fmt"
}

# Preconditions of the files, read from the plain target's plan.
pre=$(env -i $fixed_env "$HIJACK" --pid "$plain" --explain </dev/null 2>&1)
case $pre in
*"kernel has hijack(2)"*) skip_all "the kernel has hijack(2): the files are for one without" ;;
esac
case $pre in
*"lsm:     no AppArmor or SELinux active"*) ;;
*) skip_all "an LSM is active: the files are for a host with none" ;;
esac

plan 28

for fmt in txt json; do
	check confined "$fmt" "$confined"
	check nsonly "$fmt" "$confined" --caps=keep --cgroups=keep --seccomp=none \
		--lsm=keep --limits=keep --env=keep --preserve-credentials --root=keep --wd=keep
	check user "$fmt" "$confined" --user 0 --group 27
	check env "$fmt" "$confined" --env=clear --setenv FOO=bar --setenv 'Q="x\y"'
	check pty "$fmt" "$confined" --pty --preserve-fds 2 --method=nsfd
	check nopty "$fmt" "$confined" --no-pty --no-ns net,ipc --wd '/tmp/a "b"\\c'
	check policy "$fmt" "$confined" --seccomp="$policy"
	check plain "$fmt" "$plain" --method=pidfd
	check plain-user "$fmt" "$plain" --user 1000 --group 1000
	check plain-ns "$fmt" "$plain" --ns uts,mnt --root /
	check syscall "$fmt" "$plain" --method=syscall
	check userns "$fmt" "$userns"
	check userns-keep "$fmt" "$userns" --preserve-credentials --caps=keep
	check conflict "$fmt" "$confined" --preserve-credentials --user 0
done

finish
