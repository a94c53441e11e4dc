"""Core benchmark: transpile against eager NumPy, and JAX and Numba when they are installed.

Usage:  python benchmarks/bench_core.py [--quick]

Method
------
* Every implementation runs side by side in this one process, on the same inputs, after a
  warm-up call (which traces/compiles it) and a check that its answer matches NumPy's.
* A timing sample is `inner` back-to-back calls timed with `time.perf_counter` (with the
  garbage collector off), where `inner` is calibrated so that one sample lasts a few
  milliseconds; the per-call time of a sample is its duration / `inner`. The table shows the
  MEDIAN over many samples (robust to the odd slow sample; the min would flatter, the mean
  would be dragged by outliers).
* transpile is timed warm (the compiled specialisation is in memory); JAX calls end with
  `block_until_ready()` and its inputs are already device arrays; Numba is the natural loop
  (or vectorised) version under `numba.njit`. transpile and JAX use every core (OpenMP /
  XLA threads), NumPy mostly one (its BLAS may use more for matmul).
* First-call latency (selu): (a) cold, i.e. trace + compile + load into an empty
  TRANSPILE_CACHE_DIR, each repetition in a new empty directory with a new function object;
  (b) a FRESH PROCESS with a warm disk cache: `sys.executable -c ...` imports transpile
  (timed separately), defines selu and times its first call (trace + disk lookup + load).
  The interpreter start-up and `import numpy` are not counted. Repeated, median reported.
* The whole run uses a temporary TRANSPILE_CACHE_DIR (removed at exit), so it never reads or
  writes your own cache.
* The fresh processes run with bytecode caching allowed (PYTHONDONTWRITEBYTECODE unset):
  an installed package has its .pyc files, and without them the measurement would mostly be
  CPython compiling transpile's own source. The untimed warm-up run writes them.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import types

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

from harness import prepare, settle  # benchmarks/harness.py, beside this script

try:
    import jax
    import jax.numpy as jnp
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None
try:
    import numba
except Exception:
    numba = None

SELU_TARGET = 5.0            # selu: at least this many times faster than eager NumPy
MANDELBROT_TARGET = 5.0      # mandelbrot: likewise (issue 3)
FRESH_FIRST_CALL_MS = 50.0   # fresh process, warm disk cache: first call at most this
OVERHEAD_US = 10.0           # per-call overhead of a tiny scalar function at most this


# -- the kernels, once per framework --------------------------------------------------------

def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)


def sum_squares(x):
    return tnp.sum(x * x)


def softmax(x):
    e = tnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def matmul(a, b):
    return a @ b


def scalar(a):
    return a * 2.0 + 1.0


def mandelbrot(c_re, c_im, iterations=100):
    def step(i, state):
        z_re, z_im, count = state
        re2, im2 = z_re * z_re, z_im * z_im
        inside = re2 + im2 <= 4.0
        return (tnp.where(inside, re2 - im2 + c_re, z_re),
                tnp.where(inside, 2.0 * z_re * z_im + c_im, z_im),
                count + inside.astype(tnp.int32))
    zeros = tnp.zeros_like(c_re)
    return lax.fori_loop(0, iterations, step,
                         (zeros, zeros, tnp.zeros(c_re.shape, dtype=tnp.int32)))[2]


def np_mandelbrot(c_re, c_im, iterations=100):
    z_re, z_im = np.zeros_like(c_re), np.zeros_like(c_re)
    count = np.zeros(c_re.shape, dtype=np.int32)
    for _ in range(iterations):
        re2, im2 = z_re * z_re, z_im * z_im
        inside = re2 + im2 <= 4.0
        z_re, z_im = (np.where(inside, re2 - im2 + c_re, z_re),
                      np.where(inside, 2.0 * z_re * z_im + c_im, z_im))
        count += inside
    return count


def np_selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * np.where(x > 0, x, alpha * np.exp(x) - alpha)


def np_sum_squares(x):
    return np.sum(x * x)


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_matmul(a, b):
    return a @ b


def jax_versions() -> dict:
    def j_selu(x, alpha=1.67, lambda_=1.05):
        return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

    def j_softmax(x):
        e = jnp.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def j_mandelbrot(c_re, c_im):
        def step(i, state):
            z_re, z_im, count = state
            re2, im2 = z_re * z_re, z_im * z_im
            inside = re2 + im2 <= 4.0
            return (jnp.where(inside, re2 - im2 + c_re, z_re),
                    jnp.where(inside, 2.0 * z_re * z_im + c_im, z_im),
                    count + inside.astype(jnp.int32))
        zeros = jnp.zeros_like(c_re)
        return jax.lax.fori_loop(0, 100, step, (zeros, zeros, jnp.zeros(c_re.shape, jnp.int32)))[2]

    return {"selu": j_selu, "sumsq": lambda x: jnp.sum(x * x), "softmax": j_softmax,
            "matmul": lambda a, b: a @ b, "overhead": lambda a: a * 2.0 + 1.0,
            "mandelbrot": j_mandelbrot}


def numba_versions() -> dict:
    njit = numba.njit(cache=False)

    @njit
    def nb_selu(x):
        out = np.empty_like(x)
        for i in range(x.size):
            v = x[i]
            out[i] = 1.05 * (v if v > 0 else 1.67 * np.exp(v) - 1.67)
        return out

    @njit
    def nb_sum_squares(x):
        acc = 0.0
        for i in range(x.size):
            acc += x[i] * x[i]
        return acc

    @njit
    def nb_softmax(x):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            m = x[i, 0]
            for j in range(1, x.shape[1]):
                m = max(m, x[i, j])
            s = 0.0
            for j in range(x.shape[1]):
                out[i, j] = np.exp(x[i, j] - m)
                s += out[i, j]
            for j in range(x.shape[1]):
                out[i, j] /= s
        return out

    @njit
    def nb_matmul(a, b):
        return a @ b

    @njit
    def nb_scalar(a):
        return a * 2.0 + 1.0

    @njit
    def nb_mandelbrot(c_re, c_im):
        count = np.zeros(c_re.shape, dtype=np.int32)
        for r in range(c_re.shape[0]):
            for c in range(c_re.shape[1]):
                z_re = z_im = 0.0
                for _ in range(100):
                    re2, im2 = z_re * z_re, z_im * z_im
                    if re2 + im2 <= 4.0:
                        z_re, z_im = re2 - im2 + c_re[r, c], 2.0 * z_re * z_im + c_im[r, c]
                        count[r, c] += 1
        return count

    return {"selu": nb_selu, "sumsq": nb_sum_squares, "softmax": nb_softmax,
            "matmul": nb_matmul, "overhead": nb_scalar, "mandelbrot": nb_mandelbrot}


def cases() -> list[dict]:
    rng = np.random.default_rng(0)
    x1m = rng.standard_normal(1_000_000, dtype=np.float32)
    sq = rng.standard_normal((1000, 1000), dtype=np.float32)
    a = rng.standard_normal((512, 512), dtype=np.float32)
    b = rng.standard_normal((512, 512), dtype=np.float32)
    return [
        dict(key="selu", label="selu (1M f32)", tp=selu, np=np_selu, args=(x1m,), unit="ms",
             rtol=1e-5),
        dict(key="sumsq", label="sum(x*x) (1M f32)", tp=sum_squares, np=np_sum_squares,
             args=(x1m,), unit="ms", rtol=1e-3),
        dict(key="softmax", label="row softmax (1000x1000 f32)", tp=softmax, np=np_softmax,
             args=(sq,), unit="ms", rtol=1e-5),
        dict(key="matmul", label="matmul (512x512 f32)", tp=matmul, np=np_matmul,
             args=(a, b), unit="ms", rtol=1e-3),
        dict(key="overhead", label="scalar call overhead (float)", tp=scalar, np=scalar,
             args=(1.5,), unit="us", rtol=1e-6),
        dict(key="mandelbrot", label="mandelbrot (400x300, 100 it)", tp=mandelbrot,
             np=np_mandelbrot, args=tuple(np.meshgrid(np.linspace(-2.2, 1.0, 400),
                                                      np.linspace(-1.2, 1.2, 300))),
             unit="ms", rtol=0),
    ]


# -- timing ---------------------------------------------------------------------------------

def calibrate(call, sample_seconds: float) -> int:
    """How many back-to-back calls make one sample of about `sample_seconds`."""
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < sample_seconds:
        call()
        n += 1
    return max(1, round(n * sample_seconds / elapsed))


def median_seconds(calls: dict, repeats: int, sample_seconds: float) -> dict:
    """Median per-call seconds of each warmed-up call in `calls`.

    Samples are interleaved (one sample of each implementation per round), so a burst of
    load from elsewhere on the machine affects every column alike; each is preceded by its
    own untimed calls (harness.settle), so another library's idle threads have stopped
    spinning by then.
    """
    inner = {name: calibrate(call, sample_seconds) for name, call in calls.items()}
    samples = {name: [] for name in calls}
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            for name, call in calls.items():
                n = inner[name]
                settle(call)
                start = time.perf_counter()
                for _ in range(n):
                    call()
                samples[name].append((time.perf_counter() - start) / n)
    finally:
        gc.enable()
    return {name: statistics.median(s) for name, s in samples.items()}


def transpile_call(case):
    f, args = tp.jit(case["tp"]), case["args"]
    return lambda: f(*args)


def numpy_call(case):
    fun, args = case["np"], case["args"]
    return lambda: fun(*args)


def jax_call(fun, case):
    f = jax.jit(fun)
    args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in case["args"])
    jax.block_until_ready(args)
    return lambda: f(*args).block_until_ready()


def numba_call(fun, case):
    args = case["args"]
    return lambda: fun(*args)


def run_cases(cfg) -> list[dict]:
    jax_funs = jax_versions() if jax is not None else {}
    numba_funs = numba_versions() if numba is not None else {}
    rows = []
    for case in cases():
        expected = case["np"](*case["args"])
        makers = {"transpile": lambda: transpile_call(case), "numpy": lambda: numpy_call(case)}
        if jax is not None:
            makers["jax"] = lambda: jax_call(jax_funs[case["key"]], case)
        if numba is not None:
            makers["numba"] = lambda: numba_call(numba_funs[case["key"]], case)
        row = {"case": case, "jax": "not installed", "numba": "not installed"}
        calls = {}
        for name, make in makers.items():
            call = prepare(make, expected, case)
            if isinstance(call, str):
                row[name] = call
            else:
                calls[name] = call
        row.update(median_seconds(calls, cfg.repeats, cfg.sample_seconds))
        rows.append(row)
    return rows


# -- first-call latency -----------------------------------------------------------------------

def cold_first_call_ms(cfg, x) -> list[float]:
    """Trace + compile + load of selu, each time into a new empty cache directory."""
    times = []
    for _ in range(cfg.cold_repeats):
        with tempfile.TemporaryDirectory(prefix="tp-bench-cold-") as root:
            os.environ["TRANSPILE_CACHE_DIR"] = root
            fresh = _copy_function(selu)             # the memory cache is per function object
            start = time.perf_counter()
            tp.jit(fresh)(x)
            times.append(1e3 * (time.perf_counter() - start))
    return times


def _copy_function(fun):
    return types.FunctionType(fun.__code__, fun.__globals__, fun.__name__, fun.__defaults__,
                              fun.__closure__)


FRESH_PROCESS = textwrap.dedent("""
    import json, time
    import numpy as np
    t0 = time.perf_counter()
    import transpile as tp, transpile.numpy as tnp
    t1 = time.perf_counter()

    def selu(x, alpha=1.67, lambda_=1.05):
        return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)

    x = np.random.default_rng(0).standard_normal(1_000_000, dtype=np.float32)
    f = tp.jit(selu)
    t2 = time.perf_counter()
    f(x)
    t3 = time.perf_counter()
    info = f.cache_info()
    print(json.dumps({"import_ms": 1e3 * (t1 - t0), "first_call_ms": 1e3 * (t3 - t2),
                      "disk_hits": info.disk_hits, "disk_misses": info.disk_misses}),
          flush=True)
""")



def fresh_process_runs(cfg, cache_dir: str) -> list[dict]:
    """Runs of FRESH_PROCESS sharing `cache_dir`; a first, untimed run warms the disk cache."""
    env = dict(os.environ, TRANSPILE_CACHE_DIR=cache_dir)
    env.pop("TRANSPILE_LOG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)     # see the module docstring
    runs = []
    for _ in range(cfg.fresh_repeats + 1):
        proc = subprocess.run([sys.executable, "-c", FRESH_PROCESS], env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"fresh-process run failed (exit {proc.returncode}):\n"
                               f"{proc.stderr[-3000:]}")
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return runs[1:]


# -- report -----------------------------------------------------------------------------------

def fmt_time(value, unit: str) -> str:
    if isinstance(value, str):
        return value
    scale = {"ms": 1e3, "us": 1e6}[unit]
    return f"{value * scale:.3f} {unit}" if value * scale < 10 else f"{value * scale:.1f} {unit}"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def target_text(row) -> str:
    key, tp_t, np_t = row["case"]["key"], row["transpile"], row["numpy"]
    if isinstance(tp_t, str):
        return ""
    if key == "selu" and not isinstance(np_t, str):
        return f">= {SELU_TARGET:g}x  {verdict(np_t / tp_t >= SELU_TARGET)}"
    if key == "mandelbrot" and not isinstance(np_t, str):
        return f">= {MANDELBROT_TARGET:g}x  {verdict(np_t / tp_t >= MANDELBROT_TARGET)}"
    if key == "overhead":
        return f"<= {OVERHEAD_US:g} us  {verdict(tp_t * 1e6 <= OVERHEAD_US)}"
    return ""


def print_table(rows) -> None:
    header = (f"{'case':<30}{'transpile':>12}{'numpy':>12}{'numpy/tp':>10}"
              f"{'jax':>16}{'numba':>16}   target")
    print(header)
    print("-" * len(header))
    for row in rows:
        case, unit = row["case"], row["case"]["unit"]
        tp_t, np_t = row["transpile"], row["numpy"]
        ratio = ("" if isinstance(tp_t, str) or isinstance(np_t, str)
                 else f"{np_t / tp_t:.2f}x")
        print(f"{case['label']:<30}{fmt_time(tp_t, unit):>12}{fmt_time(np_t, unit):>12}"
              f"{ratio:>10}{fmt_time(row['jax'], unit):>16}{fmt_time(row['numba'], unit):>16}"
              f"   {target_text(row)}")
    print("(overhead row: 'numpy' is the same function called eagerly, i.e. plain Python)")


def print_first_calls(cold, fresh) -> None:
    imports = statistics.median(r["import_ms"] for r in fresh)
    firsts = [r["first_call_ms"] for r in fresh]
    first = statistics.median(firsts)
    compiled = sum(r["disk_misses"] for r in fresh)
    print()
    print("first call of selu (1M f32), median                              time   target")
    print(f"  cold: trace + compile + load, empty cache ({len(cold)} runs) "
          f"{statistics.median(cold):>12.1f} ms")
    print(f"  fresh process, warm disk cache ({len(fresh)} runs):")
    print(f"    import transpile{'':<38}{imports:>12.1f} ms")
    print(f"    first call: trace + disk lookup + load{'':<16}{first:>12.1f} ms   "
          f"<= {FRESH_FIRST_CALL_MS:g} ms  {verdict(first <= FRESH_FIRST_CALL_MS)}")
    print(f"    (all runs: {', '.join(f'{t:.1f}' for t in firsts)} ms; "
          f"disk hits {sum(r['disk_hits'] for r in fresh)}/{len(fresh)}"
          + (f"; WARNING: {compiled} run(s) recompiled" if compiled else "") + ")")


def print_environment(cfg) -> None:
    versions = [f"numpy {np.__version__}", f"transpile {tp.__version__}",
                f"jax {jax.__version__}" if jax is not None else "jax not installed",
                f"numba {numba.__version__}" if numba is not None else "numba not installed"]
    print(f"bench_core ({'quick' if cfg.quick else 'full'}): {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; "
          + ", ".join(versions))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"median of {cfg.repeats} interleaved samples of ~{cfg.sample_seconds * 1e3:g} ms "
          f"each; all implementations in one process; load average {load:.2f}"
          + ("\nWARNING: the machine is busy; timings will be noisy (OpenMP kernels, whose "
             "threads wait for each other, suffer most)"
             if load > 0.5 * (os.cpu_count() or 1) else "") + "\n")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    cfg = p.parse_args(argv)
    cfg.repeats = 11 if cfg.quick else 51
    cfg.sample_seconds = 0.002 if cfg.quick else 0.005
    cfg.cold_repeats = 2 if cfg.quick else 5
    cfg.fresh_repeats = 3 if cfg.quick else 5
    return cfg


def main(argv=None) -> None:
    cfg = parse_args(argv)
    root = tempfile.mkdtemp(prefix="tp-bench-cache-")
    saved = os.environ.get("TRANSPILE_CACHE_DIR")
    try:
        print_environment(cfg)
        os.environ["TRANSPILE_CACHE_DIR"] = root
        rows = run_cases(cfg)
        x = cases()[0]["args"][0]
        cold = cold_first_call_ms(cfg, x)
        os.environ["TRANSPILE_CACHE_DIR"] = root
        fresh = fresh_process_runs(cfg, root)
        print_table(rows)
        print_first_calls(cold, fresh)
    finally:
        if saved is None:
            os.environ.pop("TRANSPILE_CACHE_DIR", None)
        else:
            os.environ["TRANSPILE_CACHE_DIR"] = saved
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
