"""The main example: jit SELU over a million float32 values, check it, time it, show the C.

    python examples/selu.py
"""
import os
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp


def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)


def median_seconds(fn, repeats=30):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    x = np.random.default_rng(0).standard_normal(1_000_000).astype(np.float32)
    selu_jit = tp.jit(selu)

    start = time.perf_counter()
    result = selu_jit(x)                       # traces, compiles (or loads from disk), runs
    first_call = time.perf_counter() - start

    expected = selu(x)                         # the same function, run eagerly on NumPy
    assert result.dtype == expected.dtype == np.float32
    np.testing.assert_allclose(result, expected, rtol=1e-6, atol=1e-6)
    print(f"selu on {x.size:,} float32 values matches NumPy (first call {first_call * 1e3:.0f} ms)")

    jit_time = median_seconds(lambda: tp.block_until_ready(selu_jit(x)))
    numpy_time = median_seconds(lambda: selu(x))
    print(f"eager NumPy {numpy_time * 1e3:.2f} ms, transpile {jit_time * 1e3:.2f} ms: "
          f"{numpy_time / jit_time:.1f}x faster")

    lowered = selu_jit.lower(x)
    print("\nIR:")
    print(lowered.ir)
    compiled = lowered.compile()
    print(f"\ngenerated C: {getattr(compiled, 'source_path', '(interpret backend: no C)')}")
    print(f"cache info:  {selu_jit.cache_info()}")
    if os.environ.get("SHOW_SOURCE"):
        print(lowered.source)


if __name__ == "__main__":
    main()
