"""float16 against float32 in transpile, and against NumPy's float16 loops (and JAX when
importable): an elementwise chain, a sum along the last axis, and a matrix product.

Usage:  python benchmarks/bench_half.py [--n 1000000]

transpile stores float16 as bit patterns and computes each operation in float32
(passes/half_float.py), so a chain costs its conversions on top of float32 work; NumPy's
float16 loops convert per element and per operation too. Timed warm, median of repeated
samples, side by side in one process. The run uses a temporary TRANSPILE_CACHE_DIR.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def median_seconds(fn, repeats=11, inner=3):
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def chain(mod):
    return lambda x: mod.tanh(x * 0.5 + 1.0) * x - x * x


def cases(n):
    side = int(np.sqrt(n))
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n)
    m = rng.standard_normal((side // 4, side // 4))
    return {
        "chain (5 ops)": (chain, x),
        "sum, last axis": (lambda mod: lambda v: mod.sum(v.reshape(-1, 1000), axis=1), x),
        "matmul": (lambda mod: lambda a: a @ a, m),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    n = parser.parse_args().n
    os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-half-"))
    import transpile as tp
    import transpile.numpy as tnp
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None
    print(f"n = {n}; times in ms (median); load {os.getloadavg()[0]:.2f}")
    head = f"{'case':<16}{'tp f32':>9}{'tp f16':>9}{'np f16':>9}{'f16/f32':>9}{'np/tp f16':>10}"
    print(head + (f"{'jax f16':>9}" if jax else ""))
    for name, (make, data) in cases(n).items():
        f32, f16 = data.astype(np.float32), data.astype(np.float16)
        compiled = tp.jit(make(tnp))
        row = {"tp32": median_seconds(lambda: compiled(f32)),
               "tp16": median_seconds(lambda: compiled(f16)),
               "np16": median_seconds(lambda: make(np)(f16))}
        if jax:
            jf, jx = jax.jit(make(jnp)), jnp.asarray(f16)
            row["jax16"] = median_seconds(lambda: jf(jx).block_until_ready())
        line = (f"{name:<16}{row['tp32'] * 1e3:>9.3f}{row['tp16'] * 1e3:>9.3f}"
                f"{row['np16'] * 1e3:>9.3f}{row['tp16'] / row['tp32']:>9.2f}"
                f"{row['np16'] / row['tp16']:>10.1f}")
        print(line + (f"{row['jax16'] * 1e3:>9.3f}" if jax else ""))


if __name__ == "__main__":
    main()
