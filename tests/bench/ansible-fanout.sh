#!/bin/sh
# ansible-fanout.sh: the wall time of one playbook
# (tests/integration/ansible/fanout.yml: command, copy, stat, fetch) run
# across FANOUT_COUNT (20) runc containers with forks=10, through hijack's
# connection plugin and through community.docker.nsenter (Debian's
# `ansible` package), in FANOUT_ROUNDS (5) interleaved rounds, the order
# swapped every round.  Every run must succeed in every container.  Prints
# each run's time (with the load average as it started), per plugin the
# median and the range, and the ratio of the medians.  Needs root;
# run by `make bench-ansible` (HIJACK, TESTDIR set), and by 17-ansible.t
# with one round.  Both plugins run as they ship: nsenter's does not
# pipeline, so it copies each module into the container first.  In a
# build tree HIJACK is libtool's wrapper script, a shell that forks a
# dozen times before it runs the binary (70 ms a run here, more than the
# entry): the binary itself runs, with the tree's libhijack.so.0, as an
# installed hijack would (as entry-lib.sh does).
: "${HIJACK:?HIJACK must name the hijack binary}"
: "${TESTDIR:?TESTDIR must name tests/integration}"
. "$TESTDIR/containers.sh"
. "$TESTDIR/pyroot.sh"
count=${FANOUT_COUNT:-20}
rounds=${FANOUT_ROUNDS:-5}
hjlib=
if [ -x "$(dirname "$HIJACK")/.libs/hijack" ]; then
	hjlib=$(cd "$(dirname "$HIJACK")/../.." && pwd)/.libs
	HIJACK=$(dirname "$HIJACK")/.libs/hijack
fi
# The tree's plugin, unless the caller names one (17-ansible.t: the installed).
plugin=${ANSIBLE_CONNECTION_PLUGINS:-$(cd "$TESTDIR/../../ansible" && pwd)}

tmp=$(mktemp -d) || exit 1
n=hjf$$
fan_cleanup() {
	i=1
	while [ "$i" -le "$count" ]; do
		runc_down "$n-$i" "$tmp/c$i"
		i=$((i + 1))
	done
	rm -rf "$tmp"
}
trap fan_cleanup EXIT
trap 'exit 1' INT TERM

export HOME="$tmp/home" ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" ANSIBLE_NOCOLOR=1
export ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_RETRY_FILES_ENABLED=False
export ANSIBLE_CONNECTION_PLUGINS="$plugin"
mkdir -p "$HOME"

pyroot "$tmp/root" || { echo "ansible-fanout: no Python root" >&2; exit 1; }
common="ansible_python_interpreter=/usr/bin/python3 ansible_remote_tmp=/tmp/.ansible"
echo "[all]" >"$tmp/hijack.ini"
echo "[all]" >"$tmp/nsenter.ini"
i=1
while [ "$i" -le "$count" ]; do
	pyrunc_up "$n-$i" "$tmp/c$i" "$tmp/root" /bin/sleep 100000 ||
		{ echo "ansible-fanout: container $i did not start" >&2; exit 1; }
	echo "c$i ansible_host=runc:$n-$i ansible_connection=hijack ansible_hijack_exe=$HIJACK $common" >>"$tmp/hijack.ini"
	echo "c$i ansible_connection=community.docker.nsenter ansible_nsenter_pid=$CT_PID $common" >>"$tmp/nsenter.ini"
	i=$((i + 1))
done

# run PLUGIN: one timed playbook run; appends "PLUGIN SECONDS" to results.
# Every run starts from containers without /tmp/fanout, so that every run
# of either plugin copies it (copy skips a file that is already right: the
# first run alone would pay for the transfer).
run() {
	rm -rf "$tmp/fetch"
	i=1
	while [ "$i" -le "$count" ]; do
		runc exec "$n-$i" /bin/rm -f /tmp/fanout || exit 1
		i=$((i + 1))
	done
	# Only hijack's runs get the tree's library path.
	lib=
	[ "$1" = hijack ] && [ -n "$hjlib" ] && lib="LD_LIBRARY_PATH=$hjlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	env $lib /usr/bin/ansible-playbook -i "$tmp/$1.ini" -f 10 -e fetch_dir="$tmp/fetch" \
		"$TESTDIR/ansible/fanout.yml" >"$tmp/$1.out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	fetched=$(ls "$tmp/fetch" 2>/dev/null | wc -l)
	if [ "$rc" != 0 ] || [ "$fetched" != "$count" ]; then
		echo "ansible-fanout: $1: exit $rc, $fetched of $count containers done:" >&2
		tail -n 30 "$tmp/$1.out" >&2
		exit 1
	fi
	s=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1")
	echo "$1 $s" >>"$tmp/results"
	echo "round $r: $1 ${s}s (load average $load at the start)"
}

echo "ansible-fanout: $count runc containers, forks=10, $rounds round(s), $(nproc) CPUs"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		run hijack && run nsenter
	else
		run nsenter && run hijack
	fi
	r=$((r + 1))
done
python3 - "$tmp/results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    p, s = line.split()
    runs.setdefault(p, []).append(float(s))
for p in ("hijack", "nsenter"):
    t = runs[p]
    print("%-8s median %.2fs  min %.2fs  max %.2fs  (%d runs)" % (
        p, statistics.median(t), min(t), max(t), len(t)))
print("hijack / nsenter: %.2f (medians)" % (
    statistics.median(runs["hijack"]) / statistics.median(runs["nsenter"])))
PY
