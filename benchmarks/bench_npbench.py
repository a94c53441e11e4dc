"""Steady-state speed of NPBench's 53 kernels (preset S): NumPy, transpile and JAX side by
side in one process (issue 23).

Usage:
    PYTHONPATH=$PWD /tmp/jaxenv/bin/python benchmarks/bench_npbench.py \
        [--preset S] [--only NAME ...] [--skip NAME ...] [--repeats 7] [--stat median|min]
        [--save FILE.json] [--before FILE.json]

The kernels are benchmarks/npbench_kernels.py: NPBench's JAX versions written once against a
library namespace (transpile traces them with `transpile.numpy`/`lax`/`jit`, JAX with
`jax.numpy`/`jax.lax`/`jax.jit`), each with a NumPy reference that is also the NumPy column.
Without JAX (another interpreter) the JAX column says "not installed".

Method
------
* Inputs come from the kernel's initializer at the preset's sizes; the NumPy reference runs
  first, and its answer checks every other column: a kernel whose transpile answer differs
  (rtol of the kernel, NaNs equal) is a FAIL, and is not timed.
* The first call of each jitted function compiles and is not timed. JAX gets its arrays on
  the device beforehand (as NPBench's JAX framework does) and is timed until the results are
  ready; transpile is timed until it returns NumPy arrays.
* A sample is `inner` back-to-back calls, calibrated to last about --sample seconds; the
  samples of transpile and JAX alternate (each after an untimed settling call, see
  harness.settle), --repeats of them (fewer for slow kernels: a time budget per kernel,
  never fewer than 3). NumPy's reference is timed the same way with fewer repeats (some are
  Python loops taking seconds).
* The table shows the median per-call time (or the minimum, --stat min: on a machine shared
  with other jobs, the minimum is the least disturbed sample), transpile's speed-up over
  NumPy and over JAX (JAX time / transpile time: above 1, transpile is faster), their
  geometric means, and the kernels under TARGET_EACH of JAX's speed.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

import npbench_kernels                  # benchmarks/, beside this script
from harness import settle

try:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)       # NPBench's data are float64
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None

TARGET_EACH = 0.5          # issue 23: no kernel below half of JAX's speed
TARGET_GEOMEAN = 1.5       # ... and the geometric mean at least 1.5x JAX

TP_LIB = npbench_kernels.library(tnp, lax, tp.jit)
JAX_LIB = npbench_kernels.library(jnp, jax.lax, jax.jit) if jax else None


# -- answers ------------------------------------------------------------------------------------

def _leaves(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _widened(x):
    x = np.asarray(x)
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def disagreement(got, expected, rtol) -> str | None:
    """None when `got` matches the reference, else what differs."""
    got, expected = _leaves(got), _leaves(expected)
    if len(got) != len(expected):
        return f"{len(got)} results, the reference has {len(expected)}"
    for n, (g, e) in enumerate(zip(got, expected)):
        g, e = _widened(g), _widened(e)
        if g.shape != e.shape:
            return f"result {n}: shape {g.shape}, the reference's {e.shape}"
        if not np.allclose(g, e, rtol=rtol, atol=rtol, equal_nan=True):
            return f"result {n}: differs by up to {np.nanmax(np.abs(g - e)):.3g}"
    return None


# -- timing ---------------------------------------------------------------------------------------

def calibrate(call, sample_seconds) -> int:
    """Calls per sample of about `sample_seconds` (at least one)."""
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < sample_seconds:
        call()
        n += 1
    return max(1, round(n * sample_seconds / elapsed))


def sample_times(calls: dict, repeats: int, sample_seconds: float, budget: float) -> dict:
    """Per-call seconds of each call, `repeats` samples each, interleaved."""
    inner = {name: calibrate(call, sample_seconds) for name, call in calls.items()}
    one_round = sum(inner[n] * _one(calls[n]) for n in calls) + 0.2 * len(calls)
    repeats = max(3, min(repeats, int(budget / max(one_round, 1e-9))))
    samples = {name: [] for name in calls}
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            for name, call in calls.items():
                settle(call)
                start = time.perf_counter()
                for _ in range(inner[name]):
                    call()
                samples[name].append((time.perf_counter() - start) / inner[name])
    finally:
        gc.enable()
    return samples


def _one(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _on_device(kernel, args):
    return [a if i in kernel.static_argnums or not isinstance(a, np.ndarray) else
            jnp.asarray(a) for i, a in enumerate(args)]


def measure(kernel, cfg) -> dict:
    args = kernel.init(kernel.sizes[cfg.preset])
    row = {"name": kernel.name}
    expected = kernel.reference(*args)
    calls = {}
    try:
        fun = tp.jit(kernel.make(TP_LIB), static_argnums=kernel.static_argnums)
        started = time.perf_counter()
        wrong = disagreement(fun(*args), expected, kernel.rtol)
        row["transpile_first"] = time.perf_counter() - started
    except Exception as err:            # a kernel transpile cannot run: said, not hidden
        wrong = f"{type(err).__name__}: {str(err).splitlines()[0][:100]}"
    if wrong:
        row["transpile_error"] = wrong
    else:
        calls["transpile"] = lambda: fun(*args)
    if jax is not None:
        try:
            jfun = jax.jit(kernel.make(JAX_LIB), static_argnums=kernel.static_argnums)
            device_args = _on_device(kernel, args)
            jwrong = disagreement(jax.block_until_ready(jfun(*device_args)), expected,
                                  kernel.rtol)
        except Exception as err:
            jwrong = f"{type(err).__name__}: {str(err).splitlines()[0][:100]}"
        if jwrong:
            row["jax_error"] = jwrong
        else:
            calls["jax"] = lambda: jax.block_until_ready(jfun(*device_args))
    for name, times in sample_times(calls, cfg.repeats, cfg.sample, cfg.budget).items():
        row[name] = times
    numpy_times = sample_times({"numpy": lambda: kernel.reference(*args)},
                               max(3, cfg.repeats // 2), cfg.sample, cfg.budget / 2)
    row.update(numpy_times)
    return row


# -- report -------------------------------------------------------------------------------------

def fmt(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:10.3f}"


def stat_of(row, who, stat):
    times = row.get(who)
    if not times:
        return None
    return min(times) if stat == "min" else statistics.median(times)


def geometric_mean(values):
    values = [v for v in values if v]
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else None


def header(before: bool) -> str:
    text = (f"{'kernel':26s} {'numpy ms':>10s} {'tp ms':>10s} {'jax ms':>10s} "
            f"{'tp/np x':>8s} {'vs jax x':>8s}")
    return text + (f" {'before ms':>10s}" if before else "")


def row_line(row, stat, before) -> str:
    np_t, tp_t, jax_t = (stat_of(row, w, stat) for w in ("numpy", "transpile", "jax"))
    speedup = f"{np_t / tp_t:8.2f}" if np_t and tp_t else "       -"
    vs_jax = f"{jax_t / tp_t:8.2f}" if jax_t and tp_t else "       -"
    line = f"{row['name']:26s} {fmt(np_t)} {fmt(tp_t)} {fmt(jax_t)} {speedup} {vs_jax}"
    if before is not None:
        line += f" {fmt(before.get(row['name']))}"
    for who in ("transpile", "jax"):
        if f"{who}_error" in row:
            line += f"  ({who} FAILED: {row[f'{who}_error']})"
    return line


def summary(rows, stat) -> list[str]:
    vs_np, vs_jax = {}, {}
    for row in rows:
        np_t, tp_t, jax_t = (stat_of(row, w, stat) for w in ("numpy", "transpile", "jax"))
        if tp_t and np_t:
            vs_np[row["name"]] = np_t / tp_t
        if tp_t and jax_t:
            vs_jax[row["name"]] = jax_t / tp_t
    failed = [row["name"] for row in rows if "transpile_error" in row]
    print(f"\ntranspile passes {len(rows) - len(failed)}/{len(rows)}"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    g_np, g_jax = geometric_mean(vs_np.values()), geometric_mean(vs_jax.values())
    if g_np:
        print(f"geometric mean speed-up over NumPy ({len(vs_np)} kernels): {g_np:.2f}x")
    missed = [f"{len(failed)} failing"] if failed else []
    if g_jax:
        print(f"geometric mean speed vs JAX ({len(vs_jax)} kernels): {g_jax:.2f}x "
              f"(target >= {TARGET_GEOMEAN})")
        slow = sorted((r, n) for n, r in vs_jax.items() if r < TARGET_EACH)
        print(f"below {TARGET_EACH}x JAX: "
              + (", ".join(f"{n} {r:.2f}x" for r, n in slow) if slow else "none"))
        if g_jax < TARGET_GEOMEAN:
            missed.append(f"geometric mean {g_jax:.2f}x")
        missed += [f"{n} {r:.2f}x" for r, n in slow]
    return missed


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="S", help="NPBench's S (default), or tiny (a check)")
    p.add_argument("--only", nargs="*", help="kernels whose name contains one of these")
    p.add_argument("--skip", nargs="*", help="kernels left out (by exact name)")
    p.add_argument("--repeats", type=int, default=7, help="samples per column, at most")
    p.add_argument("--sample", type=float, default=0.05, help="seconds per sample, about")
    p.add_argument("--budget", type=float, default=6.0, help="seconds per kernel, about")
    p.add_argument("--stat", choices=("median", "min"), default="median")
    p.add_argument("--save", help="write the samples as JSON")
    p.add_argument("--before", help="a --save file: its transpile times as a column")
    return p.parse_args(argv)


def main(argv=None) -> int:
    cfg = parse_args(argv)
    print(f"preset {cfg.preset}; python {platform.python_version()}, numpy {np.__version__}, "
          f"transpile {tp.__version__}, jax {jax.__version__ if jax else 'not installed'}; "
          f"{os.cpu_count()} CPUs; {cfg.stat} of up to {cfg.repeats} samples; "
          f"load average {os.getloadavg()[0]:.1f}")
    kernels = npbench_kernels.KERNELS
    if cfg.only:
        kernels = [k for k in kernels if any(word in k.name for word in cfg.only)]
    if cfg.skip:
        kernels = [k for k in kernels if k.name not in cfg.skip]
    before = None
    if cfg.before:
        with open(cfg.before) as f:
            before = {r["name"]: stat_of(r, "transpile", cfg.stat) for r in json.load(f)["rows"]}
    print(header(before is not None), flush=True)
    rows = []
    for kernel in kernels:                     # each row printed as soon as it is measured
        rows.append(measure(kernel, cfg))
        print(row_line(rows[-1], cfg.stat, before), flush=True)
    missed = summary(rows, cfg.stat)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    if cfg.save:
        with open(cfg.save, "w") as f:
            json.dump({"preset": cfg.preset, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
