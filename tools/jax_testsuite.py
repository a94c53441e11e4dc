"""Run JAX's own test files (jax.numpy, lax) against transpile and count what passes.

JAX's tests are not part of this repository: give the runner a copy of the files (e.g. from
jax-ml/jax's tests/ folder) and run it in an environment that has JAX, absl-py and hypothesis:

    /tmp/jaxenv/bin/python tools/jax_testsuite.py /tmp/jaxtests/files/lax_numpy_operators_test.py \
        --out /tmp/jaxtests/results [-k testOp] [--rules jax|numpy] [--cases 10] [--reference]

Inside the loaded test module, and nowhere else, `jax` is a facade over transpile: `jnp`
(``jax.numpy``) is ``transpile.numpy``, ``lax`` is ``transpile.lax``, ``jax.jit`` is
``transpile.jit``, and every other name transpile has (``vmap``, ``grad``, ``device_put``...) is
transpile's; names transpile lacks (``jax.config``, ``jax.numpy_rank_promotion``) fall back to
JAX's. ``jax._src.test_util`` (``jtu``) stays JAX's: its ``rand_*`` helpers, ``assertAllClose``
and NumPy references are the judges; only ``_CompileAndCheck`` is replaced by one that compiles
with ``transpile.jit`` (keeping JAX's checks: the eager and compiled answers agree, a second call
with same-typed arguments does not run Python again). x64 is on in JAX and transpile, transpile
uses JAX's dtype rules (``--rules numpy`` for NumPy's), and absl expands every parameterized case
(``--cases`` is JAX_NUM_GENERATED_CASES, JAX's default 10).

``--reference`` runs the same files against JAX itself (no swap): the cases JAX passes there are
the ones worth counting, and a quick check that the copy of the file is sound.

Each file runs in a child process that appends one JSON line per case to
``<out>/<file>.jsonl``; when compiled code kills the child, the case in flight is recorded as a
crash and a new child resumes after it. The parent then writes ``<out>/<file>.json`` (every case)
and ``<out>/results_<file>.md``: cases counted (JAX's own skips left out), passed, failed
(an assertion: wrong value, dtype or shape), errored (anything raised), grouped by failure class
(exception type and the first line of its message, numbers and quoted names normalised) and by
test method.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASE_TIME_LIMIT_S = 120


# ----------------------------------------------------------------------------------------------
# The child: load one test file with jax swapped for transpile, run its cases, log each one.
# ----------------------------------------------------------------------------------------------

def _prepare_environment(args) -> None:
    """Settings JAX reads at import time: x64, CPU, the number of sampled cases."""
    os.environ["JAX_ENABLE_X64"] = "1"
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ["JAX_NUM_GENERATED_CASES"] = str(args.cases)
    os.environ.setdefault("TRANSPILE_CACHE_DIR", "/tmp/tpc-jaxtestsuite")
    sys.argv = sys.argv[:1]          # the test module parses absl flags from argv
    sys.path.insert(0, str(ROOT))


def _configure_transpile(rules: str):
    import transpile
    transpile.config.update("transpile_dtype_rules", rules)
    transpile.config.update("jax_enable_x64", True)
    return transpile


class _JaxFacade:
    """What ``import jax`` gives the test module: transpile's public names (its ``__all__``)
    first, JAX's for the rest.

    ``config`` stays JAX's because the tests use it for JAX's own flags (rank promotion,
    x64); transpile's settings are fixed by the runner.
    """

    _JAX_ONLY = frozenset({"config"})

    def __init__(self, transpile, jax):
        self._transpile, self._jax = transpile, jax
        self.fallbacks = Counter()
        self.lax = _LaxFacade(transpile.lax, jax.lax, self.fallbacks)

    def __getattr__(self, name):
        if name == "lax":
            return self.lax
        if name not in self._JAX_ONLY and name in self._transpile.__all__:
            return getattr(self._transpile, name)
        self.fallbacks[name] += 1
        return getattr(self._jax, name)


class _LaxFacade:
    """What ``jax.lax`` gives the test module: transpile.lax's names; for one it lacks, JAX's
    class (dimension-number tuples, enums: data the test builds at class-definition time) or a
    function raising NotImplementedError (so a case needing it fails, never runs JAX's).
    Each such name is counted in the fallbacks (as ``lax.NAME``)."""

    def __init__(self, tlax, jlax, fallbacks):
        self._tlax, self._jlax, self._fallbacks = tlax, jlax, fallbacks

    def __getattr__(self, name):
        if hasattr(self._tlax, name):
            return getattr(self._tlax, name)
        self._fallbacks["lax." + name] += 1
        value = getattr(self._jlax, name)
        if isinstance(value, type):
            return value

        def missing(*args, **kwargs):
            raise NotImplementedError(f"transpile.lax has no {name}")
        missing.__name__ = name
        return missing


def _swapping_import(facade, transpile, real_import):
    """An ``__import__`` for the test module alone: jax, jax.numpy and jax.lax come from transpile."""
    submodules = {"jax.numpy": transpile.numpy, "jax.lax": facade.lax}

    def swapping_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name == "jax":
            return facade
        if level == 0 and name in submodules:
            # `from jax.numpy import x` wants the submodule; `import jax.numpy as jnp` the top.
            return submodules[name] if fromlist else facade
        if level == 0 and name in ("jax.ops", "jax.scipy") and not fromlist:
            return facade           # `import jax.scipy as jsp`: the facade's attribute
        return real_import(name, globals, locals, fromlist, level)
    return swapping_import


def _load_test_module(path: Path, transpile):
    """Execute the test file as a fresh module whose jax imports resolve to transpile."""
    import builtins
    import types

    import jax
    facade = _JaxFacade(transpile, jax)
    module = types.ModuleType(f"jaxtest_{path.stem}")
    module.__file__ = str(path)
    own_builtins = dict(vars(builtins))
    own_builtins["__import__"] = _swapping_import(facade, transpile, builtins.__import__)
    module.__dict__["__builtins__"] = own_builtins
    sys.modules[module.__name__] = module
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module, facade


def _compile_and_check(transpile):
    """``JaxTestCase._CompileAndCheck`` with ``transpile.jit`` in place of ``jax.jit``."""
    import numpy as np

    def compile_and_check(self, fun, args_maker, *, check_dtypes=True, tol=None, rtol=None,
                          atol=None, check_cache_misses=True):
        del check_cache_misses          # counts XLA's op-by-op compiles: nothing of ours
        python_runs = {"allowed": True}

        def watched(*args):
            self.assertTrue(python_runs["allowed"], "jit ran the Python function again for "
                            "arguments of the same types")
            return fun(*args)

        tolerances = dict(check_dtypes=check_dtypes, atol=atol or tol, rtol=rtol or tol)
        args = args_maker()
        eager = fun(*args)
        self.assertEqual(_tree_map(np.shape, eager),
                         _tree_map(lambda x: np.shape(np.asarray(x)), eager))
        compiled = transpile.jit(watched)
        first = compiled(*args)
        python_runs["allowed"] = False
        second = compiled(*args)
        self.assertAllClose(first, eager, **tolerances)
        self.assertAllClose(second, eager, **tolerances)
        args = args_maker()
        python_runs["allowed"] = True
        eager = fun(*args)
        python_runs["allowed"] = False
        self.assertAllClose(compiled(*args), eager, **tolerances)
    return compile_and_check


def _tree_map(fn, tree):
    from jax import tree_util
    return tree_util.tree_map(fn, tree)


class _TranspileAutodiff:
    """What JAX's ``check_grads`` differentiates with (its module's ``api``): transpile's
    jvp/vjp/linearize, so that it checks transpile's derivatives numerically instead of
    handing JAX's tracers to transpile's functions."""

    def __init__(self, transpile):
        self.jvp, self.vjp, self.linearize = transpile.jvp, transpile.vjp, transpile.linearize


def _patch_test_util(transpile):
    from jax._src import public_test_util
    from jax._src import test_util as jtu
    jtu.JaxTestCase._CompileAndCheck = _compile_and_check(transpile)
    public_test_util.api = _TranspileAutodiff(transpile)
    return jtu


def _method_name(test) -> str:
    """The test method a parameterized case came from (``testOp`` for ``testOp12_abs_int8``):
    absl's generated methods wrap the original and keep its name."""
    import inspect
    name = test._testMethodName
    method = getattr(type(test), name, None)
    if hasattr(method, "__wrapped__"):
        return getattr(inspect.unwrap(method), "__name__", name)
    return name


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(\.\d+)?(e[-+]?\d+)?")
_QUOTED = re.compile(r"'[^']{0,80}'")
_NAME = re.compile(r"'[A-Za-z_][\w.]{0,39}'")


def _quoted_value(match) -> str:
    """A quoted name stays (which function, dtype or attribute); other quoted text goes."""
    return match.group(0) if _NAME.fullmatch(match.group(0)) else "'…'"


def _failure_class(exc_type: str, message: str) -> str:
    """The exception's type and the first line of its message, with the details that vary
    from case to case (numbers, shapes, quoted values) replaced by placeholders."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    compiler_errors = [ln[ln.index("error:"):] for ln in lines if "error:" in ln]
    # A compiler failure's first line names a temporary file; its first error says what broke.
    line = compiler_errors[0] if compiler_errors else (lines[0] if lines else "")
    line = _QUOTED.sub(_quoted_value, line)
    line = _NUMBER.sub("N", line)
    line = re.sub(r"\(N(, N)*,?\)", "(shape)", line)
    return f"{exc_type}: {line[:140]}"


class _Alarm(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Alarm(f"case ran past {CASE_TIME_LIMIT_S} s")


class _KeepingResult:
    """A unittest result that keeps the first exception itself, not only its formatted text."""

    def __init__(self):
        import unittest
        self.result = unittest.TestResult()
        self.exception = None           # (status, exception type, exception, traceback)

    def __getattr__(self, name):
        return getattr(self.result, name)

    def addFailure(self, test, err):
        self.exception = self.exception or ("fail", *err)
        self.result.addFailure(test, err)

    def addError(self, test, err):
        self.exception = self.exception or ("error", *err)
        self.result.addError(test, err)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self.exception = self.exception or ("fail" if failed else "error", *err)
        self.result.addSubTest(test, subtest, err)


def _outcome(test):
    """Run one case; return (status, exception type, message, site)."""
    import signal

    kept = _KeepingResult()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(CASE_TIME_LIMIT_S)
    try:
        test(kept)
    except _Alarm as e:            # raised outside the test body (setUp/tearDown)
        return "error", "Timeout", str(e), ""
    finally:
        signal.alarm(0)
    if kept.exception is not None:
        status, exc_type, exc, tb = kept.exception
        name = "Timeout" if exc_type is _Alarm else exc_type.__name__
        return status, name, str(exc)[:3000], _transpile_site(tb)
    if kept.result.skipped:
        return "skip", "", kept.result.skipped[0][1][:300], ""
    if kept.result.expectedFailures:
        return "skip", "", "expected failure", ""
    return "pass", "", "", ""


def _transpile_site(tb) -> str:
    """The innermost frame of transpile's own code in a traceback: where an error came from."""
    import traceback
    site = ""
    for frame in traceback.extract_tb(tb):
        path = Path(frame.filename)
        if ROOT / "transpile" in path.parents:
            site = f"{path.relative_to(ROOT)}:{frame.name}"
    return site


def _iter_cases(module):
    import unittest

    from jax._src import test_util as jtu
    suite = jtu.JaxTestLoader().loadTestsFromModule(module)
    stack = [suite]
    while stack:
        item = stack.pop(0)
        if isinstance(item, unittest.TestSuite):
            stack[0:0] = list(item)
        else:
            yield item


def run_child(args) -> None:
    """Run every case of one file, appending a JSON line per case to args.log."""
    _prepare_environment(args)
    transpile = _configure_transpile(args.rules) if not args.reference else None
    import warnings
    warnings.simplefilter("ignore")
    if args.reference:
        import jax
        from jax._src import test_util  # noqa: F401  (the real one)
        import types
        module = types.ModuleType(f"jaxtest_{Path(args.file).stem}")
        module.__file__ = args.file
        sys.modules[module.__name__] = module
        exec(compile(Path(args.file).read_text(), args.file, "exec"), module.__dict__)
        facade = None
        del jax
    else:
        _patch_test_util(transpile)
        module, facade = _load_test_module(Path(args.file), transpile)
    done = set()
    log = Path(args.log)
    if log.exists():
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            done.add(entry["id"])
    with log.open("a") as out:
        for test in _iter_cases(module):
            case_id = f"{type(test).__name__}.{test._testMethodName}"
            if case_id in done or (args.k and not re.search(args.k, case_id)):
                continue
            out.write(json.dumps({"id": case_id, "start": True}) + "\n")
            out.flush()
            began = time.perf_counter()
            status, exc_type, message, site = _outcome(test)
            params = test.id().partition(" ")[2][:300]
            entry = {"id": case_id, "method": _method_name(test), "params": params,
                     "status": status,
                     "type": exc_type, "message": message, "site": site,
                     "seconds": round(time.perf_counter() - began, 3)}
            out.write(json.dumps(entry) + "\n")
            out.flush()
    if facade is not None:
        (log.with_suffix(".fallbacks.json")).write_text(json.dumps(dict(facade.fallbacks)))


# ----------------------------------------------------------------------------------------------
# The parent: one child per file, restarted after crashes; then the summaries.
# ----------------------------------------------------------------------------------------------

def _read_log(log: Path):
    """Finished cases by id, and the id of a case that started but never finished."""
    finished, started = {}, None
    if not log.exists():
        return finished, started
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue                 # the line a killed child was writing
        if entry.get("start"):
            started = entry["id"]
        else:
            finished[entry["id"]] = entry
            if started == entry["id"]:
                started = None
    return finished, started


def run_file(path: Path, args) -> list:
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    log = out_dir / f"{path.stem}.jsonl"
    if not args.resume and log.exists():
        log.unlink()
    for _attempt in range(200):
        command = [sys.executable, __file__, "--child", str(path), "--log", str(log),
                   "--rules", args.rules, "--cases", str(args.cases)]
        command += ["--reference"] if args.reference else []
        command += ["-k", args.k] if args.k else []
        proc = subprocess.run(command)
        finished, started = _read_log(log)
        if proc.returncode == 0 or started is None:
            if proc.returncode != 0:
                print(f"{path.name}: child exited {proc.returncode} between cases", file=sys.stderr)
            break
        crash = {"id": started, "method": "", "status": "error", "type": "Crash",
                 "message": f"the process died (exit status {proc.returncode})", "site": "",
                 "seconds": 0}
        with log.open("a") as f:
            f.write(json.dumps(crash) + "\n")
    finished, _ = _read_log(log)
    return list(finished.values())


def summarise(name: str, cases: list) -> dict:
    counted = [c for c in cases if c["status"] != "skip"]
    by_status = Counter(c["status"] for c in counted)
    classes = Counter()
    examples = {}
    for c in counted:
        if c["status"] in ("fail", "error"):
            key = _failure_class(c["type"], c["message"])
            classes[key] += 1
            examples.setdefault(key, (c["id"], c["site"]))
    methods = defaultdict(Counter)
    for c in counted:
        methods[c["method"] or c["id"].split(".")[-1]][c["status"]] += 1
    return {"file": name, "counted": len(counted), "passed": by_status["pass"],
            "failed": by_status["fail"], "errored": by_status["error"],
            "skipped": len(cases) - len(counted),
            "classes": [{"class": k, "count": n, "example": examples[k][0],
                         "site": examples[k][1]} for k, n in classes.most_common()],
            "methods": {m: dict(c) for m, c in sorted(methods.items())}}


def markdown(summary: dict) -> str:
    s = summary
    rate = 100.0 * s["passed"] / max(s["counted"], 1)
    lines = [f"# {s['file']}", "",
             f"{s['passed']} of {s['counted']} counted cases pass ({rate:.1f} %); "
             f"{s['failed']} fail, {s['errored']} error; {s['skipped']} skipped by the tests "
             "themselves (not counted).", "",
             "## Failure classes", "", "| count | class | example | where |", "|---:|---|---|---|"]
    for c in s["classes"]:
        cls = c["class"].replace("|", "\\|")
        lines.append(f"| {c['count']} | {cls} | {c['example'][:90]} | {c['site']} |")
    lines += ["", "## Test methods", "", "| method | counted | pass | fail | error |",
              "|---|---:|---:|---:|---:|"]
    for m, c in s["methods"].items():
        total = sum(n for k, n in c.items() if k != "skip")
        if total:
            lines.append(f"| {m} | {total} | {c.get('pass', 0)} | {c.get('fail', 0)} | "
                         f"{c.get('error', 0)} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="JAX test files (e.g. lax_numpy_test.py)")
    parser.add_argument("--out", default="/tmp/jaxtests/results", help="folder for the results")
    parser.add_argument("-k", default="", help="only cases whose id matches this regex")
    parser.add_argument("--rules", default="jax", choices=("jax", "numpy"),
                        help="transpile's dtype rules (JAX's by default, as the tests expect)")
    parser.add_argument("--cases", type=int, default=10,
                        help="JAX_NUM_GENERATED_CASES: cases sampled per sample_product test")
    parser.add_argument("--reference", action="store_true", help="run against JAX itself")
    parser.add_argument("--resume", action="store_true", help="keep cases already logged")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--log", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        args.file = args.child
        run_child(args)
        return 0
    totals = []
    for file in args.files:
        path = Path(file).resolve()
        summary = summarise(path.name, run_file(path, args))
        out = Path(args.out)
        (out / f"{path.stem}.json").write_text(json.dumps(summary, indent=1))
        (out / f"results_{path.stem}.md").write_text(markdown(summary))
        totals.append(summary)
        print(f"{path.name}: {summary['passed']}/{summary['counted']} pass, "
              f"{summary['failed']} fail, {summary['errored']} error, "
              f"{summary['skipped']} skipped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
