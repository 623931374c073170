"""How much of python-graphblas's own test suite passes on gblas2d, at one process.

    python benchmarks/compat.py                      # every file, table and runs/compat.json
    python benchmarks/compat.py --causes 25          # and the 25 commonest failure causes
    python benchmarks/compat.py --files test_vector.py,test_scalar.py

The test files of ``graphblas/tests/`` (with conftest.py and the pickle files) are copied twice
into a temporary directory: unchanged (the baseline, python-graphblas on itself) and with the
imports rewritten to gblas2d. pytest runs each file of each copy in a subprocess (one thread for
SuiteSparse, ``-W ignore::DeprecationWarning``, a wall-clock limit per file), with this module
as a plugin that writes every test's outcome to a JSON-lines file.

Files left out, being wholly about SuiteSparse or python-graphblas's packaging:
test_ss_utils.py (``gb.ss``, ``A.ss``), test_ssjit.py (the SuiteSparse JIT), test_auto_init.py
and test_external_init.py (initializing the C library; scripts with no tests),
test_descriptor.py (GrB_Descriptor objects), test_core.py (the package's layout, ``gb.init``,
``lib``), test_recorder.py (asserts the exact GrB_* C calls; gblas2d's Recorder records
collectives instead).

The rewrite (``rewrite``) works on the ast: ``import graphblas[.mod] as x`` and
``from graphblas[.mod] import y`` name gblas2d instead, except modules under graphblas.core,
graphblas.ss, graphblas._ss and suitesparse_graphblas, and the names in ``INTERNAL``
(``from graphblas import backend``): these keep pointing at python-graphblas, as does
``x.<such name>`` on a rewritten module (``gb.core.ss.version_major`` becomes
``_graphblas.core.ss.version_major``), so that the modules still import. Private names are
gblas2d's (``dtypes._supports_complex`` asks the library under test). conftest.py is not
rewritten, as it configures python-graphblas, whose internals the tests keep, but its
``gb.config.set`` calls set ``gblas2d.config`` too: the tests run with autocompute off, and on
inside ``@autocompute``, on both libraries. Nothing missing is
stood in for: a name gblas2d lacks is bound to a ``_Missing`` whose every use raises the
ImportError its import would have raised, so that it fails the tests that use it rather than
every test of the file.

The rule for internals (``internal_tests``), from each test function's ast together with its
decorators (the strings of ``skipif`` parsed as code) and the module-level fixtures it takes:
it is internal if it reads an attribute in ``INTERNAL`` (``x.ss``, ``gb.core``, ...) or a
private one (``x._y``, not ``__y__`` nor ``_repr_html_``); a name in ``INTERNAL`` but ``ss``
(test_io binds scipy.sparse to it) or in ``UDF`` (python-graphblas's UDFs are numba-compiled
scalar functions; gblas2d's are vectorized, by design); or a module-level name bound to such
things (``from graphblas.core import lib``, ``suitesparse = backend == "suitesparse"``).
Internals are reported and not counted. A test is applicable when the baseline passes it and it
is not internal; the score is how many applicable tests pass on gblas2d. A failure's cause is
the first failing phase's exception, normalized (addresses and numbers elided) so that alike
failures group.
"""

import argparse
import ast
import collections
import datetime
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import graphblas

SKIPPED = ["test_ss_utils.py", "test_ssjit.py", "test_auto_init.py", "test_external_init.py",
           "test_descriptor.py", "test_core.py", "test_recorder.py"]
INTERNAL_MODULES = ("graphblas.core", "graphblas.ss", "graphblas._ss", "suitesparse_graphblas")
INTERNAL = {"core", "lib", "ffi", "backend", "gb_obj", "ss"}
UDF = {"numba", "register_new", "register_anonymous", "UdfParseError"}
# conftest.py's two config calls (autocompute off for the run, on inside @autocompute) set
# gblas2d.config as well as python-graphblas's, so that each library runs in the tests' mode.
BOTH_CONFIG_SET = """

class _both_config_set:
    def __init__(self, *args, **kwargs):
        import gblas2d
        self._sets = [gb.config.set(*args, **kwargs), gblas2d.config.set(*args, **kwargs)]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        for setting in reversed(self._sets):
            setting.__exit__(*exc_info)
"""
PACKAGE = "gbtests"  # the copies' package name, so that `from .conftest import ...` works
OUTPUT = Path(__file__).resolve().parent / "runs" / "compat.json"

# Bound to each name gblas2d lacks; dunder lookups (pytest's, copy's) get an AttributeError.
MISSING = '''
class _Missing:
    def __init__(self, message):
        self._message = message
    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise ImportError(self._message)
    def __call__(self, *args, **kwargs):
        raise ImportError(self._message)
    __bool__ = __iter__ = __call__
'''


def _private(name):
    return name.startswith("_") and not name.startswith("__") and not name.endswith("_")


def _internal_module(module):
    return module.startswith(INTERNAL_MODULES)


def _import_error(statement):
    """The message of the ImportError that ``statement`` raises here, or None."""
    try:
        exec(statement, {})
    except ImportError as e:
        return str(e)
    return None


class _Rewriter(ast.NodeTransformer):
    def __init__(self):
        self.modules = {}  # local name -> the python-graphblas module it was bound to

    def _missing(self, name, message):
        return ast.parse(f"{name} = _Missing({message!r})").body[0]

    def visit_Import(self, node):
        out = []
        for alias in node.names:
            if alias.name.split(".")[0] != "graphblas" or _internal_module(alias.name):
                out.append(ast.Import([alias]))
                continue
            local = alias.asname or "graphblas"
            target = "gblas2d" + alias.name[len("graphblas"):]
            self.modules[local] = alias.name if alias.asname else "graphblas"
            error = _import_error(f"import {target}")
            if error:
                out.append(self._missing(local, error))
            elif alias.asname:
                out.append(ast.Import([ast.alias(target, alias.asname)]))
            else:  # `import graphblas.x` binds `graphblas`
                out.append(ast.Import([ast.alias("gblas2d", "graphblas")]))
        return out

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if node.level or module.split(".")[0] != "graphblas" or _internal_module(module):
            return node
        target = "gblas2d" + module[len("graphblas"):]
        real = importlib.import_module(module)
        kept, moved, out = [], [], []
        for alias in node.names:
            local = alias.asname or alias.name
            if isinstance(getattr(real, alias.name, None), types.ModuleType):
                self.modules[local] = f"{module}.{alias.name}"
            if alias.name in INTERNAL:
                kept.append(alias)
            elif error := _import_error(f"from {target} import {alias.name}"):
                out.append(self._missing(local, error))
            else:
                moved.append(alias)
        if moved:
            out.insert(0, ast.ImportFrom(target, moved, 0))
        if kept:
            out.insert(0, ast.ImportFrom(module, kept, 0))
        return out

    def visit_Attribute(self, node):
        self.generic_visit(node)
        base = node.value
        if isinstance(base, ast.Name) and base.id in self.modules and node.attr in INTERNAL:
            path = "_graphblas" + self.modules[base.id][len("graphblas"):]
            return ast.Attribute(ast.parse(path, mode="eval").body, node.attr, node.ctx)
        return node


def rewrite(source):
    """The test module ``source`` with its imports rewritten to gblas2d (see the module doc)."""
    tree = _Rewriter().visit(ast.parse(source))
    tree.body[:0] = ast.parse("import graphblas as _graphblas\n" + MISSING).body
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _words(node):
    """(name, whether an attribute) of each name and attribute ``node`` reads, with the code
    in the strings of its ``skipif`` and ``xfail`` marks (``skipif("not supports_udfs")``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id, False
        elif isinstance(sub, ast.Attribute):
            yield sub.attr, True
        elif isinstance(sub, ast.Call) and getattr(sub.func, "attr", "") in ("skipif", "xfail"):
            for arg in sub.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield from _words(ast.parse(arg.value, mode="eval"))


def _marks(node, bound):
    """The internals ``node`` uses; ``bound``: the module's names bound to internals."""
    found = set()
    for word, is_attribute in _words(node):
        if word in INTERNAL - {"ss"} or word in UDF or word in bound:
            found.add(word)
        elif is_attribute and (word == "ss" or _private(word)):
            found.add(word)
    return found


def internal_tests(source):
    """{test function name: the internals it uses} for the test module ``source``."""
    tree = ast.parse(source)
    bound, fixtures, tests = set(), {}, {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _internal_module(node.module):
                bound.update(a.asname or a.name for a in node.names)
            elif node.module.split(".")[0] == "graphblas":
                bound.update(a.asname or a.name for a in node.names
                             if a.name in INTERNAL or _private(a.name))
        elif isinstance(node, ast.Assign) and _marks(node.value, bound):
            bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            tests[node.name] = node
        elif isinstance(node, ast.FunctionDef):
            if any("fixture" in ast.unparse(d) for d in node.decorator_list):
                fixtures[node.name] = node
    fixture_marks = {name: _marks(f, bound) for name, f in fixtures.items()}
    return {name: _marks(f, bound).union(*(fixture_marks.get(a.arg, ()) for a in f.args.args))
            for name, f in tests.items()}


# --- pytest plugin: `-p compat` in the subprocess writes each outcome to $COMPAT_OUT ---------

def pytest_addoption(parser):
    # python-graphblas's conftest draws its backend and options at random unless --randomly
    # exists and is off: then suitesparse, blocking, no recording, mapnumpy off, slow skipped.
    parser.addoption("--randomly", action="store_true", default=False)


def _record(nodeid, when, outcome, longrepr):
    if isinstance(longrepr, tuple):  # a skip: (path, line, reason)
        message = longrepr[2]
    elif getattr(longrepr, "reprcrash", None):
        message = longrepr.reprcrash.message
    else:
        message = (str(longrepr or "").strip().splitlines() or [""])[-1]
    with open(os.environ["COMPAT_OUT"], "a") as f:
        f.write(json.dumps([nodeid, when, outcome, message]) + "\n")


def pytest_runtest_logreport(report):
    _record(report.nodeid, report.when, report.outcome, report.longrepr)


def pytest_collectreport(report):
    if report.failed:
        _record(report.nodeid, "collect", "failed", report.longrepr)


# --- the runner ------------------------------------------------------------------------------

def copy_suite(src, dest, files, rewritten):
    """Copy ``files`` of ``src`` (graphblas/tests) with conftest.py and data into dest/PACKAGE."""
    pkg = dest / PACKAGE
    pkg.mkdir(parents=True)
    (dest / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: skipped\n")
    for path in [src / "__init__.py", src / "conftest.py", *src.glob("*.pkl")]:
        shutil.copy(path, pkg / path.name)
    if rewritten:
        conftest = (pkg / "conftest.py").read_text()
        assert conftest.count("gb.config.set(") == 2, "conftest's config calls have changed"
        (pkg / "conftest.py").write_text(
            conftest.replace("gb.config.set(", "_both_config_set(") + BOTH_CONFIG_SET)
    for name in files:
        text = (src / name).read_text()
        (pkg / name).write_text(rewrite(text) if rewritten else text)


def run_file(root, name, timeout):
    """{nodeid: (outcome, message)} of pytest on ``root/PACKAGE/name``, collection errors, and
    whether it ran past ``timeout`` seconds."""
    out = root / f"{name}.jsonl"
    env = dict(os.environ, COMPAT_OUT=str(out), OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parent),
                                           os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-m", "pytest", "-p", "compat", "-p", "no:cacheprovider", "-q",
           "-W", "ignore::DeprecationWarning", f"{PACKAGE}/{name}"]
    try:
        subprocess.run(cmd, cwd=root, env=env, timeout=timeout, capture_output=True)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    results, errors = {}, []
    for line in out.read_text().splitlines() if out.exists() else []:
        nodeid, when, outcome, message = json.loads(line)
        if when == "collect":
            errors.append(message)
        elif outcome == "failed":  # the first failing phase (setup, call, teardown) is the cause
            if results.get(nodeid, ("",))[0] != "failed":
                results[nodeid] = ("failed", message if when == "call" else f"[{when}] {message}")
        elif outcome == "skipped" or when == "call":
            results.setdefault(nodeid, (outcome, message))
    return results, errors, timed_out


def normalize(message):
    """One line per kind of failure: addresses and numbers elided, at most 160 characters."""
    line = " ".join(message.split()) or "(no message)"
    line = re.sub(r"0x[0-9a-fA-F]+|\b[0-9a-f]{12}\b", "0x?", line)  # also pytest's "...7f3a9c"
    line = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(?![\w.])", "N", line)
    return line[:160]


def compare(name, source, base, mine):
    """The row of file ``name``: counts and each applicable test's outcome on gblas2d."""
    marks = internal_tests(source)
    (base_results, _, base_timeout), (results, errors, timed_out) = base, mine
    internal = [n for n in base_results if marks.get(n.split("::")[-1].split("[")[0])]
    applicable = [n for n, (o, _) in base_results.items() if o == "passed" and n not in internal]
    failing = {}
    for n in applicable:
        outcome, message = results.get(n, (None, None))
        if outcome is None:
            message = (errors[0] if errors else "timeout (the file ran past --timeout)" if timed_out
                       else "not run (not collected)")
        if outcome != "passed":
            failing[n] = normalize(f"{outcome}: {message}" if outcome == "skipped" else message)
    not_passed = collections.Counter(o for n, (o, _) in base_results.items()
                                     if o != "passed" and n not in internal)
    return {"file": name, "tests": len(base_results), "internals": len(internal),
            "applicable": len(applicable), "passed": len(applicable) - len(failing),
            "baseline_not_passed": not_passed,
            "baseline_timed_out": base_timeout, "timed_out": timed_out,
            "collection_errors": errors, "failing": failing}


def table(rows):
    lines = ["| file | tests | internals (not counted) | applicable | passed on gblas2d | % |",
             "|---|---:|---:|---:|---:|---:|"]
    keys = ["tests", "internals", "applicable", "passed"]
    total = {k: sum(r[k] for r in rows) for k in keys}
    for r in [*rows, dict(total, file="**total**")]:
        pct = f"{100 * r['passed'] / r['applicable']:.1f}" if r["applicable"] else "-"
        note = " (timeout)" if r.get("timed_out") or r.get("baseline_timed_out") else ""
        lines.append(f"| {r['file']}{note} | " + " | ".join(str(r[k]) for k in keys)
                     + f" | {pct} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--files", help="comma-separated test files (default: all applicable)")
    p.add_argument("--causes", type=int, default=0, metavar="N",
                   help="print the N commonest first-failure causes on gblas2d")
    p.add_argument("--timeout", type=float, default=600, help="seconds per file and copy")
    p.add_argument("--output", type=Path, default=OUTPUT)
    args = p.parse_args(argv)
    src = Path(graphblas.__file__).parent / "tests"
    files = (args.files.split(",") if args.files else
             sorted(f.name for f in src.glob("test_*.py") if f.name not in SKIPPED))
    rows = []
    with tempfile.TemporaryDirectory(prefix="gblas2d-compat-") as tmp:
        roots = {"baseline": Path(tmp, "baseline"), "gblas2d": Path(tmp, "gblas2d")}
        for label, root in roots.items():
            copy_suite(src, root, files, rewritten=label == "gblas2d")
        for name in files:
            start = time.perf_counter()
            runs = [run_file(root, name, args.timeout) for root in roots.values()]
            rows.append(compare(name, (src / name).read_text(), *runs))
            print(f"{name}: {rows[-1]['passed']}/{rows[-1]['applicable']} "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print(table(rows))
    failing = [(cause, test.split("/")[-1]) for r in rows for test, cause in r["failing"].items()]
    causes = collections.Counter(cause for cause, _ in failing)
    example = dict(reversed(failing))  # each cause's first test
    for cause, count in causes.most_common(args.causes):
        print(f"{count:5d}  {cause}  (e.g. {example[cause]})")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({
        "date": datetime.date.today().isoformat(), "python-graphblas": graphblas.__version__,
        "skipped_files": SKIPPED, "files": rows, "causes": causes.most_common()}, indent=1))


if __name__ == "__main__":
    main()
