"""Soak: resident memory stays flat over many calls, and bounded over many shapes.

    python benchmarks/soak.py [--calls 1000000] [--shapes 2000]

Phase 1 calls one warm jitted function `--calls` times and samples RSS; phase 2 calls a
function on `--shapes` distinct shapes (each one a compile, since the cache directory is a
fresh temporary one) and samples RSS, the memory cache's size and the number of compiled
modules still mapped. With the per-function memory bound (TRANSPILE_MEMORY_CACHE_SIZE,
default 64) and modules unloaded on eviction, both should level off. A script, not a test:
phase 2 compiles once per shape and takes minutes.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def mapped_modules(cache_dir: str) -> int:
    with open("/proc/self/maps") as f:
        return len({line.split()[-1] for line in f if cache_dir in line})


def soak_calls(tp, calls: int) -> None:
    f = tp.jit(lambda x, y: x * y + 1.0)
    x, y = np.arange(8.0), np.ones(8)
    for _ in range(10_000):                              # warm: compile, allocator pools
        f(x, y)
    gc.collect()
    start = rss_mib()
    step = max(1, calls // 10)
    print(f"phase 1: {calls:,} calls of a warm function (two 8-element float64 arrays)")
    print(f"  {'calls':>10}  {'RSS MiB':>8}")
    print(f"  {0:>10,}  {start:8.1f}")
    began = time.perf_counter()
    for done in range(step, calls + 1, step):
        for _ in range(step):
            f(x, y)
        print(f"  {done:>10,}  {rss_mib():8.1f}")
    seconds = time.perf_counter() - began
    print(f"  RSS change {rss_mib() - start:+.1f} MiB; {1e6 * seconds / calls:.2f} us per call")


def soak_shapes(tp, tnp, shapes: int, cache_dir: str) -> None:
    g = tp.jit(lambda v: tnp.sum(v * 2.0) + 1.0)
    gc.collect()
    start = rss_mib()
    step = max(1, shapes // 10)
    print(f"\nphase 2: {shapes:,} shapes (one compile each)")
    print(f"  {'shapes':>8}  {'RSS MiB':>8}  {'in memory':>9}  {'modules mapped':>14}")
    print(f"  {0:>8,}  {start:8.1f}  {0:>9}  {mapped_modules(cache_dir):>14}")
    began = time.perf_counter()
    for n in range(1, shapes + 1):
        x = np.ones(n)
        assert g(x) == 2.0 * n + 1.0
        if n % step == 0:
            gc.collect()
            print(f"  {n:>8,}  {rss_mib():8.1f}  {g.cache_info().entries:>9}  "
                  f"{mapped_modules(cache_dir):>14}")
    print(f"  RSS change {rss_mib() - start:+.1f} MiB over {shapes:,} shapes "
          f"({time.perf_counter() - began:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--shapes", type=int, default=2000)
    args = parser.parse_args()
    cache_dir = tempfile.mkdtemp(prefix="transpile-soak-")
    os.environ["TRANSPILE_CACHE_DIR"] = cache_dir
    import transpile as tp
    import transpile.numpy as tnp
    try:
        soak_calls(tp, args.calls)
        soak_shapes(tp, tnp, args.shapes, cache_dir)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
