# sshd.sh - an sshd of the test's own on a loopback address, logging in
# with a key the test makes, for the tests that drive something over ssh
# (17-ansible.t, gate/tests/test-gate.sh).  POSIX sh; needs root.
#
#   sshd_start DIR ADDR  makes DIR (mode 0700, new) and in it the host key, the
#                        client key DIR/id, DIR/known_hosts that knows the
#                        host key, DIR/sshd_config and DIR/config (ssh -F:
#                        Host sshd-test, this user, that key, batch mode);
#                        starts sshd on ADDR:$sshd_port, logging to DIR/log,
#                        and returns once it accepts connections (10 s at
#                        most).  Else: says why on stderr, stops what it
#                        started, returns 1.
#   sshd_stop            stops it; a second call does nothing.  Call it
#                        from the test's exit trap, so that a test that
#                        dies does not leave an sshd behind.
#
# /run/sshd (sshd's privilege separation directory, made by the
# openssh-server package at boot) is made when missing and left: another
# test's sshd may be using it at the same time (make -j).

sshd_pid='' sshd_port=''

sshd_start() {
	_sd=$1 _sa=$2
	mkdir -m 700 "$_sd" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$_sd/host" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$_sd/id" || return 1
	cp "$_sd/id.pub" "$_sd/authorized_keys" || return 1
	# A free port now; free still when sshd binds it, as nothing else
	# here binds ports on this address.
	sshd_port=$(python3 -c "import socket; s = socket.socket(); s.bind(('$_sa', 0)); print(s.getsockname()[1])") ||
		return 1
	echo "[$_sa]:$sshd_port $(cut -d' ' -f1,2 "$_sd/host.pub")" >"$_sd/known_hosts"
	cat >"$_sd/sshd_config" <<EOF
ListenAddress $_sa:$sshd_port
HostKey $_sd/host
PidFile none
AuthorizedKeysFile $_sd/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel VERBOSE
EOF
	cat >"$_sd/config" <<EOF
Host sshd-test
	HostName $_sa
	Port $sshd_port
	User $(id -un)
	IdentityFile $_sd/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking yes
	UserKnownHostsFile $_sd/known_hosts
EOF
	mkdir -m 755 /run/sshd 2>/dev/null
	[ -d /run/sshd ] || return 1
	/usr/sbin/sshd -D -e -f "$_sd/sshd_config" 2>"$_sd/log" &
	sshd_pid=$!
	_si=0
	while [ $_si -lt 50 ] && kill -0 "$sshd_pid" 2>/dev/null; do
		python3 -c "import socket; socket.create_connection(('$_sa', $sshd_port), 1)" 2>/dev/null &&
			return 0
		sleep 0.2
		_si=$((_si + 1))
	done
	echo "sshd on $_sa:$sshd_port did not start: $(cat "$_sd/log")" >&2
	sshd_stop
	return 1
}

sshd_stop() {
	[ -n "$sshd_pid" ] || return 0
	kill "$sshd_pid" 2>/dev/null
	wait "$sshd_pid" 2>/dev/null
	sshd_pid=
}
