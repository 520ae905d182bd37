#!/usr/bin/python3
# results.py JSON: one line per host and task of an ansible-playbook run
# with the json callback, "HOST|TASK|STATE|rc|changed|text", where STATE is
# ok, failed, unreachable or skipped and text is stdout, else stderr, else
# msg (newlines as "\n"); then "HOST|stats|ok|changed|failures|unreachable".
import json
import sys


def text(res):
    for key in ("stdout", "stderr", "msg"):
        if res.get(key):
            return str(res[key]).strip().replace("\n", "\\n")
    return ""


with open(sys.argv[1]) as f:
    run = json.load(f)
for play in run["plays"]:
    for task in play["tasks"]:
        for host, res in task["hosts"].items():
            if res.get("unreachable"):
                state = "unreachable"
            elif res.get("failed"):
                state = "failed"
            elif res.get("skipped"):
                state = "skipped"
            else:
                state = "ok"
            print("|".join([host, task["task"]["name"], state, str(res.get("rc", "")),
                            str(bool(res.get("changed"))).lower(), text(res)]))
for host, s in sorted(run["stats"].items()):
    print("|".join([host, "stats", str(s["ok"]), str(s["changed"]),
                    str(s["failures"]), str(s["unreachable"])]))
