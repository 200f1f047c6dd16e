#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fail on ns-3 API uses that one of the supported ns-3 releases cannot build.

The module builds from the same sources against ns-3.35 (waf), 3.37 (CMake,
Debian's packages and a tree) and 3.48 (CMake tree).  This check rejects, in
every C++ file of the module (model/, helper/, examples/, test/), the APIs
that one of them lacks, each with the form that works in all three:

1. Simulator::Schedule / ScheduleNow / ScheduleWithContext / ScheduleDestroy
   given anything but a function pointer as the event: a lambda or a
   std::function needs ns-3.36.  Write `&Class::Method, object, args...` or
   `&Function, args...` (the `&` is required, so a std::function variable
   cannot slip through as a bare name), or pass an EventImpl object of the
   module's own, `new SomethingEvent(...)`, which every release takes.
2. An ns3::Callback built from a lambda (`Callback<...>([...]...)`,
   `Callback<...> cb = [...]`, `MakeCallback([...])`) needs ns-3.37.  Use
   MakeCallback / MakeBoundCallback with a function pointer.
3. The APIs that ns-3.41 to 3.48 removed or changed (RELEASE_RULES below):
   EventId::IsRunning (gone; IsPending is 3.42+): !IsExpired();
   MakeEnumAccessor and EnumValue (templates since 3.41):
   MakeTaggerEnumAccessor and TaggerEnumValue<T>;
   TestSuite's UNIT... (Type::UNIT since 3.42): Type::UNIT, which 3.35
   takes too; TestCase::QUICK / TestDuration (Duration since 3.42):
   AddTestCase's default duration; InetSocketAddress::SetTos (gone in 3.42)
   and the applications' "Tos" attribute (3.42+): Socket::SetIpTos after
   Connect, SetApplicationTos for an application helper; Ipv4Mask built
   from a number (3.48 aborts on a mask that is not contiguous): check the
   mask first, print it through Ipv4Address.
4. An ns-3 version test (TAGGER_NS3_VERSION, NS3_VERSION): only the one
   compatibility header, model/pfc/tagger-ns3-release-compat.h, selects by
   release; no call site does.

Comments and string literals are ignored; calls spanning several lines are
read whole.  Prints one line per finding (file:line: what) and exits 1 when
there is any, 0 otherwise.  Usage: utils/check-ns3-compat.py [MODULE_DIR]
"""

import os
import re
import sys

SCANNED_DIRS = ("model", "helper", "examples", "test")

# The one file that may name the APIs of rule 3 and test the release (rule 4).
COMPAT_HEADER = "tagger-ns3-release-compat.h"

SET_TOS = (
    "InetSocketAddress::SetTos is gone since ns-3.42; call Socket::SetIpTos after Connect "
    "(or SetApplicationTos for an application helper)"
)

# Rule 3: (pattern on the code without comments and strings, message).
RELEASE_RULES = [
    (
        re.compile(r"\.\s*IsRunning\s*\("),
        "EventId::IsRunning is gone since ns-3.42 (deprecated there); write !IsExpired()",
    ),
    (
        re.compile(r"\.\s*IsPending\s*\("),
        "EventId::IsPending needs ns-3.42; write !IsExpired()",
    ),
    (
        re.compile(r"\bMakeEnumAccessor\s*[<(]"),
        "MakeEnumAccessor takes the enum type as a template argument since ns-3.41; write "
        "MakeTaggerEnumAccessor(&Class::m_member) (tagger-ns3-release-compat.h)",
    ),
    (
        re.compile(r"\bEnumValue\b(?!\s*\()"),
        "EnumValue is a class template since ns-3.41 (EnumValue<T>); write TaggerEnumValue<T> "
        "(tagger-ns3-release-compat.h); EnumValue(x) as an initial value works everywhere",
    ),
    (
        re.compile(r"\bTestSuite\s*::\s*(ALL|UNIT|SYSTEM|EXAMPLE|PERFORMANCE)\b"),
        "TestSuite's ALL, UNIT, ... are Type::ALL, Type::UNIT, ... since ns-3.42; write "
        "Type::UNIT, which ns-3.35 and 3.37 take too",
    ),
    (
        re.compile(r"\bTestSuite\s*\(\s*\"[^\"]*\"\s*,\s*(ALL|UNIT|SYSTEM|EXAMPLE|PERFORMANCE)\s*\)"),
        "TestSuite's ALL, UNIT, ... are Type::ALL, Type::UNIT, ... since ns-3.42; write "
        "Type::UNIT, which ns-3.35 and 3.37 take too",
    ),
    (
        re.compile(
            r"\b(TestCase\s*::\s*(QUICK|EXTENSIVE|TAKES_FOREVER)|TestDuration|"
            r"Duration\s*::\s*(QUICK|EXTENSIVE|TAKES_FOREVER))\b"
        ),
        "TestCase::QUICK (TestDuration) became TestCase::Duration::QUICK in ns-3.42 and no "
        "form works in every release; leave AddTestCase's duration at its default (QUICK)",
    ),
    (
        re.compile(r"\bInetSocketAddress\s*\([^;]*?\)\s*\.\s*SetTos\s*\("),
        SET_TOS,
    ),
    (
        re.compile(r"\bIpv4Mask\s*(\w+\s*)?[({]\s*[^\s\")}]"),
        "Ipv4Mask built from a number aborts on a mask that is not contiguous since ns-3.48; "
        "build it from a checked value, print a doubtful one through Ipv4Address",
    ),
]
# Rule 3 on the code with its strings: the applications' "Tos" attribute.
APPLICATION_TOS = re.compile(r"\bSetAttribute\s*\(\s*\"Tos\"")
# Rule 3, per variable: v.SetTos(...) where v is declared an InetSocketAddress.
INET_SOCKET_ADDRESS_VARIABLE = re.compile(r"\bInetSocketAddress\s+(\w+)\s*[({=;]")
# Rule 4.
VERSION_TEST = re.compile(r"\b(TAGGER_NS3_VERSION|NS3_VERSION\w*)\b")

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


def strip_comments_and_strings(text, keep_strings=False):
    """Blank out comments and (unless keep_strings) string/char literals, keeping offsets
    and newlines."""
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
            if not keep_strings:
                blank(i + 1, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if not keep_strings:
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


def check_release_apis(text, with_strings):
    """Rules 3 and 4: [(line, message)] for one file's code without comments and strings
    (\p text) and with its strings (\p with_strings)."""
    problems = []
    for pattern, message in RELEASE_RULES:
        for m in pattern.finditer(text):
            problems.append((line_of(text, m.start()), message))
    for m in APPLICATION_TOS.finditer(with_strings):
        problems.append(
            (
                line_of(with_strings, m.start()),
                'the applications\' "Tos" attribute needs ns-3.42 (before, the remote '
                "InetSocketAddress carried it); write SetApplicationTos(helper, remote, tos)",
            )
        )
    for name in set(INET_SOCKET_ADDRESS_VARIABLE.findall(text)):
        for m in re.finditer(r"\b%s\s*\.\s*SetTos\s*\(" % re.escape(name), text):
            problems.append((line_of(text, m.start()), SET_TOS))
    for m in VERSION_TEST.finditer(text):
        problems.append(
            (
                line_of(text, m.start()),
                "an ns-3 version test outside %s: use (or add) a bridge there" % COMPAT_HEADER,
            )
        )
    return problems


def check_text(text):
    """Rules 1 and 2: [(line, message)] for one file's code without comments and strings."""
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
                    raw = f.read()
                text = strip_comments_and_strings(raw)
                scanned += 1
                rel = os.path.relpath(path, module_dir)
                findings += [(rel, line, msg) for line, msg in check_text(text)]
                if fn != COMPAT_HEADER:
                    with_strings = strip_comments_and_strings(raw, keep_strings=True)
                    findings += [
                        (rel, line, msg) for line, msg in check_release_apis(text, with_strings)
                    ]
    for rel, line, msg in sorted(findings):
        print("%s:%d: %s" % (rel, line, msg))
    if findings:
        print(
            "check-ns3-compat: FAILED: %d uses of ns-3 APIs that ns-3.35, 3.37 or 3.48 lacks"
            % len(findings)
        )
        return 1
    print(
        "check-ns3-compat: OK: %d C++ files use only ns-3 APIs that 3.35, 3.37 and 3.48 share"
        % scanned
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
