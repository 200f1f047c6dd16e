#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fail on ns-3 API uses that ns-3.35 (the last waf release) cannot build.

The module builds from the same sources against ns-3.35 (waf) and 3.37+
(CMake).  Two conveniences of newer releases break that, so this check
rejects them in every C++ file of the module (model/, helper/, examples/,
test/):

1. Simulator::Schedule / ScheduleNow / ScheduleWithContext / ScheduleDestroy
   given anything but a function pointer as the event: a lambda or a
   std::function needs ns-3.36.  Write `&Class::Method, object, args...` or
   `&Function, args...` (the `&` is required, so a std::function variable
   cannot slip through as a bare name), or pass an EventImpl object of the
   module's own, `new SomethingEvent(...)`, which every release takes.
2. An ns3::Callback built from a lambda (`Callback<...>([...]...)`,
   `Callback<...> cb = [...]`, `MakeCallback([...])`) needs ns-3.37.  Use
   MakeCallback / MakeBoundCallback with a function pointer.

Comments and string literals are ignored; calls spanning several lines are
read whole.  Prints one line per finding (file:line: what) and exits 1 when
there is any, 0 otherwise.  Usage: utils/check-ns3-compat.py [MODULE_DIR]
"""

import os
import re
import sys

SCANNED_DIRS = ("model", "helper", "examples", "test")

# The event argument's position in each Simulator call.
EVENT_ARGUMENT = {
    "Schedule": 1,
    "ScheduleNow": 0,
    "ScheduleWithContext": 2,
    "ScheduleDestroy": 0,
}

SCHEDULE = re.compile(r"\bSimulator\s*::\s*(ScheduleWithContext|ScheduleNow|ScheduleDestroy|Schedule)\s*\(")
CALLBACK_CALL = re.compile(r"\bCallback\s*<")
MAKE_CALLBACK = re.compile(r"\bMake(?:Bound)?Callback\s*\(\s*\[")


def strip_comments_and_strings(text):
    """Blank out comments and string/char literals, keeping offsets and newlines."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 1, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def split_arguments(text, start):
    """Top-level arguments of the call whose '(' is at text[start - 1]; (args, end)."""
    depth, i, arg_start, args = 0, start, start, []
    angle = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(text[arg_start:i].strip())
                return args, i
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[arg_start:i].strip())
            arg_start = i + 1
        i += 1
    return None, len(text)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_text(text):
    """Return [(line, message)] for one file's text (comments already stripped)."""
    problems = []
    for m in SCHEDULE.finditer(text):
        name = m.group(1)
        args, _ = split_arguments(text, m.end())
        if args is None:
            continue
        index = EVENT_ARGUMENT[name]
        if len(args) <= index:
            continue
        event = args[index]
        # An EventImpl object of the module's own (new SomeEvent(...)): ns-3.35
        # has Schedule(Time, Ptr<EventImpl>) and ScheduleWithContext(context,
        # Time, EventImpl*).
        if not event.startswith("&") and not re.match(r"new\s+\w+Event\s*\(", event):
            what = "a lambda" if event.startswith("[") else "'%s'" % " ".join(event.split())[:40]
            problems.append(
                (
                    line_of(text, m.start()),
                    "Simulator::%s gets %s as its event; ns-3.35 needs a function pointer "
                    "(&Class::Method or &Function)" % (name, what),
                )
            )
    for m in CALLBACK_CALL.finditer(text):
        # Skip the template arguments, then look at what follows.
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
        rest = text[i : i + 200]
        if re.match(r"\s*(\w+\s*)?(=\s*|\(\s*|\{\s*)\[", rest):
            problems.append(
                (
                    line_of(text, m.start()),
                    "ns3::Callback built from a lambda needs ns-3.37; use MakeCallback or "
                    "MakeBoundCallback with a function pointer",
                )
            )
    for m in MAKE_CALLBACK.finditer(text):
        problems.append(
            (
                line_of(text, m.start()),
                "MakeCallback of a lambda needs ns-3.37; pass a function pointer",
            )
        )
    return problems


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    module_dir = argv[1] if len(argv) > 1 else os.path.dirname(here)
    findings = []
    scanned = 0
    for sub in SCANNED_DIRS:
        for root, dirs, files in os.walk(os.path.join(module_dir, sub)):
            # test/data holds inputs (this check's own among them), not code.
            dirs[:] = [d for d in dirs if os.path.join(root, d) != os.path.join(module_dir, "test", "data")]
            for fn in sorted(files):
                if not fn.endswith((".cc", ".h")):
                    continue
                path = os.path.join(root, fn)
                with open(path, encoding="utf-8") as f:
                    text = strip_comments_and_strings(f.read())
                scanned += 1
                rel = os.path.relpath(path, module_dir)
                findings += [(rel, line, msg) for line, msg in check_text(text)]
    for rel, line, msg in sorted(findings):
        print("%s:%d: %s" % (rel, line, msg))
    if findings:
        print("check-ns3-compat: FAILED: %d uses of ns-3 APIs that ns-3.35 lacks" % len(findings))
        return 1
    print("check-ns3-compat: OK: %d C++ files use no ns-3.36+ event or callback API" % scanned)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
