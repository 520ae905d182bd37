#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""setup-effect.py - how much of a workload's spread across boots is its
setup's (METHOD.md, section 3).

usage: setup-effect.py [-w LIST] [--dear PCT] DIR

  DIR            a gate run's folder (gate.sh -o DIR): DIR/A and DIR/B hold
                 the boots of the two kernels, pair k sharing its setup
  -w LIST        the workloads (default: the primaries and spawn-N)
  --dear PCT     a boot this far above its side's median is "dear"
                 (default 0.6)

For each workload and side: the per-boot values (mean of the samples) as
deviations from the side's median, their 5th and 95th percentiles, how
many boots are dear and which (pad, boot); then what the setup explains:

  r(pad)     the correlation of a boot's deviation with its pad length
  eta2(pad)  the share of the variance between eighths of a page of pad
             (1 for a cost that only the pad's place in its page sets,
             about 8/n for none)
  r(A,B)     the correlation of boot Ak's and Bk's deviations over the
             pairs: both ran the same setup on two kernels, so this is
             the share the setup carries across kernels; what is left is
             each boot's own

A benchmark tool: it prints and asserts nothing.  Exit 2 on bad input.
"""

import argparse
import json
import os
import statistics
import sys


def die(msg):
    print("setup-effect: " + msg, file=sys.stderr)
    sys.exit(2)


def load(folder):
    """{boot: (pad, {workload: (role, mean)})} of the boot files in @folder."""
    boots = {}
    if not os.path.isdir(folder):
        die("%s: not a folder" % folder)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path) as f:
                run = json.load(f)
            tags = run["env"]["tags"]
            boot, pad = int(tags["boot"]), int(tags["pad_length"])
            vals = {}
            for w in run["workloads"]:
                s = [x["ns_per_op"] for x in w["samples"]]
                if s:
                    vals[w["name"]] = (w.get("role", "primary"), sum(s) / len(s))
        except (OSError, ValueError, KeyError, TypeError) as e:
            die("%s: not a boot of the gate (%s)" % (path, e))
        boots[boot] = (pad, vals)
    if not boots:
        die("%s: no boot files" % folder)
    return boots


def corr(x, y):
    if len(x) < 3:
        return float("nan")
    mx, my = statistics.fmean(x), statistics.fmean(y)
    sxy = sum((u - mx) * (v - my) for u, v in zip(x, y))
    sx = sum((u - mx) ** 2 for u in x) ** 0.5
    sy = sum((v - my) ** 2 for v in y) ** 0.5
    return sxy / (sx * sy) if sx and sy else float("nan")


def eta2(groups, values):
    """Share of the variance of @values between the @groups."""
    m = statistics.fmean(values)
    total = sum((v - m) ** 2 for v in values)
    by = {}
    for g, v in zip(groups, values):
        by.setdefault(g, []).append(v)
    between = sum(len(v) * (statistics.fmean(v) - m) ** 2 for v in by.values())
    return between / total if total else float("nan")


def deviations(boots, wl):
    """{boot: (pad, deviation in %)} of @wl on one side."""
    vals = {b: (pad, v[wl][1]) for b, (pad, v) in boots.items() if wl in v}
    if not vals:
        return {}
    med = statistics.median(m for _, m in vals.values())
    return {b: (pad, 100 * (m / med - 1)) for b, (pad, m) in vals.items()}


def main():
    p = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    p.add_argument("dir")
    p.add_argument("-w", "--workloads")
    p.add_argument("--dear", type=float, default=0.6)
    o = p.parse_args()
    sides = {s: load(os.path.join(o.dir, s)) for s in "AB"}
    if o.workloads:
        wls = o.workloads.split(",")
    else:
        any_boot = next(iter(sides["A"].values()))[1]
        wls = [w for w, (role, _) in any_boot.items() if role == "primary"]
        if "spawn-N" in any_boot and "spawn-N" not in wls:
            wls.append("spawn-N")
    for wl in wls:
        dev = {s: deviations(sides[s], wl) for s in "AB"}
        if not dev["A"] or not dev["B"]:
            die("no workload '%s' in the boots of both sides" % wl)
        print("%s:" % wl)
        for s in "AB":
            d = dev[s]
            v = sorted(x for _, x in d.values())
            n = len(v)
            dear = sorted((b, pad, x) for b, (pad, x) in d.items() if x >= o.dear)
            pads = [pad for pad, _ in d.values()]
            xs = [x for _, x in d.values()]
            print("  %s: %d boots, p5 %+.2f%% p95 %+.2f%%, dear (>= +%g%%): %d%s" %
                  (s, n, v[int(0.05 * (n - 1))], v[int(0.95 * (n - 1))], o.dear,
                   len(dear), "".join(" [pad %d boot %d %+.2f%%]" % (pad, b, x)
                                      for b, pad, x in dear[:6])))
            print("     r(pad) %+.2f  eta2(pad, eighths of a page) %.2f" %
                  (corr(pads, xs), eta2([(pad - 1) * 8 // 4096 for pad in pads], xs)))
        both = sorted(set(dev["A"]) & set(dev["B"]))
        print("  r(A,B) over %d pairs of the same setup: %+.2f" %
              (len(both), corr([dev["A"][b][1] for b in both],
                               [dev["B"][b][1] for b in both])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
