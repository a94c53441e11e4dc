"""Dispatch cost: microseconds per memory-hit call of tiny jitted functions.

Usage:  python benchmarks/bench_dispatch.py [--calls 100000] [--profile]

Method: each function is called twice first (trace + compile, then the first memory hit,
which prepares the fast path), then `--calls` back-to-back calls are timed, five times; the
table shows the best of the five in two clocks: the calling thread's CPU time
(`time.thread_time`, which time spent descheduled by other processes does not inflate: the
trustworthy figure on a shared machine) and wall time (`time.perf_counter`). The same
operation in eager NumPy is shown for scale. `--profile` prints where the time of the first
case goes (cProfile over the same calls). Target (issue 8): two 8-element arrays, one add,
at most 3 us per call.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time

import numpy as np

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-dispatch-"))

import transpile as tp  # noqa: E402  (after the cache directory is chosen)
import transpile.numpy as tnp  # noqa: E402

TARGET_US = 3.0


def _add(a, b):
    return a + b


def _affine(a):
    return a * 2.0 + 1.0


def _pair(a, b):
    return a + b, a * b


CASES = [
    ("two f64[8] arrays, one add", _add, (np.arange(8.0), np.ones(8)), TARGET_US),
    ("f64[8] array + Python float", _add, (np.arange(8.0), 2.0), None),
    ("one Python float, a * 2.0 + 1.0", _affine, (1.5,), None),
    ("two f64[8] arrays, a tuple of two results", _pair, (np.arange(8.0), np.ones(8)), None),
    ("two eager tnp f64[8] arrays (EagerArray), one add", _add,
     (tnp.arange(8.0), tnp.ones(8)), None),
]


def per_call_us(fn, args, calls: int, clock) -> float:
    best = float("inf")
    for _ in range(5):
        start = clock()
        for _ in range(calls):
            fn(*args)
        best = min(best, (clock() - start) / calls)
    return best * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--profile", action="store_true")
    opts = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{opts.calls} calls per sample, best of 5")
    print(f"{'case':<52} {'cpu us':>8} {'wall us':>8} {'numpy us':>9}")
    for label, fun, args, target in CASES:
        jitted = tp.jit(fun)
        jitted(*args), jitted(*args)
        cpu = per_call_us(jitted, args, opts.calls, time.thread_time)
        wall = per_call_us(jitted, args, opts.calls, time.perf_counter)
        eager = per_call_us(fun, args, opts.calls, time.thread_time)
        verdict = "" if target is None else ("  PASS" if cpu <= target else f"  over {target}")
        print(f"{label:<52} {cpu:>8.2f} {wall:>8.2f} {eager:>9.2f}{verdict}")
    if opts.profile:
        label, fun, args, _ = CASES[0]
        jitted = tp.jit(fun)
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [jitted(*args) for _ in range(opts.calls)])
        print(f"\nwhere the time of '{label}' goes:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(8)


if __name__ == "__main__":
    main()
