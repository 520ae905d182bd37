# private-etc.sh: sourced (". private-etc.sh") by the benchmarks that mount
# an /etc/hijack of their own.  Unless HIJACK_BENCH_PRIVATE is set, it runs
# the sourcing script again, with its arguments, in a private mount
# namespace, so that nothing it mounts reaches the host, and exits with
# that run's status; /etc/hijack is made first (and removed after) when the
# host has none to mount over.
if [ -z "${HIJACK_BENCH_PRIVATE:-}" ]; then
	[ -d /etc/hijack ] || { mkdir -m 755 /etc/hijack; made=1; }
	rc=0
	HIJACK_BENCH_PRIVATE=1 unshare -m --propagation private sh "$0" "$@" || rc=$?
	[ -z "${made:-}" ] || rmdir /etc/hijack
	exit $rc
fi
