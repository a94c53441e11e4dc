"""First-call time of NPBench's kernels (preset S), transpile beside JAX (issue 22).

Usage:
    PYTHONPATH=$PWD /tmp/jaxenv/bin/python benchmarks/bench_npbench_firstcall.py \
        [--repeat 3] [--only NAME ...] [--clock wall|cpu] [--stages] [--steady]
        [--save FILE.json] [--before FILE.json]

The kernels are benchmarks/npbench_kernels.py: NPBench's JAX versions, written once against
a library namespace, so transpile (`transpile.numpy`, `transpile.lax`, `transpile.jit`) and
JAX (`jax.numpy`, `jax.lax`, `jax.jit`) trace the same program in this one process.

What is timed
-------------
* The runtime library (transpile/runtime/runtime_library.py) is built or found before
  anything is timed: the acceptance is first calls with a WARM runtime library.
* transpile's first call: every module entry of the disk cache is removed (the runtime
  library kept), a fresh function object is jitted and called once on the preset's inputs:
  trace, generate C, compile, load, run, results read back as NumPy arrays.
* JAX's first call: `jax.clear_caches()`, a fresh function object jitted and called once on
  arguments already on the device, until the results are ready (trace, lower, XLA compile,
  run).
* One untimed throwaway program warms up each library's Python side first.
* The answers are checked against each other (and the preset's inputs are never changed).
The table shows the median over --repeat first calls, the ratio transpile / JAX (<= 1:
transpile's first call is faster) and their geometric mean. Targets (issue 22): every kernel
at most 1.5x JAX's first call, the geometric mean at most 0.7x.

--stages splits transpile's first call into trace (everything before simplification, plus
Python bookkeeping), simplify, lower, render (the C text), cc (the compiler and linker), load
(the binary through cffi) and run (what is left: the call itself), by timing those functions
of the CPU backend. --steady adds the median time of later calls (the steady state) for both.
--compiler-split rebuilds each kernel's module once more, as its manifest records, with the
compiler's -time, and shows the CPU milliseconds of its parts: cc1 (parsing and optimising),
as (assembling) and collect2 (the linker). --stages shows `cc` as one wall-clock span; this
says where it goes (issue 22's profile: parsing the headers was a third of a small module's
cc1 time before they were precompiled, and linking against libm/libgomp/libc a quarter).
`--clock cpu` counts process and compiler CPU time: steadier than wall time on a loaded
machine, but it counts every thread (OpenMP's and XLA's) in full.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-npbench-"))

import transpile as tp  # noqa: E402  (after the cache directory is chosen)
import transpile.numpy as tnp  # noqa: E402
from transpile import lax  # noqa: E402
from transpile.backends import compiled_backend, cpu  # noqa: E402
from transpile.runtime import cache_admin, runtime_library  # noqa: E402
from transpile.runtime.cache_location import cache_root  # noqa: E402

from bench_compile import cpu_seconds, drop_module_entries  # noqa: E402  (beside this file)
import npbench_kernels  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)      # NPBench's data are float64
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None

KERNEL_TARGET = 1.5       # transpile first call / JAX first call, at most, for every kernel
GEOMEAN_TARGET = 0.7      # ... and their geometric mean

CLOCKS = {"wall": time.perf_counter, "cpu": cpu_seconds}
clock = time.perf_counter

TP_LIB = npbench_kernels.library(tnp, lax, tp.jit)
JAX_LIB = npbench_kernels.library(jnp, jax.lax, jax.jit) if jax else None


# -- stage timing (transpile) -----------------------------------------------------------------

STAGES = ("simplify", "lower", "render", "cc", "load")
_stage_seconds: dict[str, float] = {}


def _timed(name, fun):
    def wrapper(*args, **kwargs):
        started = clock()
        try:
            return fun(*args, **kwargs)
        finally:
            _stage_seconds[name] = _stage_seconds.get(name, 0.0) + clock() - started
    return wrapper


@contextlib.contextmanager
def stage_timers():
    """Time the CPU backend's stages (module attributes patched for the duration)."""
    patches = [(compiled_backend, "simplify"), (compiled_backend, "lower"),
               (cpu.CRenderer, "render_program"), (compiled_backend.CompiledBackend, "_build"),
               (compiled_backend.CompiledExecutable, "__init__")]
    names = dict(zip(patches, STAGES))
    saved = [(owner, attr, owner.__dict__[attr]) for owner, attr in patches]
    for owner, attr, fun in saved:
        setattr(owner, attr, _timed(names[(owner, attr)], fun))
    try:
        yield
    finally:
        for owner, attr, fun in saved:
            setattr(owner, attr, fun)


# -- first calls ------------------------------------------------------------------------------

def _leaves(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def transpile_first_call(kernel, args):
    drop_module_entries(cache_root())
    fun = tp.jit(kernel.make(TP_LIB), static_argnums=kernel.static_argnums)
    _stage_seconds.clear()
    started = clock()
    result = [np.asarray(x) for x in _leaves(fun(*args))]
    seconds = clock() - started
    # A first call may have run on the program executor while the module built in the
    # background (transpile/backends/overlapped_build.py): the second call waits for the
    # module, untimed, so that no build is left running under the next measurement. It
    # must give the first call's bits.
    second = [np.asarray(x) for x in _leaves(fun(*args))]
    if not all(np.array_equal(a, b, equal_nan=True) and a.dtype == b.dtype
               for a, b in zip(result, second)):
        raise AssertionError(f"{kernel.name}: the second call differs from the first")
    return seconds, dict(_stage_seconds), fun, result


def _on_device(kernel, args):
    return [a if i in kernel.static_argnums or not isinstance(a, np.ndarray) else
            jnp.asarray(a) for i, a in enumerate(args)]


def jax_first_call(kernel, args):
    jax.clear_caches()
    fun = jax.jit(kernel.make(JAX_LIB), static_argnums=kernel.static_argnums)
    device_args = _on_device(kernel, args)
    started = clock()
    result = jax.block_until_ready(fun(*device_args))
    return clock() - started, fun, [np.asarray(x) for x in _leaves(result)]


def steady_seconds(call, budget=1.0) -> float:
    """Median time of later calls (at least 3, about `budget` seconds in all)."""
    times, end = [], time.perf_counter() + budget
    while len(times) < 3 or time.perf_counter() < end:
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def answers_agree(ours, theirs, rtol) -> bool:
    return len(ours) == len(theirs) and all(
        np.allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                    rtol=max(rtol, 1e-7), atol=1e-7, equal_nan=True)
        for a, b in zip(ours, theirs))


def measure(kernel, preset: str, repeat: int, stages: bool, steady: bool,
            split_compiler: bool = False) -> dict:
    args = kernel.init(kernel.sizes[preset])
    row = {"name": kernel.name}
    runs, split = [], []
    with stage_timers() if stages else contextlib.nullcontext():
        for _ in range(repeat):
            seconds, parts, fun, ours = transpile_first_call(kernel, args)
            runs.append(seconds)
            split.append(parts)
    row["transpile"] = statistics.median(runs)
    if split_compiler:
        row["compiler_split"] = compiler_split()
    if stages:
        row["stages"] = {s: statistics.median(p.get(s, 0.0) for p in split) for s in STAGES}
    if steady:
        row["transpile_steady"] = steady_seconds(lambda: jax_free_call(fun, args))
    if jax is None:
        return row
    try:
        jruns = []
        for _ in range(repeat):
            seconds, jfun, theirs = jax_first_call(kernel, args)
            jruns.append(seconds)
    except Exception as err:            # NPBench's JAX version fails: no ratio for it
        row["jax_error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:120]}"
        return row
    row["jax"] = statistics.median(jruns)
    row["agree"] = answers_agree(ours, theirs, kernel.rtol)
    if steady:
        device_args = _on_device(kernel, args)
        row["jax_steady"] = steady_seconds(lambda: jax.block_until_ready(jfun(*device_args)))
    return row


def compiler_split() -> dict[str, float]:
    """CPU ms of cc1, as and collect2 for the newest module entry, rebuilt in a scratch
    directory with the command its manifest records plus -time (gcc and clang print it)."""
    modules = [e for e in cache_admin.entries(cache_root())
               if e.manifest.get("built", {}).get("kind") != "runtime"]
    if not modules:
        return {}
    entry = max(modules, key=lambda e: os.stat(os.path.join(e.path, "manifest.json")).st_mtime)
    command = shlex.split(entry.manifest["built"]["command"]) + ["-time"]
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copyfile(os.path.join(entry.path, "module.c"), os.path.join(scratch, "module.c"))
        report = subprocess.run(command, cwd=scratch, capture_output=True, text=True).stderr
    parts: dict[str, float] = {}
    for line in report.splitlines():            # "# cc1 0.04 0.00": user and system seconds
        words = line.split()
        if len(words) == 4 and words[0] == "#":
            parts[words[1]] = parts.get(words[1], 0.0) + (float(words[2]) + float(words[3])) * 1e3
    return parts


def jax_free_call(fun, args):
    return [np.asarray(x) for x in _leaves(fun(*args))]


# -- report -----------------------------------------------------------------------------------

def fmt(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:8.1f} ms" if seconds < 1 else f"{seconds:8.2f} s "


def header(before: bool, stages: bool, steady: bool) -> str:
    text = f"{'kernel':14s} {'transpile':>11s} {'jax':>11s} {'tp/jax':>7s}"
    if before:
        text += f" {'before':>11s}"
    if steady:
        text += f" {'tp steady':>11s} {'jax steady':>11s}"
    if stages:
        text += "  " + " ".join(f"{s:>8s}" for s in ("trace",) + STAGES + ("run",))
    return text


def row_line(row, before: dict | None, stages: bool, steady: bool) -> str:
    ours, theirs = row["transpile"], row.get("jax")
    line = f"{row['name']:14s} {fmt(ours):>11s} {fmt(theirs):>11s} " + (
        f"{ours / theirs:7.2f}" if theirs else "      -")
    if before:
        line += f" {fmt(before.get(row['name'])):>11s}"
    if steady:
        line += f" {fmt(row.get('transpile_steady')):>11s} {fmt(row.get('jax_steady')):>11s}"
    if stages:
        parts = row["stages"]
        run = row.get("transpile_steady")
        known = sum(parts.values()) + (run or 0.0)
        cells = [ours - known] + [parts[s] for s in STAGES] + [run]
        line += "  " + " ".join("       -" if c is None else f"{c * 1e3:8.1f}" for c in cells)
    if "compiler_split" in row:
        line += "  " + " ".join(f"{name} {ms:.0f}" for name, ms in row["compiler_split"].items())
    if "jax_error" in row:
        line += f"  (JAX failed: {row['jax_error']})"
    elif row.get("agree") is False:
        line += "  ANSWERS DIFFER"
    return line


def summary(rows) -> list[str]:
    """Print the geometric mean; what missed the targets."""
    ratios = {row["name"]: row["transpile"] / row["jax"] for row in rows if row.get("jax")}
    missed = [f"{name} {r:.2f}x" for name, r in ratios.items() if r > KERNEL_TARGET]
    if ratios:
        geomean = math.exp(statistics.fmean(math.log(r) for r in ratios.values()))
        print(f"\ngeometric mean tp/jax over {len(ratios)} kernels: {geomean:.2f} "
              f"(target <= {GEOMEAN_TARGET}); median {statistics.median(ratios.values()):.2f}")
        if geomean > GEOMEAN_TARGET:
            missed.append(f"geometric mean {geomean:.2f}x")
    return missed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3, help="first calls per kernel (median)")
    p.add_argument("--preset", default="S", help="NPBench's S (default), or tiny (a check)")
    p.add_argument("--only", nargs="*", help="kernels whose name contains one of these")
    p.add_argument("--skip", nargs="*", help="kernels left out (by exact name)")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    p.add_argument("--stages", action="store_true", help="split transpile's first call")
    p.add_argument("--steady", action="store_true", help="add later calls' median times")
    p.add_argument("--compiler-split", action="store_true",
                   help="CPU ms of the compiler's parts (cc1, as, collect2) per module")
    p.add_argument("--save", help="write the rows as JSON")
    p.add_argument("--before", help="a --save file: its transpile times as a column")
    args = p.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]

    print(f"preset {args.preset}; python {platform.python_version()}, "
          f"transpile {tp.__version__}, "
          f"{os.cpu_count()} CPUs, jax {jax.__version__ if jax else 'not installed'}; "
          f"{args.clock} clock; load average {os.getloadavg()[0]:.1f}")
    backend = cpu.backend()
    started = time.perf_counter()
    library = runtime_library.ensure(backend.compiler)
    print(f"runtime library {'built' if library.built_seconds else 'found'} in "
          f"{time.perf_counter() - started:.2f} s (not part of any first call)")
    throwaway = npbench_kernels.by_name()["go_fast"]
    warm_args = throwaway.init(throwaway.sizes["tiny"])
    transpile_first_call(throwaway, warm_args)
    if jax is not None:
        jax_first_call(throwaway, warm_args)

    kernels = npbench_kernels.KERNELS
    if args.only:
        kernels = [k for k in kernels if any(word in k.name for word in args.only)]
    if args.skip:
        kernels = [k for k in kernels if k.name not in args.skip]
    before = None
    if args.before:
        with open(args.before) as f:
            before = {r["name"]: r["transpile"] for r in json.load(f)["rows"]}
    print(header(bool(before), args.stages, args.steady), flush=True)
    rows, failed = [], []
    for kernel in kernels:                      # each row printed as soon as it is measured
        try:
            rows.append(measure(kernel, args.preset, args.repeat, args.stages, args.steady,
                                args.compiler_split))
        except Exception as err:       # a kernel transpile cannot run: said, not hidden
            print(f"{kernel.name}: transpile FAILED: {type(err).__name__}: {err}")
            failed.append(kernel.name)
            continue
        print(row_line(rows[-1], before, args.stages, args.steady), flush=True)
    missed = summary(rows) + [f"{name} failed" for name in failed]
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"clock": args.clock, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
