#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the programs with bad flag values: generated per flag kind, and from a table.

Usage: bad-input.py [--programs=A,B,...] [--timeout=S] [--jobs=N] TABLE BINDIR

Every program of --programs (default: those of TABLE) must print its flag
table with --PrintFlagTable (name, kind, bounds; tab-separated: the programs
read their flags with ns3::TaggerCommandLine or tagger-rules' RuleFlags).
Each flag then gets the bad values of its kind (GENERATORS below: zero,
negative, just out of range, huge, non-numeric, empty, unwritable or
unreadable paths, as they apply: a value that is valid for the flag, such as
--seed=0, is not generated).  TABLE (test/bad-input/bad-flags.txt) adds the
cases a kind cannot know: contradictory combinations, malformed lists and
names.  Its lines are split like a shell line: PROGRAM FLAG VALUE [OTHER...];
{here} stands for TABLE's directory (where its input files are).

Each case runs `BINDIR/PROGRAM --FLAG=VALUE OTHER...` in an empty temporary
directory and passes when the program exits with code 2 (not by a signal, not
after the time limit) and writes exactly one non-empty line to stderr that
names --FLAG.  The run also fails when a flag has no case at all (a text or
list flag needs a row in TABLE) or a row names a flag the program does not
have.  Prints one line per failure and a summary; exits 1 on any failure, 77
(skipped) when a program was not built.
"""

import argparse
import concurrent.futures
import os
import shlex
import subprocess
import sys
import tempfile

HUGE = "99999999999999999999"  # above every 64-bit integer


def integer_values(bounds):
    low, high = (int(b) for b in bounds)
    values = {str(low - 1), str(high + 1), HUGE, "-" + HUGE, "abc", "1.5", "", "0x10"}
    values |= {v for v in ("0", "-1") if not low <= int(v) <= high}
    return values


def double_values(bounds):
    low, high = (float(b) for b in bounds)
    values = {"nan", "inf", "-inf", "1e309", "abc", "", "1,5"}
    values |= {v for v in ("0", "-1", "1e300") if not low <= float(v) <= high}
    values.add(repr(high * 2 + 1))
    return values


def list_values(item_values):
    """A list flag's bad values: each bad item alone and after a good one, malformed lists."""
    def values(bounds):
        good = bounds[0]
        bad = {v for v in item_values(bounds) if v}
        return bad | {f"{good},{v}" for v in bad} | {",", f"{good},", f",{good}", f"{good},,{good}"}
    return values


# The bad values of each kind of flag.  Paths are absolute or relative to the
# empty directory a case runs in.
GENERATORS = {
    "integer": integer_values,
    "double": double_values,
    "ms": double_values,
    "integer-list": list_values(integer_values),
    "double-list": list_values(double_values),
    "rate": lambda b: {"0Gbps", "-1Gbps", "1e300Gbps", "fast", "40", "", "nanGbps"},
    "time": lambda b: {"-1us", "1e300s", "1parsec", "abc", "", "infs"},
    "choice": lambda b: {"bogus", "", b[0].split("|")[0].upper()},
    "bool": lambda b: {"2", "-1", "yes", "truee"},
    "count": lambda b: {"-1", "abc", "1.5", HUGE, ""},
    "input": lambda b: {"/nonexistent/x", ".", "/dev/null"},
    "output": lambda b: {"/nonexistent/x", ".", "/dev/full"},
    "output-prefix": lambda b: {"/nonexistent/x", "/proc/x"},
    "text": lambda b: set(),  # only the table knows
    "list": lambda b: set(),  # only the table knows
}


def read_table(path):
    here = os.path.dirname(os.path.abspath(path))
    cases = []
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table, 1):
            words = [w.replace("{here}", here) for w in shlex.split(line, comments=True)]
            if not words:
                continue
            if len(words) < 3:
                sys.exit(f"{path}:{number}: need PROGRAM FLAG VALUE, got {line.strip()!r}")
            cases.append((f"line {number}", words[0], words[1], words[2], words[3:]))
    return cases


def flag_table(bindir, program):
    """{flag: (kind, bounds)} from --PrintFlagTable, or a string saying why not."""
    try:
        done = subprocess.run([os.path.join(bindir, program), "--PrintFlagTable"],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "--PrintFlagTable did not exit within 60 s"
    flags = {}
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) < 2 or fields[1] not in GENERATORS:
            return f"--PrintFlagTable printed {line!r}, not NAME<TAB>KIND[<TAB>BOUNDS]"
        flags[fields[0]] = (fields[1], fields[2:])
    if done.returncode != 0 or not flags:
        return (f"--PrintFlagTable: exit {done.returncode}, {len(flags)} flags "
                "(read the flags with TaggerCommandLine)")
    return flags


def run_case(bindir, case, timeout):
    where, program, flag, value, extra = case
    args = [os.path.join(bindir, program), f"--{flag}={value}"] + extra
    shown = " ".join(shlex.quote(a) for a in [program] + args[1:])
    with tempfile.TemporaryDirectory(prefix="tagger-bad-input-") as cwd:
        try:
            done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"{where}: {shown}: no exit within {timeout} s"
    lines = [l for l in done.stderr.splitlines() if l.strip()]
    if done.returncode < 0 or done.returncode >= 128:
        why = f"killed by a signal (exit {done.returncode})"
    elif done.returncode != 2:
        why = f"exit code {done.returncode}, not 2"
    elif len(lines) != 1:
        why = f"{len(lines)} stderr lines, not 1"
    elif f"--{flag}" not in lines[0]:
        why = f"the stderr line does not name --{flag}"
    else:
        return None
    return f"{where}: {shown}: {why}; stderr: {done.stderr.strip()[:400]!r}"


def build_cases(bindir, programs, table_cases):
    """The generated and table cases, and the coverage failures."""
    cases, failures = [], []
    for program in programs:
        flags = flag_table(bindir, program)
        if isinstance(flags, str):
            failures.append(f"{program}: {flags}")
            continue
        rows = [c for c in table_cases if c[1] == program]
        for where, _, flag, _, _ in rows:
            # ns3::Class::Attribute: an attribute's default, as every program takes.
            if flag not in flags and not flag.startswith("ns3::"):
                failures.append(f"{where}: {program} has no flag --{flag}")
        for flag, (kind, bounds) in flags.items():
            generated = sorted(GENERATORS[kind](bounds))
            cases += [(f"{kind} flag", program, flag, v, []) for v in generated]
            if not generated and not any(c[2] == flag for c in rows):
                failures.append(f"{program} --{flag} ({kind}): no case; add rows to the table")
        cases += rows
    return cases, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table")
    parser.add_argument("bindir")
    parser.add_argument("--programs", help="comma-separated (default: the table's)")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    opts = parser.parse_args()
    bindir = os.path.abspath(opts.bindir)
    table_cases = read_table(opts.table)
    programs = (opts.programs.split(",") if opts.programs
                else sorted({c[1] for c in table_cases}))
    missing = [p for p in programs if not os.path.exists(os.path.join(bindir, p))]
    if missing:
        print(f"bad-input: not built: {', '.join(missing)}")
        return 77
    stray = sorted({c[1] for c in table_cases} - set(programs))
    cases, failures = build_cases(bindir, programs, table_cases)
    failures += [f"table: {p} is not one of the programs" for p in stray]
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        results = pool.map(lambda c: run_case(bindir, c, opts.timeout), cases)
        failures += [r for r in results if r]
    for failure in failures:
        print(f"FAIL {failure}")
    generated = sum(1 for c in cases if c[0].endswith(" flag"))
    print(f"bad-input: {len(cases)} cases ({generated} generated from the flag kinds, "
          f"{len(cases) - generated} from the table) over {len(programs)} programs; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
