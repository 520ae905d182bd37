#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fit-margins.py - the margins of the gate's controls and secondary
workloads, fitted to their own A/A spread (METHOD.md, section 6).

usage: fit-margins.py [options] DIR...

  DIR...              boots of ONE kernel (gate.sh -o DIR/A, or any folder
                      of boot JSON files): the A/A pool
  -n, --splits N      random splits per look (default 200)
  -l, --looks LIST    the gate's schedule, pairs at each look (default
                      16,32,80); a look needs twice its pairs in the pool
  -c, --candidate DIR boots of a second kernel with the same setups (the
                      B/ of the same gate run): also resample A against B,
                      pairs drawn by boot number, and say how often each
                      workload would have tripped with the fitted margins
  -s, --seed N        seed of the draws (default 1)
  -o, --output FILE   write the margins file here (default: standard output)
  --confidence PCT    the gate's confidence (default 90)
  -j, --jobs N        benchcmp runs at once (default: the CPUs); the draws
                      are made first, in order, so the result is the same

The procedure.  A split draws 2L distinct boots from the pool, L for
each side, and judges them with benchcmp as look i of the schedule (the
gate's clock and per-boot means).  Both sides are the same kernel, each
boot with its own setup, so nothing moved: every interval that ends
beyond 1 is the spread of the workload across setups, which a margin
must hold.  For each workload and split the margin it needs is

  control:    max(lo - 1, 1/hi - 1): a control trips (MOVED) when its
              interval lies wholly beyond the margin, either way;
  secondary:  hi - 1: a secondary PASSes only when its upper bound is
              within the margin (else INCONCLUSIVE, which makes the
              whole run INCONCLUSIVE).

A secondary's interval is taken at the level Holm's correction demands
of the last row of its family (alpha divided by the family's size), so
a margin that holds there holds after the correction; a control's at the
plain level, which trips more easily than the corrected one.  The fitted
margin is the largest need over every split of every look, rounded up
to 0.05%, and never below the role's default (gate.sh -m and -M).
Primary workloads keep the gate's margin: it is what the gate promises.

Prints the margins file (NAME PCT lines, with how they were fitted),
then on standard error a table per look: the largest need, how often the
role's default margin would have tripped; the A/A verdicts under the
fitted margins, with how often each primary's interval missed 1 against
how often its level expects (the check that intervals over boots of new
setups are right, setup effects and all); and with -c the A/B verdicts.
Exit 0, or 2 on bad input.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULTS = {"primary": 0.25, "secondary": 0.5, "control": 0.25}


def die(msg):
    print("fit-margins: " + msg, file=sys.stderr)
    sys.exit(2)


def benchcmp_path():
    top = os.environ.get("top_builddir", os.path.join(HERE, ".."))
    for d in (os.environ.get("BENCH_BINDIR"), os.path.join(top, "gate"), HERE):
        if d and os.access(os.path.join(d, "benchcmp"), os.X_OK):
            return os.path.join(d, "benchcmp")
    die("no benchcmp: build it first (make)")


def boots_in(dirs):
    """{(folder, boot number): path} of the boot JSON files in @dirs."""
    boots = {}
    for i, d in enumerate(dirs):
        if not os.path.isdir(d):
            die("%s: not a folder" % d)
        for name in sorted(os.listdir(d)):
            if not name.endswith(".json"):
                continue
            path = os.path.realpath(os.path.join(d, name))
            with open(path) as f:
                try:
                    run = json.load(f)
                except ValueError as e:
                    die("%s: %s" % (path, e))
            tags = run.get("env", {}).get("tags", {})
            key = (i, tags.get("boot", name))
            if key in boots:
                die("%s: boot %s is in %s twice" % (path, key[1], d))
            boots[key] = path
    return boots


def judge(bc, a, b, look, looks, confidence, margins=()):
    """benchcmp's rows and verdict for sides @a and @b (lists of files)."""
    cmd = [bc, "--json", "--clock", "instruction", "--per-boot", "mean",
           "--margin", str(DEFAULTS["primary"]),
           "--margin-secondary", str(DEFAULTS["secondary"]),
           "--confidence", repr(100 * confidence),
           "--look", str(look), "--looks", str(looks)]
    cmd += ["--margin-for=%s=%s" % m for m in margins]
    cmd += [",".join(a), ",".join(b)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=False).stdout
    try:
        res = json.loads(out)
    except ValueError:
        die("benchcmp gave no JSON for: " + " ".join(cmd[:14]))
    # benchcmp takes per cent and says what it used: a fraction passed by
    # mistake would give intervals at 0.9%, and margins fitted to nothing.
    if abs(res["settings"]["confidence"] - confidence) > 1e-9:
        die("benchcmp judged at confidence %g, not %g" %
            (res["settings"]["confidence"], confidence))
    return res


def bound(v):
    return math.inf if v is None else float(v)


def need_of(row):
    """The margin (a fraction) this row's interval needs to hold."""
    lo, hi = row["ci"] if row["ci"] else (None, None)
    lo, hi = bound(lo), bound(hi)
    if row["role"] == "control":
        if not (lo > 0 and math.isfinite(hi)):
            return math.inf
        return max(lo - 1, 1 / hi - 1, 0.0)
    return max(hi - 1, 0.0)


def roundup(pct, step=0.05):
    return math.ceil(pct / step - 1e-9) * step


def main():
    p = argparse.ArgumentParser(add_help=True, usage=__doc__.split("\n\n")[1])
    p.add_argument("dirs", nargs="+")
    p.add_argument("-n", "--splits", type=int, default=200)
    p.add_argument("-l", "--looks", default="16,32,80")
    p.add_argument("-c", "--candidate")
    p.add_argument("-s", "--seed", type=int, default=1)
    p.add_argument("-o", "--output")
    p.add_argument("--confidence", type=float, default=90)
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    o = p.parse_args()
    try:
        schedule = [int(x) for x in o.looks.split(",")]
    except ValueError:
        die("--looks: expected pair counts like 16,32,80, not '%s'" % o.looks)
    if not schedule or min(schedule) < 2 or o.splits < 1 or o.jobs < 1:
        die("--looks needs at least 2 pairs a look, --splits and --jobs at least 1")
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs)
    conf = o.confidence / 100
    bc = benchcmp_path()
    rng = random.Random(o.seed)
    pool = boots_in(o.dirs)
    files = list(pool.values())
    if len(files) < 2 * schedule[0]:
        die("%d boots in the pool: the first look (%d pairs) needs %d" %
            (len(files), schedule[0], 2 * schedule[0]))

    # Roles and family sizes, from one judgement of the whole pool.
    first = judge(bc, files[: len(files) // 2], files[len(files) // 2:], 1, 1, conf)
    roles = {r["workload"]: r["role"] for r in first["rows"]}
    family = {}
    for role in roles.values():
        family[role] = family.get(role, 0) + 1
    fitted_roles = [w for w, r in roles.items() if r in ("control", "secondary")]
    sec_conf = 1 - (1 - conf) / max(family.get("secondary", 1), 1)

    need = {w: 0.0 for w in fitted_roles}
    report = []
    looks = len(schedule)
    for i, pairs in enumerate(schedule, 1):
        if 2 * pairs > len(files):
            report.append((i, pairs, None))
            continue
        worst = {w: 0.0 for w in fitted_roles}
        tripped = {w: 0 for w in fitted_roles}
        splits = []
        for _ in range(o.splits):
            pick = rng.sample(files, 2 * pairs)
            splits.append((pick[:pairs], pick[pairs:]))
        jobs = [(a, b, c, role) for a, b in splits
                for c, role in ((conf, "control"), (sec_conf, "secondary"))]
        judged = ex.map(lambda j, i=i: judge(bc, j[0], j[1], i, looks, j[2]), jobs)
        for (a, b, c, role), res in zip(jobs, judged):
            for row in res["rows"]:
                w = row["workload"]
                if w not in worst or row["role"] != role:
                    continue
                n = need_of(row)
                worst[w] = max(worst[w], n)
                if n * 100 > DEFAULTS[row["role"]]:
                    tripped[w] += 1
        for w in fitted_roles:
            need[w] = max(need[w], worst[w])
        report.append((i, pairs, (worst, tripped)))

    unbounded = [w for w in fitted_roles if not math.isfinite(need[w])]
    if unbounded:
        die("no finite interval for %s at some look: too few boots a side "
            "(benchcmp needs 5); give larger looks" % ", ".join(unbounded))
    margins = []
    for w in fitted_roles:
        pct = max(DEFAULTS[roles[w]], roundup(100 * need[w]))
        margins.append((w, "%.2f" % pct))

    out = open(o.output, "w") if o.output else sys.stdout
    print("# Margins of the gate's non-primary workloads, fitted to their A/A spread", file=out)
    print("# by gate/fit-margins.py (METHOD.md, section 6): %d boots of one" % len(files), file=out)
    print("# kernel, %d splits at each look of %s pairs, confidence %g%%," %
          (o.splits, o.looks, o.confidence), file=out)
    print("# instruction clock, per-boot means.  NAME PERCENT", file=out)
    for w, pct in margins:
        print("%-12s %s" % (w, pct), file=out)
    if o.output:
        out.close()

    err = sys.stderr
    print("A/A: %d boots of one kernel, %d splits a look" % (len(files), o.splits), file=err)
    for i, pairs, res in report:
        if res is None:
            print("look %d (%d pairs): not resampled: the pool holds %d boots, %d needed" %
                  (i, pairs, len(files), 2 * pairs), file=err)
            continue
        worst, tripped = res
        print("look %d (%d pairs): workload, role, largest need, splits that the role's default margin would not hold" %
              (i, pairs), file=err)
        for w in fitted_roles:
            print("  %-12s %-9s %8.3f%%  %4d of %d" %
                  (w, roles[w], 100 * worst[w], tripped[w], o.splits), file=err)
    print("fitted: " + ", ".join("%s %s%%" % m for m in margins), file=err)

    # With the fitted margins: the overall verdicts of A/A splits and, with
    # -c, of A/B resamples (pairs by boot number), look by look.
    cand = boots_in([o.candidate]) if o.candidate else {}
    if cand and len(o.dirs) > 1:
        die("--candidate: give the baseline's boots as one folder, to pair them by boot number")
    paired = sorted(k for k in pool if k in cand)
    for kind in ("A/A", "A/B") if cand else ("A/A",):
        for i, pairs in enumerate(schedule, 1):
            have = len(files) // 2 if kind == "A/A" else len(paired)
            if pairs > have:
                continue
            verdicts, trips = {}, {w: 0 for w in fitted_roles}
            sides = []
            for _ in range(o.splits):
                if kind == "A/A":
                    pick = rng.sample(files, 2 * pairs)
                    sides.append((pick[:pairs], pick[pairs:]))
                else:
                    keys = rng.sample(paired, pairs)
                    sides.append(([pool[k] for k in keys], [cand[k] for k in keys]))
            # A/A only: how often a primary's interval missed the truth
            # (1), against how often its level says it should.
            missed, expect = {}, {}
            for res in ex.map(lambda ab, i=i: judge(bc, ab[0], ab[1], i, looks, conf, margins), sides):
                verdicts[res["verdict"]] = verdicts.get(res["verdict"], 0) + 1
                for row in res["rows"]:
                    if row["workload"] in trips and row["verdict"] in ("MOVED", "FAIL", "INCONCLUSIVE"):
                        trips[row["workload"]] += 1
                    if kind == "A/A" and row["role"] == "primary" and row["ci"]:
                        w = row["workload"]
                        lo, hi = bound(row["ci"][0]), bound(row["ci"][1])
                        missed[w] = missed.get(w, 0) + (lo > 1 or hi < 1)
                        expect[w] = expect.get(w, 0) + 1 - row.get("ci_coverage", conf)
            print("%s look %d (%d pairs), fitted margins, %d resamples: overall %s" %
                  (kind, i, pairs, o.splits,
                   ", ".join("%s %d" % v for v in sorted(verdicts.items()))), file=err)
            moved = ", ".join("%s %d" % (w, n) for w, n in trips.items() if n)
            print("  workloads not PASS/STEADY: %s" % (moved or "none"), file=err)
            if missed:
                print("  primary intervals that miss 1 (their level expects): %s" %
                      ", ".join("%s %d (%.1f)" % (w, missed[w], expect[w]) for w in missed),
                      file=err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
