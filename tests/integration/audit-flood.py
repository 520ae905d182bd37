#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fill the kernel's audit backlog while the audit daemon is stopped.

Sends AUDIT_USER messages on a netlink audit socket until one send is
held by the kernel for longer than HOLD seconds: the backlog is then
over its limit, and the kernel holds every sender of an audit message
for its backlog wait time.  Prints "full" then, or "none" when the
backlog never filled within the message budget, and goes on sending
(so that it stays full) until it is killed.
"""
import socket
import struct
import sys
import time

NETLINK_AUDIT = 9
AUDIT_USER = 1005
NLM_F_REQUEST = 1
HOLD = 0.5
BUDGET = 2000000


def main():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
    text = b"hj22 flood " + b"x" * 200
    full = False
    for seq in range(1, BUDGET + 1):
        msg = struct.pack("=IHHII", 16 + len(text), AUDIT_USER,
                          NLM_F_REQUEST, seq, 0) + text
        t = time.monotonic()
        s.send(msg)
        held = time.monotonic() - t
        if held > HOLD and not full:
            print("full", flush=True)
            full = True
    if not full:
        print("none", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
