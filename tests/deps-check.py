#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""deps-check.py: every program the project's scripts and Makefiles call is
installed by a group of tests/deps.sh, or belongs to the part of Debian that
every system has (its Essential and Priority: required packages).

A fresh machine once stopped `make check-kernel` at "rsync: not found": the
kernel's headers_install calls rsync, and nothing installed it.  This check
finds the programs:

- in shell scripts (and the Makefiles' recipes, turned back into shell), by
  parsing them with shfmt --to-json: the name of each simple command, also
  behind env/exec/command/timeout/nice/... and in `sh -c '...'` strings,
  and each name probed with `command -v NAME`;
- in the kernel build, from KBUILD_TOOLS below (kbuild's own recipes cannot
  be parsed; the list was taken from an execve trace of a build).

Each caller belongs to a group of deps.sh (FILE_GROUPS, TARGET_GROUPS:
make check's scripts to build and test, the kernel harness to kernel, ...).
A program must resolve on Debian's PATH for root to a file that dpkg says
comes from a package that deps.sh installs with each of its callers' groups
(by name, or as a direct dependency of one), or that is Essential or
Priority: required.  A program that is not installed fails when one of its
groups is installed here, and is skipped when none is: which package would
bring it, dpkg cannot say (CI installs every group, so nothing skips
there).  One TAP test per program.  tests/fresh-debian.sh runs this in a
brand-new Debian 12 after `sh tests/deps.sh build test kernel fuzz fresh`.

usage: deps-check.py [SRCDIR]   (SRCDIR: the source tree; by default
the one this script is in)
"""
import json
import os
import re
import shutil
import subprocess
import sys

# Programs kbuild (Linux 6.12, tests/kernel/config) runs for build-kernel.sh
# (a bzImage from a fresh cache) and for run.sh's headers_install and
# kselftest build: taken from `strace -f -e trace=execve` of those steps,
# the calls that succeeded, less the compiler's own helpers (cc1,
# collect2), the programs the tree builds for itself (fixdep, objtool,
# ...) and optional probes whose failure changes nothing (git for the
# version suffix, rustc, python3 -c "import lxml").  rsync is
# headers_install's.
KBUILD_TOOLS = """
    ar as awk basename bash bc bison cat cmp cp cut date diff dirname env
    expr find flex flock gcc getconf grep gzip head install ld ln ls m4 make
    mkdir mktemp mv nm objcopy patch pkg-config readelf readlink rm rmdir
    rsync sed sh sha1sum sha256sum sort stat tar touch tr uname uniq wc
    xargs xz
""".split()

# The deps.sh groups, and which one installs what each file's commands
# need (first match of a path prefix or name; the default is make check's:
# build and test, the groups `sh tests/deps.sh` installs).
GROUPS = ("build", "test", "kernel", "pkg", "fuzz", "fresh")
DEFAULT_GROUP = "test"
# Every use installs these too: `sh tests/deps.sh` is build and test, and
# the README and CI name them with any other group.
ALWAYS = {"build", "test"}
FILE_GROUPS = [
    ("tests/kernel/test-harness.sh", "test"),   # run by make check
    ("tests/kernel/", "kernel"),
    ("gate/gate.sh", "kernel"),
    # The README's "More tests", which want build test kernel.
    ("tests/bench/entry-latency.sh", "kernel"),
    ("gate/run-bench.sh", "kernel"),
    ("gate/resample.sh", "kernel"),
    ("tests/integration/mkpayload.sh", "kernel"),
    ("tests/fuzz/", "fuzz"),
    ("tests/fresh-debian.sh", "fresh"),
    ("tests/pkg/ci.sh", "pkg"),
]
# The same for Makefile recipes, by the rule's targets.
TARGET_GROUPS = [
    ("check-kernel", "kernel"),
    ("check-patch", "kernel"),
    ("check-gate", "kernel"),
    ("check-fork-regression", "kernel"),
    ("fuzz", "fuzz"),
    ("tests/fuzz/", "fuzz"),
]


def group_of(table, name):
    for prefix, group in table:
        if name.startswith(prefix):
            return group
    return DEFAULT_GROUP


# Programs accepted without deps.sh naming their package, and why.
REVIEWED = {
    "apt-get": "deps.sh's own installer: apt is on every Debian system "
               "that can install packages (debootstrap adds it too)",
}

# Commands the tree itself provides: the program under test (installed by
# tests/pkg/ci.sh from the packages it builds) and the bash completion
# function that 13-engines.t loads from completions/bash/hijack.
OF_THE_TREE = {
    "hijack": "the command this tree builds",
    "_hijack": "completions/bash/hijack's completion function",
}

# Scripts that run only inside the QEMU guest, under busybox: their
# commands are busybox applets or programs of the payload, not the host's.
GUEST_SCRIPTS = {"tests/kernel/init.sh", "tests/integration/run-in-vm.sh"}

# Wrappers whose first non-option word is itself a command, and how many
# words their options take (after the option itself).
WRAPPERS = {
    "env": {"-u": 1, "--unset": 1, "-C": 1, "-S": 1},
    "exec": {"-a": 1},
    "command": {},
    "builtin": {},
    "nohup": {},
    "setsid": {},
    "nice": {"-n": 1},
    "ionice": {"-c": 1, "-n": 1},
    "timeout": {"-s": 1, "-k": 1, "--signal": 1, "--kill-after": 1},
    "stdbuf": {"-i": 1, "-o": 1, "-e": 1},
    "taskset": {},
    "xargs": {"-n": 1, "-P": 1, "-I": 1, "-L": 1, "-d": 1, "-s": 1,
              "-E": 1},
    "time": {},
    "strace": {"-e": 1, "-o": 1, "-p": 1, "-s": 1},
    "unshare": {"--propagation": 1, "-S": 1, "--setuid": 1, "-G": 1,
                "--setgid": 1, "-R": 1, "--root": 1, "-w": 1, "--wd": 1},
}
# Wrappers that take one positional argument before the command.
POSITIONAL = {"timeout": 1, "taskset": 1, "chroot": 1}

# A make variable in a recipe's command position, and the program it names.
MAKE_PROGRAMS = {"SHELL": "sh", "MAKE": "make", "AWK": "awk", "CC": "gcc",
                 "FUZZ_CC": "clang", "MKDIR_P": "mkdir", "LIBTOOL": "libtool",
                 "SED": "sed", "GREP": "grep", "EGREP": "grep",
                 "INSTALL": "install", "LN_S": "ln"}


def shell_words():
    """Builtins and keywords of bash (a superset of sh's)."""
    out = subprocess.run(["bash", "-c", "compgen -b; compgen -k"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split()) | {"[[", "]]"}


def lit(word):
    """The text of a shell word made only of literal parts, else None."""
    text = ""
    for p in word.get("Parts", []):
        if p["Type"] == "Lit":
            text += p.get("Value", "")
        elif p["Type"] == "SglQuoted":
            text += p.get("Value", "")
        elif p["Type"] == "DblQuoted" and all(
                q["Type"] == "Lit" for q in p.get("Parts", [])):
            text += "".join(q.get("Value", "") for q in p.get("Parts", []))
        else:
            return None
    return text


def param(word):
    """(name, default word or None) of a word that is one parameter
    expansion, "$x", ${x} or ${x:-default}; else None."""
    parts = word.get("Parts", [])
    if len(parts) == 1 and parts[0]["Type"] == "DblQuoted":
        parts = parts[0].get("Parts", [])
    if len(parts) != 1 or parts[0]["Type"] != "ParamExp":
        return None
    pe = parts[0]
    exp = pe.get("Exp")
    if exp and exp.get("Word") is None:
        return None
    if any(pe.get(k) for k in ("Length", "Excl", "Index", "Slice", "Repl")):
        return None
    return pe["Param"]["Value"], exp["Word"] if exp else None


def names_of(word, values):
    """The program names a word in command position may be."""
    name = lit(word)
    if name is not None:
        return {name}
    pe = param(word)
    if not pe:
        return set()
    # "$qemu", set earlier to a name or to ${HIJACK_QEMU:-name}: the names
    # it may hold are programs called.
    var, default = pe
    names = set(values.get(var, ()))
    if default is not None and lit(default):
        names.add(lit(default))
    return names


def unwrap(args, values):
    """The words of a call, past wrappers, as (command, rest) pairs."""
    found = []
    i = 0
    while i < len(args):
        names = names_of(args[i], values)
        if len(names) != 1:
            found.extend((n, []) for n in sorted(names))
            return found
        name = names.pop()
        if name.startswith("-"):
            return found
        if name == "command" and i + 1 < len(args) and \
                lit(args[i + 1]) in ("-v", "-V"):
            # command -v NAME probes for NAME: it is called when found.
            if i + 2 < len(args):
                found.extend((n, []) for n in names_of(args[i + 2], values))
            return found
        found.append((name, args[i + 1:]))
        base = os.path.basename(name)
        if base not in WRAPPERS and base not in POSITIONAL:
            return found
        opts = WRAPPERS.get(base, {})
        i += 1
        while i < len(args):
            w = lit(args[i])
            if w is None:
                break
            if base == "env" and "=" in w and not w.startswith("-"):
                i += 1
            elif w == "--":
                i += 1
                break
            elif w.startswith("-"):
                i += 1 + opts.get(w, 0)
            else:
                break
        i += POSITIONAL.get(base, 0)
    return found


def shfmt(text, lang):
    r = subprocess.run(["shfmt", "-ln", lang, "--to-json"], input=text,
                       capture_output=True, text=True)
    if r.returncode:
        raise ValueError(r.stderr.strip().splitlines()[0])
    return json.loads(r.stdout)


def calls(text, lang, funcs, depth=0):
    """(command, line) for every simple command of a shell text."""
    out = []
    values = {}

    def assigns(n):
        """var -> the literal names assigned to it, directly or as the
        default of a parameter expansion."""
        if isinstance(n, list):
            for v in n:
                assigns(v)
            return
        if not isinstance(n, dict):
            return
        for a in n.get("Assigns") or []:
            if a.get("Value") is None:
                continue
            v = lit(a["Value"])
            pe = param(a["Value"]) if v is None else None
            if pe and pe[1] is not None:
                v = lit(pe[1])
            if v:
                values.setdefault(a["Name"]["Value"], set()).add(v)
        for k, v in n.items():
            if k not in ("Pos", "End"):
                assigns(v)

    def walk(n):
        if isinstance(n, list):
            for v in n:
                walk(v)
            return
        if not isinstance(n, dict):
            return
        if n.get("Type") == "FuncDecl":
            funcs.add(n["Name"]["Value"])
        if n.get("Type") == "CallExpr" and n.get("Args"):
            line = n["Pos"]["Line"]
            for name, rest in unwrap(n["Args"], values):
                out.append((name, line))
                # sh -c 'text': the text is a script of its own.
                base = os.path.basename(name)
                if base in ("sh", "bash", "dash") and len(rest) >= 2 and \
                        lit(rest[0]) == "-c" and depth < 3:
                    inner = lit(rest[1])
                    if inner is not None:
                        try:
                            out.extend((c, line) for c, _ in calls(
                                inner, "bash", funcs, depth + 1))
                        except ValueError:
                            pass
        for k, v in n.items():
            if k not in ("Pos", "End"):
                walk(v)

    tree = shfmt(text, lang)
    assigns(tree)
    walk(tree)
    return out


def make_recipes(path):
    """The recipes of a Makefile(.am) as shell text, make variables defined
    in it expanded, with the line each starts on."""
    lines = open(path).read().split("\n")
    variables = {}
    recipes = []
    in_rule = False
    targets = ""
    i = 0
    while i < len(lines):
        start = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].lstrip("\t")
        i += 1
        if line.startswith("\t") and in_rule:
            recipes.append((line[1:].lstrip("@-"), start + 1, targets))
            continue
        if not line.strip() or line.startswith("#"):
            continue        # neither ends a recipe, in make
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*([+:]?)=\s*(.*)$", line)
        if m:
            in_rule = False
            name, op, value = m.groups()
            if op == "+":
                value = variables.get(name, "") + " " + value
            variables[name] = value
            continue
        in_rule = bool(re.match(r"^[^\t=]*:([^=]|$)", line))
        if in_rule:
            targets = line.split(":", 1)[0].strip()

    def expand(text, depth=0):
        def one(m):
            name = m.group(1) or m.group(2)
            if name in MAKE_PROGRAMS:
                return MAKE_PROGRAMS[name]
            if name in variables and depth < 8:
                return expand(variables[name], depth + 1)
            return "${MAKEVAR_%s}" % re.sub(r"\W", "_", name)
        text = re.sub(r"\$\(([^()$]+)\)|\$\{([^{}$]+)\}", one, text)
        return text.replace("$$", "$")

    return [(expand(r), n, expand(t)) for r, n, t in recipes]


def aliases(path):
    """path, the file it resolves to, and their usrmerge twins."""
    cands = [path, os.path.realpath(path)]
    for p in list(cands):
        cands.append(p[4:] if p.startswith("/usr/") else "/usr" + p)
    return cands


def dpkg_owners(paths):
    """path -> the package that installed it, for those dpkg knows; one
    dpkg-query for all (each reads every file list)."""
    r = subprocess.run(["dpkg-query", "-S"] + sorted(set(paths)),
                       capture_output=True, text=True)
    owners = {}
    for line in r.stdout.splitlines():
        pkgs, _, owned = line.partition(": ")
        if not pkgs.startswith("diversion"):
            owners.setdefault(owned, pkgs.split(",")[0].split(":")[0].strip())
    return owners


def main():
    args = sys.argv[1:]
    src = args[0] if args else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    if not shutil.which("shfmt") or not shutil.which("dpkg-query"):
        print("1..0 # SKIP needs shfmt (deps.sh test) and dpkg-query")
        return 77

    # The packages of each group, and what apt brings with them: a
    # listed package's Depends and Pre-Depends (one level is enough here:
    # python3 brings python3-minimal's /usr/bin/python3).
    groups = {}
    for g in GROUPS:
        groups[g] = subprocess.run(["sh", os.path.join(src, "tests/deps.sh"),
                                    "--list", g], capture_output=True,
                                   text=True, check=True).stdout.split()
    status = {}
    pulled = {}
    out = subprocess.run(["dpkg-query", "-W", "-f",
                          "${Package}\t${db:Status-Abbrev}\t${Depends}, "
                          "${Pre-Depends}\n"] +
                         sorted({p for g in groups.values() for p in g}),
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        pkg, st, deps = line.split("\t")
        status[pkg] = st.startswith("ii")
        for alt in deps.split(","):
            for dep in alt.split("|"):
                dep = dep.strip().split(" ")[0].split(":")[0]
                if dep:
                    pulled.setdefault(dep, set()).add(pkg)
    # A group added to deps.sh must be added to GROUPS (and its callers
    # to FILE_GROUPS or TARGET_GROUPS), or its packages count for nothing.
    every = subprocess.run(["sh", os.path.join(src, "tests/deps.sh"),
                            "--list", "all"], capture_output=True,
                           text=True, check=True).stdout.split()
    unknown = sorted(set(every) - {p for g in groups.values() for p in g})
    # A group is here when all its packages are: then all its programs
    # must be too.
    here = {g for g, pkgs in groups.items()
            if all(status.get(p) for p in pkgs)}
    base = {}
    out = subprocess.run(["dpkg-query", "-W", "-f",
                          "${Package} ${Essential} ${Priority}\\n"],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and (f[1] == "yes" or f[2] == "required"):
            base[f[0]] = "Essential" if f[1] == "yes" else "required"

    # Which files are scripts: by name, and by a shell #! line.  The
    # generated ones (configure, libtool, config.guess, ...) are autotools'
    # business and call far more than a Debian build ever runs.
    scripts = []
    candidates = ["autogen.sh", "build-aux/tap-driver.sh"]
    for d in (".ci", "tests", "gate"):
        for top, dirs, files in os.walk(os.path.join(src, d)):
            dirs[:] = sorted(x for x in dirs if x not in ("corpus", "findings"))
            candidates += [os.path.relpath(os.path.join(top, f), src)
                           for f in sorted(files)]
    for rel in candidates:
        p = os.path.join(src, rel)
        if not os.path.isfile(p) or rel in GUEST_SCRIPTS:
            continue
        head = open(p, "rb").read(512)
        if b"Generated by " in head and b"libtool" in head:
            continue    # libtool's wrapper of a program built in the tree
        m = re.match(rb"#!\s*(\S+)(?:\s+(\S+))?", head)
        interp = m and os.path.basename(
            (m.group(2) if m.group(1).endswith(b"/env") else m.group(1))
            or b"").decode()
        if interp in ("sh", "bash", "dash") or \
                (rel.endswith((".sh", ".t")) and not m):
            scripts.append((rel, "bash" if interp == "bash" else "posix"))

    funcs = set()
    found = {}          # command -> [where]
    needs = {}          # command -> the deps.sh groups of its callers
    problems = []
    texts = [(rel, open(os.path.join(src, rel)).read(), lang,
              group_of(FILE_GROUPS, rel)) for rel, lang in scripts]
    for mk in ("Makefile.am", "gate/Makemodule.am", "tests/bench/Makemodule.am"):
        if os.path.exists(os.path.join(src, mk)):
            for text, line, targets in make_recipes(os.path.join(src, mk)):
                texts.append(("%s:%d" % (mk, line), text, "bash",
                              group_of(TARGET_GROUPS, targets)))
    for where, text, lang, group in texts:
        try:
            got = calls(text, lang, funcs)
        except ValueError as e:
            problems.append("%s: shfmt cannot parse it: %s" % (where, e))
            continue
        for name, line in got:
            loc = where if ":" in where else "%s:%d" % (where, line)
            found.setdefault(name, []).append(loc)
            needs.setdefault(name, set()).add(group)
    for name in KBUILD_TOOLS:
        found.setdefault(name, []).append("the kernel build (KBUILD_TOOLS)")
        needs.setdefault(name, set()).add("kernel")

    skip = shell_words() | funcs | set(OF_THE_TREE)
    # Debian's PATH for root: what a fresh machine has, whatever this
    # shell's PATH adds (a private python3 would hide a missing package).
    path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    results = []
    exes = {}
    for name in sorted(found):
        where = found[name]
        if name in skip or name.startswith(("./", "../")) or \
                "$" in name or not re.match(r"^[\w./+-]+$", name):
            continue
        if "/" in name and not name.startswith("/"):
            continue        # a program of the tree, built or shipped
        exe = name if name.startswith("/") else shutil.which(name, path=path)
        if exe and exe.startswith("/usr/local/"):
            # A local install shadows the package's copy (this image ships
            # a docker client there): what deps.sh installs is the
            # package's, so judge that one.
            exe = shutil.which(name, path=path.replace(
                "/usr/local/sbin:/usr/local/bin:", "")) or exe
        want = needs[name]
        if exe and os.access(exe, os.X_OK):
            exes[name] = exe
        elif want & here:
            results.append((name, False, "%s: not installed, although "
                            "deps.sh %s is (called by %s)"
                            % (name, "/".join(sorted(want & here)),
                               where[0])))
        else:
            # Which package would bring it, dpkg cannot say until one
            # does: checked where that group is installed (CI installs
            # them all).
            results.append((name, True, "%s # SKIP only for deps.sh %s, "
                            "not installed here" % (name,
                                                    "/".join(sorted(want)))))
    owners = dpkg_owners(p for e in exes.values() for p in aliases(e))
    for name, exe in exes.items():
        pkg = next((owners[p] for p in aliases(exe) if p in owners), None)
        # Installed with every group of its callers: a program that make
        # check runs must not rely on what only the kernel group installs.
        def covers(g):
            mine = {p for h in {g} | ALWAYS for p in groups[h]}
            return pkg in mine or bool(pulled.get(pkg, set()) & mine)
        lacking = sorted(g for g in needs[name] if not covers(g))
        if name in REVIEWED:
            why = REVIEWED[name]
        elif pkg in base:
            why = "%s is %s" % (pkg, base[pkg])
        elif not lacking:
            by = [g for g in GROUPS if pkg in groups[g]]
            why = ("deps.sh %s installs %s" % ("/".join(by), pkg) if by else
                   "deps.sh installs %s, which needs %s"
                   % (sorted(pulled[pkg])[0], pkg))
        else:
            results.append((name, False, "%s: %s comes from %s, which "
                            "deps.sh %s does not install (called by %s)"
                            % (name, exe, pkg or "no package",
                               "/".join(lacking), found[name][0])))
            continue
        results.append((name, True, "%s: %s" % (name, why)))
    results = [r[1:] for r in sorted(results)]
    results.append((not unknown, "deps.sh has no group unknown here" +
                    (": %s belong to none of %s" % (" ".join(unknown),
                                                     " ".join(GROUPS))
                     if unknown else "")))
    print("1..%d" % (len(results) + 1))
    n = 0
    for ok, text in results:
        n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
    n += 1
    if problems:
        print("not ok %d - every script parses" % n)
        for p in problems:
            print("# " + p)
    else:
        print("ok %d - every script parses (%d scripts, %d recipes)"
              % (n, len(scripts), len(texts) - len(scripts)))
    return 0 if all(ok for ok, _ in results) and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
