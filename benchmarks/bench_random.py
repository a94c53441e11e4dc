"""transpile.random against NumPy's generator (and jax.random when JAX is importable).

Usage:  python benchmarks/bench_random.py [--n 1000000]

Each sampler draws n float32 values (uniform, normal) or int32 values (randint) from a key
passed as an argument, so the compiled function is reused across calls. Timed warm (after
one call that compiles), median over repeated samples of a few back-to-back calls; NumPy is
`np.random.default_rng(0)` (PCG64, a different stream: the comparison is speed only). The
run uses a temporary TRANSPILE_CACHE_DIR.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np


def median_seconds(fn, repeats=15, inner=3):
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    n = parser.parse_args().n
    os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-random-"))
    import transpile as tp
    from transpile import random as R

    key = R.PRNGKey(0)
    rng = np.random.default_rng(0)
    cases = {
        "uniform": (tp.jit(lambda k: R.uniform(k, (n,))),
                    lambda: rng.random(n, dtype=np.float32), "uniform"),
        "normal": (tp.jit(lambda k: R.normal(k, (n,))),
                   lambda: rng.standard_normal(n, dtype=np.float32), "normal"),
        "randint": (tp.jit(lambda k: R.randint(k, (n,), 0, 100)),
                    lambda: rng.integers(0, 100, n, dtype=np.int32), "randint"),
    }
    jax_fns = {}
    try:
        import jax
        from jax import random as JR
        jkey = JR.PRNGKey(0)
        jax_fns = {"uniform": jax.jit(lambda k: JR.uniform(k, (n,))),
                   "normal": jax.jit(lambda k: JR.normal(k, (n,))),
                   "randint": jax.jit(lambda k: JR.randint(k, (n,), 0, 100))}
    except ImportError:
        jkey = None
    print(f"n = {n}; median seconds per call (ratio = NumPy / transpile)")
    print(f"{'sampler':10s} {'transpile':>10s} {'numpy':>10s} {'ratio':>7s} {'jax':>10s}")
    for name, (ours, numpy_fn, _) in cases.items():
        t_ours = median_seconds(lambda: ours(key))
        t_np = median_seconds(numpy_fn)
        t_jax = ""
        if name in jax_fns:
            fn = jax_fns[name]
            t_jax = f"{median_seconds(lambda: fn(jkey).block_until_ready()):10.5f}"
        print(f"{name:10s} {t_ours:10.5f} {t_np:10.5f} {t_np / t_ours:7.2f} {t_jax:>10s}")


if __name__ == "__main__":
    main()
