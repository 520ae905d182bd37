#!/usr/bin/python3
# lxcmon.py LXCPATH NAME:PID...: answer for LXC containers that are not
# there, as anyone can (23-naming.t).  An LXC container's monitor listens
# on the abstract socket "@LXCPATH/NAME/command", which has no owner; this
# binds it for each NAME and answers liblxc 5's requests as a monitor
# would: "running" for the state (LXC_CMD_GET_STATE, 3), PID for anything
# else (LXC_CMD_GET_INIT_PID).  A request is {int cmd; int datalen; void
# *data;}, an answer {int ret; int datalen; void *data;}.  Prints "ready"
# once bound, and "busy NAME" for a name already bound by someone else.
import select
import socket
import struct
import sys

GET_STATE, RUNNING = 3, 2

lxcpath = sys.argv[1]
listeners, pid_of = {}, {}
for arg in sys.argv[2:]:
    name, pid = arg.rsplit(":", 1)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(("\0%s/%s/command" % (lxcpath, name)).encode())
    except OSError:
        print("busy", name, flush=True)
        continue
    s.listen(64)
    listeners[s] = int(pid)
print("ready", flush=True)

clients = {}
while True:
    readable, _, _ = select.select(list(listeners) + list(clients), [], [])
    for s in readable:
        if s in listeners:
            c, _ = s.accept()
            clients[c] = listeners[s]
            continue
        try:
            req = s.recv(16)
        except OSError:
            req = b""
        if len(req) < 16:
            del clients[s]
            s.close()
            continue
        cmd = struct.unpack("i", req[:4])[0]
        data = RUNNING if cmd == GET_STATE else clients[s]
        try:
            s.send(struct.pack("iiq", 0, 0, data))
        except OSError:
            pass
