"""The compiled jnp.linalg.svd on small matrices (min(m, n) <= 25, where it follows LAPACK's
xGESDD route, runtime/include/tp_svd_route_impl.h) beside NumPy's LAPACK and, when JAX is
installed, JAX's jitted svd: median time per call and the ratios, in one process.

Usage:
    PYTHONPATH=$PWD python benchmarks/bench_svd_small.py [--repeat 7] [--calls 20]
    PYTHONPATH=$PWD /tmp/jaxenv/bin/python benchmarks/bench_svd_small.py   # with JAX
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp

SHAPES = [(2000, 5, 5), (30, 5), (25, 25), (200, 12, 12), (60, 25), (5, 30)]


def median_seconds(call, repeat, calls):
    call()                                      # compile / warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def jax_svd():
    try:
        import jax
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    f = jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=False))
    return lambda a: jax.block_until_ready(f(a))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    compiled = tp.jit(lambda a: tnp.linalg.svd(a, full_matrices=False))
    with_jax = jax_svd()
    print(f"load {os.getloadavg()[0]:.1f}; float64; median of {args.repeat} x {args.calls} calls")
    print(f"{'shape':14} {'transpile ms':>13} {'NumPy ms':>9} {'NumPy/tp':>9}"
          + (f" {'JAX ms':>8} {'JAX/tp':>7}" if with_jax else ""))
    rng = np.random.default_rng(0)
    for shape in SHAPES:
        a = rng.standard_normal(shape)
        t_tp = median_seconds(lambda: compiled(a), args.repeat, args.calls)
        t_np = median_seconds(lambda: np.linalg.svd(a, full_matrices=False), args.repeat,
                              args.calls)
        row = f"{str(shape):14} {t_tp * 1e3:13.3f} {t_np * 1e3:9.3f} {t_np / t_tp:9.2f}"
        if with_jax:
            t_jax = median_seconds(lambda: with_jax(a), args.repeat, args.calls)
            row += f" {t_jax * 1e3:8.3f} {t_jax / t_tp:7.2f}"
        print(row)


if __name__ == "__main__":
    main()
