#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the CMake and waf builds of the tagger module list the same files.

CMakeLists.txt         set(tagger_rules_sources ...), set(tagger_rules_headers ...),
                       set(tagger_sources ...), set(tagger_headers ...),
                       set(tagger_test_sources ...)
examples/CMakeLists.txt build_lib_example(NAME ... SOURCE_FILES ...)
wscript                bld(features='cxx ...').source (the rule library),
                       create_ns3_module(...).source, bld(features='ns3header').source
                       (module and rule library headers),
                       create_ns3_module_test_library(...).source,
                       MPI_SOURCES, MPI_HEADERS, MPI_TESTS (tagger_mpi_sources,
                       tagger_mpi_headers, tagger_mpi_test_sources: built only when
                       ns-3 has its mpi module)
examples/wscript       create_ns3_program(name, ...).source

The test lists hold the ns-3 tests only.  GoogleTest files are built by the
standalone CMake build alone and are never listed: the rule library's tests,
test/rules/*-test.cc, which must not include ns-3 headers (nor may the headers
of test/rules/ they share with the ns-3 suite there).  A listed test source must
not use GoogleTest.  Headers under test/ are included by the test sources and
not listed either, nor are the libFuzzer targets of test/fuzz/ (built by
-DTAGGER_FUZZ=ON alone, see utils/run-fuzzers.sh).

Exits 1 and prints what differs (and listed files that do not exist) when the
lists disagree, 0 otherwise.  Files on disk that neither build lists are
reported as warnings.  Usage: utils/check-build-lists.py [MODULE_DIR]
"""

import ast
import fnmatch
import os
import re
import sys

CMAKE_LISTS = {
    "rules": "tagger_rules_sources",
    "rules_headers": "tagger_rules_headers",
    "sources": "tagger_sources",
    "headers": "tagger_headers",
    "tests": "tagger_test_sources",
    "mpi_sources": "tagger_mpi_sources",
    "mpi_headers": "tagger_mpi_headers",
    "mpi_tests": "tagger_mpi_test_sources",
}
# The MPI-only lists of wscript: top-level literal lists (used when ns-3 has MPI).
WAF_MPI_LISTS = {
    "mpi_sources": "MPI_SOURCES",
    "mpi_headers": "MPI_HEADERS",
    "mpi_tests": "MPI_TESTS",
}

# Standalone-only files: not part of the ns-3 module, so not in the lists.
STANDALONE_ONLY = {"test/tagger-test-runner.cc"}
# GoogleTest files (standalone only): the rule library's tests.
GTEST_RULES = "test/rules/*-test.cc"
# Test headers: included by the test sources, not listed.
TEST_HEADERS = "test/*.h"
# libFuzzer targets (-DTAGGER_FUZZ=ON, utils/run-fuzzers.sh): neither build lists them.
FUZZ_TARGETS = "test/fuzz/*"
# A user's own project, built against the installed module (test/scripts/user-project.sh)
# and as a scratch program in an ns-3 tree (utils/check-in-tree.sh): not the module's.
USER_PROJECT = "test/user-project/*"

GTEST_INCLUDE = re.compile(r'\s*#\s*include\s*[<"]gtest/')
NS3_INCLUDE = re.compile(r'\s*#\s*include\s*[<"]ns3/')


def is_gtest_file(rel):
    """Whether rel (a path relative to the module) is a GoogleTest file."""
    return fnmatch.fnmatch(rel, GTEST_RULES)


def is_standalone_only(rel):
    """Whether rel is built by the standalone build only, or not built by itself."""
    return (
        rel in STANDALONE_ONLY
        or is_gtest_file(rel)
        or fnmatch.fnmatch(rel, TEST_HEADERS)
        or fnmatch.fnmatch(rel, FUZZ_TARGETS)
        or fnmatch.fnmatch(rel, USER_PROJECT)
    )


class ListError(Exception):
    pass


# ---------------------------------------------------------------------------
# CMake
# ---------------------------------------------------------------------------
def _strip_cmake_comments(text):
    out = []
    for line in text.splitlines():
        in_quote = False
        cut = len(line)
        for i, ch in enumerate(line):
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                in_quote = not in_quote
            elif ch == "#" and not in_quote:
                cut = i
                break
        out.append(line[:cut])
    return "\n".join(out)


BRACKET_OPEN = re.compile(r"\[(=*)\[")


def cmake_commands(path):
    """Yield (command name lowercased, [arguments], line) for every command call."""
    with open(path, encoding="utf-8") as f:
        text = _strip_cmake_comments(f.read())
    pos = 0
    call = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
    while True:
        m = call.search(text, pos)
        if not m:
            return
        depth = 1
        i = m.end()
        while i < len(text) and depth:
            bracket = BRACKET_OPEN.match(text, i)
            if text[i] == '"':
                # A quoted argument: its parentheses do not count.
                i += 1
                while i < len(text) and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
            elif bracket:
                # A bracket argument, [=[ ... ]=]: nor do its parentheses.
                close = text.find("]" + bracket.group(1) + "]", bracket.end())
                i = len(text) - 1 if close < 0 else close + len(bracket.group(0)) - 1
            elif text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
            i += 1
        if depth:
            raise ListError("%s: unbalanced parentheses after %s(" % (path, m.group(1)))
        body = text[m.end() : i - 1]
        args = [a.strip('"') for a in re.findall(r'"[^"]*"|[^\s()]+', body)]
        line = text.count("\n", 0, m.start()) + 1
        yield m.group(1).lower(), args, line
        pos = m.end()


def read_cmake(module_dir):
    path = os.path.join(module_dir, "CMakeLists.txt")
    found = {}
    for name, args, line in cmake_commands(path):
        if name == "set" and args and args[0] in CMAKE_LISTS.values():
            if args[0] in found:
                raise ListError("%s:%d: %s is set twice" % (path, line, args[0]))
            found[args[0]] = args[1:]
    lists = {}
    for kind, var in CMAKE_LISTS.items():
        if var not in found:
            raise ListError("%s: no set(%s ...)" % (path, var))
        lists[kind] = found[var]

    ex_path = os.path.join(module_dir, "examples", "CMakeLists.txt")
    examples = {}
    if os.path.exists(ex_path):
        for name, args, line in cmake_commands(ex_path):
            if name != "build_lib_example":
                continue
            keys = {"NAME", "SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK", "IGNORE_PCH"}
            current, parsed = None, {}
            for a in args:
                if a in keys:
                    current = a
                    parsed.setdefault(a, [])
                elif current:
                    parsed[current].append(a)
            if not parsed.get("NAME"):
                raise ListError("%s:%d: build_lib_example without NAME" % (ex_path, line))
            examples[parsed["NAME"][0]] = ["examples/" + s for s in parsed.get("SOURCE_FILES", [])]
    lists["examples"] = examples
    return lists


# ---------------------------------------------------------------------------
# waf
# ---------------------------------------------------------------------------
def _literal_list(node, path):
    try:
        value = ast.literal_eval(node)
    except ValueError:
        raise ListError("%s:%d: expected a literal list of file names" % (path, node.lineno))
    if isinstance(value, str):
        return value.split()
    return list(value)


def _waf_objects(path):
    """Map variable -> (kind, name) for bld.create_ns3_*(...) / bld(features=...)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    objects, sources = {}, {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and isinstance(value, ast.Call):
            func = value.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = None
            if value.args and isinstance(value.args[0], ast.Constant):
                first = value.args[0].value
            if fname in ("create_ns3_module", "create_ns3_module_test_library", "create_ns3_program"):
                objects[target.id] = (fname, first)
            elif fname == "bld":
                for kw in value.keywords:
                    if kw.arg != "features":
                        continue
                    # features may be computed ('cxx ' + kind): read its strings.
                    words = " ".join(
                        n.value
                        for n in ast.walk(kw.value)
                        if isinstance(n, ast.Constant) and isinstance(n.value, str)
                    ).split()
                    if "ns3header" in words:
                        objects[target.id] = ("ns3header", None)
                    elif "cxx" in words:
                        objects[target.id] = ("cxxshlib", None)
        elif (
            isinstance(target, ast.Attribute)
            and target.attr == "source"
            and isinstance(target.value, ast.Name)
        ):
            if isinstance(value, ast.Name):
                continue  # a top-level list (MPI_TESTS), checked by name
            sources[target.value.id] = _literal_list(value, path)
    return objects, sources


def read_waf(module_dir):
    path = os.path.join(module_dir, "wscript")
    objects, sources = _waf_objects(path)
    lists = {}
    wanted = {
        "rules": "cxxshlib",
        "sources": "create_ns3_module",
        "headers": "ns3header",
        "tests": "create_ns3_module_test_library",
    }
    with open(path, encoding="utf-8") as f:
        top = {
            n.targets[0].id: n.value
            for n in ast.parse(f.read(), path).body
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
        }
    for kind, name in WAF_MPI_LISTS.items():
        if name not in top:
            raise ListError("%s: no top-level %s = [...]" % (path, name))
        lists[kind] = _literal_list(top[name], path)
    for kind, fname in wanted.items():
        names = [v for v, (f, _) in objects.items() if f == fname]
        if len(names) != 1:
            raise ListError("%s: expected one %s object, found %d" % (path, fname, len(names)))
        if names[0] not in sources:
            raise ListError("%s: %s.source is never set" % (path, names[0]))
        lists[kind] = sources[names[0]]

    ex_path = os.path.join(module_dir, "examples", "wscript")
    examples = {}
    if os.path.exists(ex_path):
        objects, sources = _waf_objects(ex_path)
        for var, (fname, name) in objects.items():
            if fname != "create_ns3_program":
                continue
            if not name:
                raise ListError("%s: create_ns3_program needs a literal name" % ex_path)
            examples[name] = ["examples/" + s for s in sources.get(var, [])]
    lists["examples"] = examples
    return lists


# ---------------------------------------------------------------------------
def compare(cmake, waf):
    problems = []

    def diff(label, a, b):
        for dup in sorted({x for x in a if a.count(x) > 1}):
            problems.append("%s: %s listed twice in CMakeLists.txt" % (label, dup))
        for dup in sorted({x for x in b if b.count(x) > 1}):
            problems.append("%s: %s listed twice in wscript" % (label, dup))
        for x in sorted(set(a) - set(b)):
            problems.append("%s: only in CMakeLists.txt: %s" % (label, x))
        for x in sorted(set(b) - set(a)):
            problems.append("%s: only in wscript:        %s" % (label, x))

    for kind in ("rules", "sources", "tests", "mpi_sources", "mpi_headers", "mpi_tests"):
        diff(kind, cmake[kind], waf[kind])
    # waf installs the module's and the rule library's headers with one ns3header object.
    diff("headers", cmake["headers"] + cmake["rules_headers"], waf["headers"])
    for name in sorted(set(cmake["examples"]) | set(waf["examples"])):
        if name not in waf["examples"]:
            problems.append("examples: program %s only in examples/CMakeLists.txt" % name)
        elif name not in cmake["examples"]:
            problems.append("examples: program %s only in examples/wscript" % name)
        else:
            diff("example %s" % name, cmake["examples"][name], waf["examples"][name])
    return problems


def check_disk(module_dir, cmake):
    listed = set()
    for kind in CMAKE_LISTS:
        listed |= set(cmake[kind])
    for srcs in cmake["examples"].values():
        listed |= set(srcs)
    missing = sorted(f for f in listed if not os.path.isfile(os.path.join(module_dir, f)))
    unlisted = []
    for sub in ("model", "helper", "test", "examples"):
        top = os.path.join(module_dir, sub)
        for root, _, files in os.walk(top):
            for fn in files:
                if not fn.endswith((".cc", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(root, fn), module_dir).replace(os.sep, "/")
                if rel.startswith("test/data/"):
                    continue  # test inputs, not built
                if rel in listed or is_standalone_only(rel):
                    continue
                unlisted.append(rel)
    return missing, sorted(unlisted)


def check_library_purity(module_dir, cmake):
    """Return the rule library files that include an ns-3 header.  The CMake
    builds also enforce this in the compiler (CMakeLists.txt); this check
    covers the waf build."""
    bad = []
    for f in cmake["rules"] + cmake["rules_headers"]:
        path = os.path.join(module_dir, f)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as text:
            for n, line in enumerate(text, 1):
                if re.match(r'\s*#\s*include\s*[<"]ns3/', line):
                    bad.append("%s:%d includes an ns-3 header (the rule library must not)" % (f, n))
    return bad


def _includes(path, pattern):
    """Yield (line number, line) of path's #include lines that match pattern."""
    with open(path, encoding="utf-8") as text:
        for n, line in enumerate(text, 1):
            if pattern.match(line):
                yield n, line.strip()


def check_tests(module_dir, cmake):
    """Return problems with the split between ns-3 tests and GoogleTest: a listed
    GoogleTest file, a listed test source that uses GoogleTest, and an ns-3
    include in the rule library's GoogleTest files or in the headers they share."""
    bad = []
    for f in cmake["tests"]:
        path = os.path.join(module_dir, f)
        if is_gtest_file(f):
            bad.append("%s is a GoogleTest file (standalone only): not in the test lists" % f)
        elif os.path.exists(path):
            for n, line in _includes(path, GTEST_INCLUDE):
                bad.append("%s:%d: an ns-3 test source must not use GoogleTest: %s" % (f, n, line))
    listed = set(cmake["tests"])
    rules_dir = os.path.join(module_dir, "test", "rules")
    for fn in sorted(os.listdir(rules_dir)) if os.path.isdir(rules_dir) else []:
        rel = "test/rules/" + fn
        if rel in listed or not fn.endswith((".cc", ".h")):
            continue
        for n, line in _includes(os.path.join(rules_dir, fn), NS3_INCLUDE):
            bad.append("%s:%d: the rule library's tests must not include ns-3: %s" % (rel, n, line))
    return bad


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    module_dir = argv[1] if len(argv) > 1 else os.path.dirname(here)
    try:
        cmake = read_cmake(module_dir)
        waf = read_waf(module_dir)
    except (ListError, OSError, SyntaxError) as e:
        print("check-build-lists: %s" % e, file=sys.stderr)
        return 1

    problems = compare(cmake, waf)
    missing, unlisted = check_disk(module_dir, cmake)
    problems += ["listed but missing on disk: %s" % f for f in missing]
    problems += check_library_purity(module_dir, cmake)
    problems += check_tests(module_dir, cmake)
    for f in unlisted:
        print("check-build-lists: warning: %s is in neither build list" % f, file=sys.stderr)

    if problems:
        print("check-build-lists: FAILED for %s" % module_dir)
        for p in problems:
            print("  " + p)
        print("CMakeLists.txt, examples/CMakeLists.txt, wscript and examples/wscript must")
        print("list the same existing files.")
        return 1
    print(
        "check-build-lists: OK: %d rule library files, %d sources, %d headers, %d test files, "
        "%d programs agree"
        % (
            len(cmake["rules"]) + len(cmake["rules_headers"]),
            len(cmake["sources"]),
            len(cmake["headers"]),
            len(cmake["tests"]),
            len(cmake["examples"]),
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
