# journal.sh - a systemd-journald of the test's own, and hijack's records
# read back from it, for the audit tests (22-audit.t, 24-record.t,
# 25-sessions.t).  The test has mounted tmpfs on /run/systemd and /run/log
# in a private mount namespace first (journal_private does both); $tmp is
# its scratch directory.

jd_pid=""
journald=/lib/systemd/systemd-journald

# journal_private: tmpfs on /run/systemd and /run/log (and on
# /var/log/journal, where journald would write instead when it exists),
# then a journald; in the test's private mount namespace, with bail().
journal_private() {
	mount -t tmpfs -o mode=755 tmpfs /run/systemd 2>/dev/null ||
		{ mkdir -p /run/systemd && mount -t tmpfs -o mode=755 tmpfs /run/systemd; } ||
		bail "tmpfs on /run/systemd"
	mkdir -p /run/systemd/journal /run/log
	mount -t tmpfs -o mode=755 tmpfs /run/log || bail "tmpfs on /run/log"
	[ ! -d /var/log/journal ] || mount -t tmpfs tmpfs /var/log/journal
	journald_up
}

journald_up() {
	rm -f /run/systemd/journal/socket
	"$journald" >"$tmp/journald.log" 2>&1 &
	jd_pid=$!
	i=0
	while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -S /run/systemd/journal/socket ] || bail "journald did not start"
}
journald_down() {
	kill "$jd_pid"
	wait "$jd_pid" 2>/dev/null
	jd_pid=""
	rm -f /run/systemd/journal/socket
}

# The kinds of record, by MESSAGE_ID (catalog/hijack.catalog).
START=2eb84e2ca95444e3b97bf7ef5fc2c499
END=9fe93aa1ceea423a8a8983939d15c300
FAILED=f7c3ed08a83e47c7bedd047cc727a3ad

# rec [MATCH...]: hijack's records as JSON lines, oldest first.
rec() {
	journalctl --sync >/dev/null 2>&1 || sleep 0.3
	journalctl -D /run/log/journal -o json --no-pager SYSLOG_IDENTIFIER=hijack "$@"
}
# last ID: the HIJACK_SESSION of the last record with MESSAGE_ID ID.
last() {
	rec MESSAGE_ID="$1" | tail -n 1 | jq -r .HIJACK_SESSION
}
# field SESSION ID FIELD: one field of one record.
field() {
	rec HIJACK_SESSION="$1" MESSAGE_ID="$2" | jq -r ".$3 // \"(none)\""
}
