# hijack.py - an Ansible connection plugin that runs tasks inside running
# containers through hijack(1), on this host or on another one over OpenSSH.
#
# Part of hijack; installed by `make install` as
# $(datadir)/ansible/plugins/connection/hijack.py (Ansible's default
# connection plugin path when the prefix is /usr) and as the collection
# hijack.containers under $(datadir)/ansible/collections.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
name: hijack
short_description: run tasks inside running containers through hijack
description:
  - Runs commands inside a running container with C(hijack), which joins
    the container's namespaces, cgroups, credentials, capabilities,
    seccomp filters, LSM label and limits, so that a task runs as the
    container's own processes do.
  - C(ansible_host) is a hijack TARGET, as on hijack's command line
    (C(web), C(docker:web), C(lxc:db1), C(pid:4242)).
  - Files are copied with C(hijack --write-file) and C(hijack --read-file), and
    nothing of the container is used for them (no C(tee), C(cat) or C(dd),
    no host path into the container's root), so C(copy), C(template) and
    C(fetch) work in containers without any tools.
  - A file fetched is what the container makes of its path, so
    C(hijack --read-file) reads a regular file only (not a FIFO or a
    device such as C(/dev/zero), refused at once rather than waited on or
    read without end), through no C(/proc) link and from no C(/proc) (its
    C(/proc/self/environ) would be the controller's environment), and at
    most C(hijack_max_size) bytes (1 GiB unless set). A refusal fails the
    task with hijack's message; the fetched file is written under a
    temporary name and renamed only when whole, so nothing is left at the
    destination. Ansible's C(fetch) asks the container's own C(stat)
    first and, for a file that is not regular, reads it with the
    C(slurp) module, a program of the container's that hijack cannot
    bound; use the task's C(timeout) there.
  - Modules need Python in the container, and a shell for those that
    copy files or use C(become); with C(hijack_shell=none), commands
    (C(raw)) and pipelined modules run without a shell.
  - A module is pipelined (sent to Python's standard input), and its
    interpreter runs directly under hijack, without the two shells Ansible
    would start before it. Its compiled code is kept in the container for
    the next module (see C(hijack_pyc_cache)).
  - With C(hijack_host), hijack runs on that host over OpenSSH; one
    master connection (ControlMaster/ControlPersist) serves every task.
    Nothing runs on that host but sshd and hijack.
  - C(become) works where the container has C(su) or C(sudo) (and the
    target's user may use them without a password, as root may). Where the
    container has neither, set C(ansible_user) (hijack C(--user)) instead, and
    hijack then starts the task as that user directly.
  - Prefer C(ansible_user) to C(become) into a target whose user is not
    trusted (an application's process). Ansible makes its temporary
    directory and uploads files (C(copy), C(template)) as the target's user
    before become, so that user could change what the become user then
    reads. With C(ansible_user), every step runs as that user. The su or
    sudo that become runs is found through a fixed C(PATH), in C(/), with
    the reset environment.
  - Every hijack run is given C(--reason) naming the play and the task
    (C(ansible play 'NAME', task 'NAME')), after C(hijack_reason) when that
    is set, so that hijack's audit records of a fleet run can be followed
    task by task (see hijack(1), AUDIT).
  - Exit status 125 with a C(hijack:) message is a failure of hijack itself
    (no such container, permission denied, ...) and becomes an unreachable
    host with hijack's message; 126 and 127 (command not executable, not
    found) are the task's own failure.
author: the hijack authors
version_added: "0.1.0"
options:
  remote_addr:
    description: The hijack TARGET, C([ENGINE:]NAME) or C(pid:PID), as given to hijack.
    default: inventory_hostname
    vars:
      - name: inventory_hostname
      - name: ansible_host
      - name: ansible_hijack_target
  remote_user:
    description:
      - Run as this user of the container (hijack C(--user)), a name from
        the container's C(/etc/passwd) or a number. Unset, the container's
        own user (that of its main process).
      - This is how to run a task as another user in a container without
        C(su) or C(sudo).
    vars:
      - name: ansible_user
      - name: ansible_hijack_user
  hijack_group:
    description: Run with this group of the container (hijack C(--group)).
    vars:
      - name: ansible_hijack_group
  hijack_exe:
    description: The hijack program, on the host that runs it.
    default: hijack
    env:
      - name: ANSIBLE_HIJACK_EXE
    vars:
      - name: ansible_hijack_exe
  hijack_shell:
    description:
      - The shell in the container that runs each command, as
        C(SHELL -c COMMAND).
      - C(none) runs a command without any shell, split into words as a
        shell would (no redirections, no variables), for C(raw) tasks in a
        container that has no shell. Pipelined modules still run (their
        interpreter needs no shell); those that need a temporary directory
        (C(copy), C(template)) or C(become) cannot.
    default: /bin/sh
    vars:
      - name: ansible_hijack_shell
  hijack_env:
    description:
      - The environment (hijack C(--env)), C(target), C(keep), C(reset) or C(clear).
      - Unset, hijack gives the target's environment (and working directory)
        only to a task that runs as the target does; one that runs as another
        user (C(remote_user)) or freer gets the reset one (and C(/)), as the
        target's could run the container's own code (C(PYTHONPATH),
        C(LD_PRELOAD)) as that user. A task with C(become) gets the reset one
        too, and C(/), since C(su) or C(sudo) inside makes it another user's.
        C(target) gives it the target's all the same.
    choices: [target, keep, reset, clear]
    vars:
      - name: ansible_hijack_env
  hijack_setenv:
    description: Variables set in the command's environment (hijack C(--setenv)).
    type: dict
    default: {}
    vars:
      - name: ansible_hijack_setenv
  hijack_caps:
    description: Capability sets (hijack C(--caps)), C(target) or C(keep).
    choices: [target, keep]
    vars:
      - name: ansible_hijack_caps
  hijack_cgroups:
    description: Cgroup membership (hijack C(--cgroups)), C(target) or C(keep).
    choices: [target, keep]
    vars:
      - name: ansible_hijack_cgroups
  hijack_seccomp:
    description: Seccomp filters (hijack C(--seccomp)), C(target), C(none) or a policy file.
    vars:
      - name: ansible_hijack_seccomp
  hijack_lsm:
    description: AppArmor or SELinux label (hijack C(--lsm)), C(target) or C(keep).
    choices: [target, keep]
    vars:
      - name: ansible_hijack_lsm
  hijack_limits:
    description: Resource limits and OOM score adjustment (hijack C(--limits)), C(target) or C(keep).
    choices: [target, keep]
    vars:
      - name: ansible_hijack_limits
  hijack_max_size:
    description:
      - The most bytes C(fetch) reads from a container's file (hijack
        C(--max-size)), as a number of bytes or with C(K), C(M), C(G) or
        C(T) (KiB, ...). A larger file, or one that grows past it while it
        is copied, fails the task. Unset, hijack's default of 1 GiB.
    vars:
      - name: ansible_hijack_max_size
  hijack_max_output:
    description:
      - The most bytes a command or module may print (standard output and
        error together) before the task fails and the command is killed.
        What runs in a container chooses how much it prints, and the
        controller keeps all of it in memory.
    type: int
    default: 268435456
    vars:
      - name: ansible_hijack_max_output
  hijack_ns:
    description: Namespace types to enter (hijack C(--ns)), for example C(mnt,uts,net).
    vars:
      - name: ansible_hijack_ns
  hijack_no_ns:
    description: Namespace types not to enter (hijack C(--no-ns)).
    vars:
      - name: ansible_hijack_no_ns
  hijack_extra_args:
    description: Further hijack options, placed before the TARGET.
    type: list
    elements: str
    default: []
    vars:
      - name: ansible_hijack_extra_args
  hijack_reason:
    description:
      - Why, for hijack's audit records (hijack C(--reason)); the play and
        task names are added after it. Unset, they are the reason alone.
    vars:
      - name: ansible_hijack_reason
  hijack_play_name:
    description: The play's name, for C(--reason); set by Ansible.
    vars:
      - name: ansible_play_name
  hijack_task_name:
    description: The task's name, for C(--reason); set by Ansible from the task.
    keyword:
      - name: name
  hijack_task_action:
    description: The task's module, for C(--reason) when the task has no name; set by Ansible.
    keyword:
      - name: action
  hijack_host:
    description:
      - The host the container runs on. Unset or empty, hijack runs here;
        otherwise over OpenSSH on that host.
    vars:
      - name: hijack_host
      - name: ansible_hijack_host
  hijack_ssh_user:
    description: The user to log in as on C(hijack_host) (it must be allowed to run hijack).
    vars:
      - name: hijack_ssh_user
  hijack_ssh_port:
    description: The port of C(hijack_host)'s sshd.
    type: int
    vars:
      - name: hijack_ssh_port
  hijack_ssh_args:
    description: Further ssh options (for example C(-i KEY), C(-o UserKnownHostsFile=...)).
    type: list
    elements: str
    default: []
    vars:
      - name: hijack_ssh_args
  hijack_ssh_executable:
    description: The ssh client.
    default: ssh
    vars:
      - name: hijack_ssh_executable
  hijack_control_persist:
    description: How long the master connection to C(hijack_host) stays open when idle (ssh C(ControlPersist)).
    default: 60s
    vars:
      - name: hijack_control_persist
  hijack_control_dir:
    description: The directory for the master connections' sockets.
    default: ~/.ansible/cp
    vars:
      - name: hijack_control_dir
  pipelining:
    description: Send modules to Python on standard input instead of copying them first.
    type: bool
    default: true
    env:
      - name: ANSIBLE_PIPELINING
    ini:
      - section: defaults
        key: pipelining
    vars:
      - name: ansible_pipelining
      - name: ansible_hijack_pipelining
  hijack_pyc_cache:
    description:
      - Keep the Python bytecode of a pipelined module's code in the
        container, so that the next module there does not compile it again
        (Ansible's module_utils, imported from the module's zip, and the
        standard library where the container has no compiled copy).
      - The cache is the directory C($TMPDIR/.hijack-ansible-pyc-UID) (C(/tmp)
        without C(TMPDIR)) of the container, one per user the module runs
        as; it is used only when it is a directory owned by that user with no
        access for others, below directories that only that user or root
        may change (a sticky one such as C(/tmp) excepted), and is filled by
        that user's modules only.
        Nothing of it leaves the container, and the host reads none of it.
      - C(false) compiles every module's code anew, as Python does without it.
    type: bool
    default: true
    vars:
      - name: ansible_hijack_pyc_cache
  timeout:
    description: Seconds to wait for a become prompt or success.
    type: int
    default: 10
    vars:
      - name: ansible_timeout
'''

import fcntl
import hashlib
import os
import re
import selectors
import shlex
import subprocess
import time

from ansible.errors import AnsibleConnectionFailure, AnsibleError, AnsibleFileNotFound
from ansible.module_utils.common.text.converters import to_bytes, to_text
from ansible.plugins.connection import ConnectionBase
from ansible.utils.display import Display

display = Display()

# Options passed on to hijack as --NAME=VALUE when set.
_PASSED_ON = (
    ('remote_user', 'user'), ('hijack_group', 'group'), ('hijack_env', 'env'),
    ('hijack_caps', 'caps'), ('hijack_cgroups', 'cgroups'),
    ('hijack_seccomp', 'seccomp'), ('hijack_lsm', 'lsm'),
    ('hijack_limits', 'limits'), ('hijack_ns', 'ns'), ('hijack_no_ns', 'no-ns'),
)

# hijack's own failure (see hijack(1), EXIT STATUS).
_HIJACK_FAILED = 125

# What OpenSSH's client says when it, not the command, failed (with 255).
_SSH_FAILURES = ('Host key verification failed.',)
_SSH_FAILURE_PREFIXES = ('Permission denied (', 'kex_exchange_identification:',
                         'Connection closed by ', 'Connection timed out',
                         'Control socket connect(')


# Put before a pipelined module (AnsiballZ) on Python's standard input when
# hijack_pyc_cache is set: a bytecode cache in the container.  A module
# imports Ansible's module_utils from a zip, which Python compiles anew
# every time (zipimport writes no bytecode), and in a container whose
# standard library has no compiled copy (a read-only root without
# __pycache__) the standard library too: about half of a small module's
# time.  This runs inside the container, as the module does, with what
# the module has: it reads and writes only a directory of the module's
# own user (owned by it, no access for others, below directories no other
# user may change, else it is not used), so what another user of the
# container could plant or swap in is never loaded, and a
# cached entry is found by the hash of its source, so a changed source
# is compiled again.  Whatever fails leaves Python as it was.  Python 2
# and Pythons without the pure-Python zipimport (before 3.8) run unchanged
# but for the standard library's cache (3.8 and later).
_PYC_BOOTSTRAP = br"""# -*- coding: utf-8 -*-
def _hijack_pyc():
    import os, sys
    uid = os.geteuid()
    top = os.environ.get('TMPDIR') or '/tmp'

    def trusted(path, last_sticky):
        # Only the module's user and root may change any directory on the
        # way: the cache is used by path (sys.pycache_prefix), so a parent
        # another user may write to would let that user swap the checked
        # directory for one of theirs between the check and the use.  A
        # sticky parent (/tmp) is fine: there only an entry's owner moves
        # it, and the entry below it is checked in turn.
        if not os.path.isabs(path):
            return False
        cur, parts = '/', [p for p in path.split('/') if p]
        for i in range(len(parts) + 1):
            if i:
                cur = os.path.join(cur, parts[i - 1])
            st = os.lstat(cur)
            if st.st_mode & 0o170000 != 0o040000 or st.st_uid not in (0, uid):
                return False
            sticky = st.st_mode & 0o1000 and (i < len(parts) or last_sticky)
            if st.st_mode & 0o022 and not sticky:
                return False
        return True
    base = os.path.join(top, '.hijack-ansible-pyc-%d' % uid)
    try:
        if not trusted(top, True):
            return
        os.mkdir(base, 0o700)
    except OSError:
        pass
    try:
        st = os.lstat(base)
        if not trusted(base, False):
            return
    except OSError:
        return
    if st.st_uid != uid or st.st_mode & 0o077:
        return
    tag = getattr(getattr(sys, 'implementation', None), 'cache_tag', None)
    std = os.path.dirname(getattr(os, '__file__', '') or '')
    if tag and std and not os.path.exists(
            os.path.join(std, '__pycache__', 'tempfile.%s.pyc' % tag)):
        sys.pycache_prefix = os.path.join(base, 'std')
    try:
        import marshal, hashlib, zipimport
        from importlib.util import MAGIC_NUMBER
        compile_source = zipimport._compile_source
        code_type = type(_hijack_pyc.__code__)
        code_type.replace
    except Exception:
        return
    head = MAGIC_NUMBER + tag.encode() + b'\0'

    def renamed(code, filename):
        consts = tuple(renamed(c, filename) if isinstance(c, code_type) else c
                       for c in code.co_consts)
        return code.replace(co_filename=filename, co_consts=consts)

    def cached(pathname, source):
        inzip = pathname.split('.zip' + os.sep, 1)[-1]
        key = hashlib.sha256(head + inzip.encode('utf-8', 'surrogateescape') +
                             b'\0' + source).hexdigest()
        path = os.path.join(base, key)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK |
                         getattr(os, 'O_NOFOLLOW', 0))
            with os.fdopen(fd, 'rb') as f:
                st = os.fstat(fd)
                if st.st_mode & 0o170000 != 0o100000 or st.st_size > 64 << 20:
                    raise OSError('not a cache entry')
                data = f.read()
            if data[:len(head)] == head:
                return renamed(marshal.loads(data[len(head):]), pathname)
        except Exception:
            pass
        code = compile_source(pathname, source)
        tmp = '%s.%d.tmp' % (path, os.getpid())
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, 'wb') as f:
                f.write(head + marshal.dumps(code))
            os.rename(tmp, path)
        except Exception:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return code
    zipimport._compile_source = cached
try:
    _hijack_pyc()
except Exception:
    pass
del _hijack_pyc
"""

# How a pipelined AnsiballZ module begins (ansible/executor/module_common.py).
_ANSIBALLZ_MARK = b'\n_ANSIBALLZ_WRAPPER = True'
# What Ansible runs it with (ActionBase._low_level_execute_command), inside
# "SHELL -c ...": an absolute path with nothing a shell would expand.
_PIPELINED = re.compile(r'^(/[A-Za-z0-9_./+-]+) && sleep 0$')


class Connection(ConnectionBase):
    transport = 'hijack'
    has_pipelining = True
    # Nothing reads a terminal: hijack runs with --no-pty and pipes.
    has_tty = False

    def _connect(self):
        if not self._connected:
            display.vvv(u'ESTABLISH HIJACK CONNECTION TO %s' % self._target(),
                        host=self._target())
            self._connected = True
        return self

    def _target(self):
        return self.get_option('remote_addr')

    def _hijack_argv(self, file_opts=(), escalates=False):
        '''hijack's argument vector up to and including the TARGET.
        escalates: the command becomes another user (su, sudo) inside.'''
        argv = [self.get_option('hijack_exe'), '--no-pty']
        for opt, flag in _PASSED_ON:
            value = self.get_option(opt)
            if value not in (None, ''):
                argv.append('--%s=%s' % (flag, value))
        if escalates:
            # hijack cannot tell that the command will be another user's:
            # the target's PATH would choose the su or sudo that gets the
            # password, and its PYTHONPATH, BASH_ENV or working directory
            # (where Python looks for modules first) the code the become
            # user runs.
            if self.get_option('hijack_env') in (None, ''):
                argv.append('--env=reset')
            argv.append('--wd=/')
        for name, value in sorted(self.get_option('hijack_setenv').items()):
            argv.append('--setenv=%s=%s' % (name, value))
        argv.append('--reason=%s' % self._reason())
        argv.extend(self.get_option('hijack_extra_args'))
        argv.extend(file_opts)
        target = self._target()
        # No engine names a container with a leading '-', and hijack would
        # take it for an option (it reads options up to the first word that
        # is not one).
        if not target or target.startswith('-'):
            raise AnsibleConnectionFailure('not a hijack TARGET: %r' % target)
        argv.append(target)
        return argv

    def _reason(self):
        '''The play and the task, for hijack's audit records.'''
        play = self.get_option('hijack_play_name') or ''
        task = self.get_option('hijack_task_name') or self.get_option('hijack_task_action') or ''
        reason = "ansible play '%s', task '%s'" % (play, task)
        given = self.get_option('hijack_reason')
        return '%s; %s' % (given, reason) if given else reason

    def _ssh_argv(self, remote_argv):
        '''ssh ... HOST -- COMMAND, through a shared master connection.

        sshd hands COMMAND to the login shell, so each word is quoted.'''
        host = self.get_option('hijack_host')
        # ssh would read a leading '-' as one of its options.
        if host.startswith('-'):
            raise AnsibleConnectionFailure('not a host name: %r' % host)
        cdir = os.path.expanduser(self.get_option('hijack_control_dir'))
        os.makedirs(cdir, mode=0o700, exist_ok=True)
        user = self.get_option('hijack_ssh_user')
        port = self.get_option('hijack_ssh_port')
        # One socket per destination, short enough for sun_path.
        key = '%s@%s:%s' % (user or '', host, port or '')
        path = os.path.join(cdir, 'hj-' + hashlib.sha1(to_bytes(key)).hexdigest()[:16])
        argv = [self.get_option('hijack_ssh_executable'),
                '-o', 'BatchMode=yes',
                '-o', 'ControlMaster=auto',
                '-o', 'ControlPersist=%s' % self.get_option('hijack_control_persist'),
                '-o', 'ControlPath=%s' % path]
        if user:
            argv.extend(['-l', user])
        if port:
            argv.extend(['-p', str(port)])
        argv.extend(self.get_option('hijack_ssh_args'))
        argv.extend([host, '--', ' '.join(shlex.quote(a) for a in remote_argv)])
        return argv

    def _argv(self, hijack_argv):
        if self.get_option('hijack_host'):
            return self._ssh_argv(hijack_argv)
        return hijack_argv

    def _check_hijack(self, rc, stderr):
        '''125 with hijack's own message: the container was not reached.'''
        if rc != _HIJACK_FAILED:
            return
        lines = [l for l in to_text(stderr, errors='surrogate_or_replace').splitlines()
                 if l.startswith('hijack:') or l.startswith('hijack ')]
        if lines:
            raise AnsibleConnectionFailure('%s: %s' % (self._target(), lines[-1]))

    def _ssh_failed(self, rc, stderr):
        '''ssh's own failure (no answer, login refused) is 255, as a
        command's own 255 is: ssh's is the one it explains on stderr.'''
        if not self.get_option('hijack_host') or rc != 255:
            return
        err = to_text(stderr, errors='surrogate_or_replace').strip()
        if any(l.startswith('ssh:') or l in _SSH_FAILURES or l.startswith(_SSH_FAILURE_PREFIXES)
               for l in err.splitlines()):
            raise AnsibleConnectionFailure('%s: ssh to %s: %s' % (
                self._target(), self.get_option('hijack_host'), err))

    def exec_command(self, cmd, in_data=None, sudoable=True):
        super(Connection, self).exec_command(cmd, in_data=in_data, sudoable=sudoable)
        module = isinstance(in_data, bytes) and _ANSIBALLZ_MARK in in_data[:200]
        shell = self.get_option('hijack_shell')
        interpreter = module and self._interpreter(to_text(cmd))
        if interpreter:
            command = [interpreter]
        elif shell == 'none':
            command = shlex.split(to_text(cmd))
        else:
            command = [shell, '-c', to_text(cmd)]
        escalates = bool(self.become) and sudoable
        argv = self._argv(self._hijack_argv(escalates=escalates) + ['--'] + command)
        display.vvv(u'EXEC %s' % argv, host=self._target())
        if module and self.get_option('hijack_pyc_cache'):
            in_data = _PYC_BOOTSTRAP + in_data
        p = subprocess.Popen([to_bytes(a, errors='surrogate_or_strict') for a in argv],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        if self.become and self.become.expect_prompt() and sudoable:
            self._become_handshake(p)
        stdout, stderr = self._communicate(p, in_data)
        self._ssh_failed(p.returncode, stderr)
        self._check_hijack(p.returncode, stderr)
        return p.returncode, stdout, stderr

    def _communicate(self, p, in_data):
        '''p.communicate(in_data), but what the container prints is bounded
        (hijack_max_output): past it the command is killed and the task
        fails, rather than the controller holding it all in memory.'''
        limit = self.get_option('hijack_max_output')
        data = memoryview(in_data or b'')
        bufs = {p.stdout: [], p.stderr: []}
        total = 0
        sel = selectors.DefaultSelector()
        for f in (p.stdout, p.stderr):
            sel.register(f, selectors.EVENT_READ)
        if data:
            os.set_blocking(p.stdin.fileno(), False)
            sel.register(p.stdin, selectors.EVENT_WRITE)
        else:
            p.stdin.close()
        try:
            while sel.get_map():
                for k, _ in sel.select():
                    if k.fileobj is p.stdin:
                        try:
                            data = data[os.write(p.stdin.fileno(), data[:65536]):]
                        except BrokenPipeError:
                            data = data[:0]
                        if not data:
                            sel.unregister(p.stdin)
                            p.stdin.close()
                        continue
                    chunk = os.read(k.fileobj.fileno(), 65536)
                    if not chunk:
                        sel.unregister(k.fileobj)
                        continue
                    total += len(chunk)
                    if total > limit:
                        p.kill()
                        p.wait()
                        raise AnsibleError('%s: the command printed more than %d bytes '
                                           '(hijack_max_output) and was killed' % (
                                               self._target(), limit))
                    bufs[k.fileobj].append(chunk)
        finally:
            sel.close()
        p.wait()
        return b''.join(bufs[p.stdout]), b''.join(bufs[p.stderr])

    @staticmethod
    def _interpreter(cmd):
        '''The interpreter of a pipelined module that Ansible runs as
        "SHELL -c 'INTERPRETER && sleep 0'" (no environment, no become, no
        cd): run alone, it does the same (the status is the interpreter's
        either way) without two shells started before it.  None for any
        other command, which runs as it is.'''
        try:
            words = shlex.split(cmd)
        except ValueError:
            return None
        if len(words) != 3 or words[1] != '-c':
            return None
        m = _PIPELINED.match(words[2])
        return m.group(1) if m else None

    def _become_handshake(self, p):
        '''Wait for su/sudo to ask for a password (and answer it) or to
        say the command started; what they printed is not the task's.'''
        out = b''
        # One deadline for the whole handshake, not a wait per read: what
        # answers in the container may print without end and never prompt.
        deadline = time.monotonic() + self.get_option('timeout')
        sel = selectors.DefaultSelector()
        for f in (p.stdout, p.stderr):
            fl = fcntl.fcntl(f, fcntl.F_GETFL)
            fcntl.fcntl(f, fcntl.F_SETFL, fl | os.O_NONBLOCK)
            sel.register(f, selectors.EVENT_READ)
        try:
            while not (self.become.check_success(out) or
                       self.become.check_password_prompt(out)):
                left = deadline - time.monotonic()
                ready = sel.select(left) if left > 0 else []
                if not ready:
                    # wait(), not communicate(): a command that ignores the
                    # SIGHUP of hijack's death would hold the pipes open.
                    p.kill()
                    p.wait()
                    raise AnsibleError('timeout waiting for privilege escalation:\n' +
                                       to_text(out, errors='surrogate_or_replace'))
                for k, _ in ready:
                    chunk = k.fileobj.read()
                    if not chunk:
                        p.communicate()
                        self._check_hijack(p.returncode, out)
                        raise AnsibleError('privilege escalation ended before it started the command:\n' +
                                           to_text(out, errors='surrogate_or_replace'))
                    out += chunk
                    if len(out) > self.get_option('hijack_max_output'):
                        p.kill()
                        p.wait()
                        raise AnsibleError('%s: privilege escalation printed more than %d bytes '
                                           '(hijack_max_output)' % (
                                               self._target(), self.get_option('hijack_max_output')))
        finally:
            sel.close()
            for f in (p.stdout, p.stderr):
                fl = fcntl.fcntl(f, fcntl.F_GETFL)
                fcntl.fcntl(f, fcntl.F_SETFL, fl & ~os.O_NONBLOCK)
        if not self.become.check_success(out):
            password = self.become.get_option('become_pass', playcontext=self._play_context)
            p.stdin.write(to_bytes(password or '', errors='surrogate_or_strict') + b'\n')
            p.stdin.flush()

    def _transfer(self, file_opts, path, stdin, stdout, what):
        argv = self._argv(self._hijack_argv(file_opts=file_opts))
        display.vvv(u'%s %s' % (what, argv), host=self._target())
        p = subprocess.Popen([to_bytes(a, errors='surrogate_or_strict') for a in argv],
                             stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
        _, stderr = p.communicate()
        self._ssh_failed(p.returncode, stderr)
        self._check_hijack(p.returncode, stderr)
        if p.returncode != 0:
            raise AnsibleError('%s %s: exit status %d: %s' % (
                what, path, p.returncode, to_text(stderr, errors='surrogate_or_replace').strip()))

    def put_file(self, in_path, out_path):
        super(Connection, self).put_file(in_path, out_path)
        display.vvv(u'PUT %s TO %s' % (in_path, out_path), host=self._target())
        try:
            src = open(to_bytes(in_path, errors='surrogate_or_strict'), 'rb')
        except OSError as e:
            raise AnsibleFileNotFound('file or module does not exist: %s: %s' % (in_path, e))
        with src:
            # Private, as Ansible's own transfers are (modules, sources that
            # may hold secrets); the module that uses it sets the final mode.
            self._transfer(['--write-file=%s' % out_path, '--mode=0600'],
                           out_path, src, subprocess.DEVNULL, 'PUT')

    def fetch_file(self, in_path, out_path):
        super(Connection, self).fetch_file(in_path, out_path)
        display.vvv(u'FETCH %s TO %s' % (in_path, out_path), host=self._target())
        file_opts = ['--read-file=%s' % in_path]
        max_size = self.get_option('hijack_max_size')
        if max_size not in (None, ''):
            # Checked here: hijack's 125 for a bad value would read as an
            # unreachable host.
            if not re.match(r'^[0-9]+([KMGT](iB)?)?$', str(max_size), re.IGNORECASE):
                raise AnsibleError('hijack_max_size %r: a number of bytes, or with K, M, G or T'
                                   % (max_size,))
            file_opts.append('--max-size=%s' % max_size)
        # Written under another name, renamed when whole: a fetch hijack
        # refuses, or that fails midway, leaves nothing at out_path.
        tmp = out_path + '.hijack-part'
        try:
            with open(to_bytes(tmp, errors='surrogate_or_strict'), 'wb') as dst:
                self._transfer(file_opts, in_path, subprocess.DEVNULL, dst, 'FETCH')
            os.rename(tmp, out_path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def reset(self):
        self.close()

    def close(self):
        # The ssh master stays for ControlPersist: the next task reuses it.
        self._connected = False
