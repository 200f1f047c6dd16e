#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the simulation programs with the bad flag values of a table.

Usage: bad-input.py TABLE BINDIR [TIMEOUT_S]

TABLE (test/bad-input/bad-flags.txt) has one case a line, split like a shell
line: PROGRAM FLAG VALUE [OTHER ARGUMENTS...].  Each case runs
`BINDIR/PROGRAM --FLAG=VALUE OTHER...` in an empty temporary directory and
passes when the program exits with code 2 (not by a signal, not after the
time limit) and writes exactly one non-empty line to stderr that names
--FLAG.  Prints one line per failed case and a summary; exits 1 if any case
failed, 77 (skipped) when a program of the table was not built.
"""

import os
import shlex
import subprocess
import sys
import tempfile


def read_table(path):
    cases = []
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table, 1):
            words = shlex.split(line, comments=True)
            if not words:
                continue
            if len(words) < 3:
                sys.exit(f"{path}:{number}: need PROGRAM FLAG VALUE, got {line.strip()!r}")
            cases.append((number, words[0], words[1], words[2], words[3:]))
    return cases


def run_case(bindir, case, timeout):
    number, program, flag, value, extra = case
    args = [os.path.join(bindir, program), f"--{flag}={value}"] + extra
    shown = " ".join(shlex.quote(a) for a in [program] + args[1:])
    with tempfile.TemporaryDirectory(prefix="tagger-bad-input-") as cwd:
        try:
            done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"line {number}: {shown}: no exit within {timeout} s"
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
    return f"line {number}: {shown}: {why}; stderr: {done.stderr.strip()[:400]!r}"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    table, bindir = sys.argv[1], os.path.abspath(sys.argv[2])
    timeout = float(sys.argv[3]) if len(sys.argv) == 4 else 60
    cases = read_table(table)
    missing = sorted({c[1] for c in cases if not os.path.exists(os.path.join(bindir, c[1]))})
    if missing:
        print(f"bad-input: not built: {', '.join(missing)}")
        return 77
    failures = [f for f in (run_case(bindir, c, timeout) for c in cases) if f]
    for failure in failures:
        print(f"FAIL {failure}")
    programs = len({c[1] for c in cases})
    print(f"bad-input: {len(cases) - len(failures)} of {len(cases)} cases passed "
          f"({programs} programs)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
