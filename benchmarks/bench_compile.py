"""First-call time (trace + build + one run) of everyday programs, transpile beside JAX.

Usage:
    PYTHONPATH=$PWD python benchmarks/bench_compile.py [--repeat 3] [--only NAME ...]
    PYTHONPATH=$PWD /tmp/jaxenv/bin/python benchmarks/bench_compile.py   # with the JAX column

What is timed
-------------
* "runtime build": the one-time build of transpile's runtime kernel library (GEMM, sorts,
  factorizations, ...; transpile/runtime/runtime_library.py) into an empty cache directory.
  It happens once per machine (compiler, flags and CPU), so it is reported apart.
* Each program's first call with a cold module cache and a warm runtime library: a fresh
  function object is jitted and called once (trace, generate C, compile, load, run); before
  each repeat every cache entry except the runtime library is removed, so nothing of the
  program is found on disk or in memory. JAX likewise jits a fresh function object (its
  in-memory caches are keyed by the function) and waits for the result.
* Before the table, one untimed throwaway program warms each library's Python side up
  (imports, first-use caches), as any program a user runs would have done already.
`--clock cpu` counts CPU time (this process's threads and the compiler processes) instead
of wall time: on a machine loaded by other jobs it stays put where wall time swings.
The table shows the median over `--repeat` first calls and JAX time / transpile time
(>= 1: transpile's first call is faster). The targets (issue 22): the MLP's cold first call
at most 0.3 s; programs with a matrix product at most 1.5x JAX's first call.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-compile-"))

import transpile as tp  # noqa: E402  (after the cache directory is chosen)
import transpile.numpy as tnp  # noqa: E402
from transpile import lax  # noqa: E402
from transpile.runtime import cache_admin  # noqa: E402
from transpile.runtime.cache_location import cache_root  # noqa: E402
from transpile.runtime.disk_cache import discard_entry  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)      # the float64 programs stay float64
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None

MLP_TARGET_S = 0.3
MATMUL_TARGET_RATIO = 1.5     # transpile first call / JAX first call, at most


# -- the programs: each maker returns a fresh function over a NumPy-like module `xp` and a
# -- lax-like module `xl`, so both libraries trace the same program ----------------------------

def make_elementwise(xp, xl):
    def elementwise(x, y):
        return xp.sin(x) * 2.0 + xp.exp(-y * y) / (1.0 + xp.abs(x))
    return elementwise


def make_reductions(xp, xl):
    def reductions(x):
        return x.sum(axis=0) + x.max(axis=0) - xp.mean(x, axis=0)
    return reductions


def make_matmul(xp, xl):
    def matmul(a, b):
        return a @ b
    return matmul


def make_mlp(xp, xl):
    def mlp(x, w1, b1, w2, b2):
        h = xp.maximum(x @ w1 + b1, 0.0)
        logits = h @ w2 + b2
        e = xp.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return mlp


def make_solve(xp, xl):
    def solve(a, b):
        return xp.linalg.solve(a, b)
    return solve


def make_sort(xp, xl):
    def sort(x):
        return xp.sort(x, axis=-1)
    return sort


def make_fori_loop(xp, xl):
    def fori_loop(x):
        def step(i, carry):
            return carry * 0.5 + xp.sin(carry) + i
        return xl.fori_loop(0, 100, step, x)
    return fori_loop


def make_throwaway(xp, xl):
    def throwaway(x):
        return x + 1.0
    return throwaway


def programs(rng) -> list[tuple[str, object, tuple, bool]]:
    """(name, maker, arguments, has a matrix product) for each row."""
    f32, f64 = np.float32, np.float64

    def arr(*shape, dtype=f64):
        return rng.standard_normal(shape).astype(dtype)

    spd = arr(64, 64)
    spd = spd @ spd.T + 64 * np.eye(64)
    return [
        ("elementwise 1000x1000 f64", make_elementwise, (arr(1000, 1000), arr(1000, 1000)),
         False),
        ("reductions 1000x1000 f64", make_reductions, (arr(1000, 1000),), False),
        ("matmul 256x256 f32", make_matmul, (arr(256, 256, dtype=f32),
                                             arr(256, 256, dtype=f32)), True),
        ("mlp 128x784->256->10 f32", make_mlp,
         (arr(128, 784, dtype=f32), arr(784, 256, dtype=f32), arr(256, dtype=f32),
          arr(256, 10, dtype=f32), arr(10, dtype=f32)), True),
        ("linalg solve 64x64 f64", make_solve, (spd, arr(64, 8)), False),
        ("sort 100x1000 f64", make_sort, (arr(100, 1000),), False),
        ("fori_loop 100 steps 1000 f64", make_fori_loop, (arr(1000),), False),
    ]


# -- timing -----------------------------------------------------------------------------------

def drop_module_entries(root: str) -> None:
    """Every disk-cache entry except the runtime library's: the next build is cold."""
    for entry in cache_admin.entries(root):
        if entry.manifest.get("built", {}).get("kind") != "runtime":
            discard_entry(entry.path)


def cpu_seconds() -> float:
    """CPU time of this process (all its threads) and of its finished children (the C
    compiler): what a first call costs, whatever else the machine is running."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


CLOCKS = {"wall": time.perf_counter, "cpu": cpu_seconds}
clock = time.perf_counter


def transpile_first_call(maker, args) -> float:
    drop_module_entries(cache_root())
    fun = tp.jit(maker(tnp, lax))
    started = clock()
    np.asarray(fun(*args))
    return clock() - started


def jax_first_call(maker, args) -> float:
    fun = jax.jit(maker(jnp, jax.lax))
    device_args = [jnp.asarray(a) for a in args]
    started = clock()
    fun(*device_args).block_until_ready()
    return clock() - started


def runtime_build_seconds() -> str:
    """Build the runtime library into the (empty) cache directory; how long it took."""
    try:
        from transpile.runtime import runtime_library
    except ImportError:
        return "none (this version compiles the kernels into every module)"
    from transpile.backends import cpu
    backend = cpu.backend()
    if not hasattr(backend, "compiler"):
        return "none (no C compiler)"
    started = time.perf_counter()
    library = runtime_library.ensure(backend.compiler)
    seconds = time.perf_counter() - started
    try:
        with open(os.path.join(os.path.dirname(library.path), "manifest.json")) as f:
            cpu = json.load(f)["built"]["compiler_cpu_seconds"]
    except (OSError, KeyError, ValueError):
        return f"{seconds:.2f} s"
    return f"{seconds:.2f} s ({cpu:.2f} s of compiler CPU time)"


def fmt(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:8.1f} ms" if seconds < 1 else f"{seconds:8.2f} s "


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3, help="first calls per program (median)")
    p.add_argument("--only", nargs="*", help="programs whose name contains one of these")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="cpu: process + compiler CPU time (steady on a busy machine; counts "
                        "every thread, so JAX's parallel compiles count in full)")
    args = p.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]

    print(f"python {platform.python_version()}, transpile {tp.__version__}, "
          f"{os.cpu_count()} CPUs, jax {jax.__version__ if jax else 'not installed'}")
    print(f"cache directory {cache_root()}; {args.clock} clock; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"one-time runtime build: {runtime_build_seconds()}")
    rng = np.random.default_rng(0)
    rows = programs(rng)
    if args.only:
        rows = [r for r in rows if any(word in r[0] for word in args.only)]
    warm = (np.ones(4),)
    transpile_first_call(make_throwaway, warm)
    if jax is not None:
        jax_first_call(make_throwaway, warm)

    print(f"\n{'program':32s} {'transpile':>11s} {'jax':>11s} {'jax/tp':>7s}")
    failed = []
    for name, maker, call_args, has_product in rows:
        ours = statistics.median(transpile_first_call(maker, call_args)
                                 for _ in range(args.repeat))
        theirs = None
        if jax is not None:
            theirs = statistics.median(jax_first_call(maker, call_args)
                                       for _ in range(args.repeat))
        ratio = f"{theirs / ours:7.2f}" if theirs else "      -"
        print(f"{name:32s} {fmt(ours):>11s} {fmt(theirs):>11s} {ratio}")
        if name.startswith("mlp") and ours > MLP_TARGET_S:
            failed.append(f"{name}: {ours:.2f} s > {MLP_TARGET_S} s")
        if has_product and theirs and ours > MATMUL_TARGET_RATIO * theirs:
            failed.append(f"{name}: {ours / theirs:.2f}x JAX > {MATMUL_TARGET_RATIO}x")
    print("\ntargets: " + ("met" if not failed else "MISSED: " + "; ".join(failed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
