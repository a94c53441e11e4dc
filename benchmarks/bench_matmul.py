"""Matrix products: transpile's GEMM (runtime/include/tp_gemm.h) against NumPy's BLAS.

Usage:
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_matmul.py   # single thread
    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 python benchmarks/bench_matmul.py   # two threads
    python benchmarks/bench_matmul.py --only 512 --repeat 5                      # a subset

Method: both sides run in this one process on the same inputs, after a warm-up call (which
compiles transpile's version) and a check that the answers agree. A sample is the fastest of
`inner` back-to-back calls (inner: enough calls for ~20 ms); samples of the two sides are
interleaved (t, n, t, n, ...) so that a burst of load from other processes hits both, each
after running untimed for a moment (benchmarks/harness.py: settle) so that the other side's
idle threads no longer spin on the second core; the table
shows the median sample per call and the ratio NumPy time / transpile time (>= 1: transpile is
faster). Set the thread variables BEFORE starting Python: OpenBLAS and OpenMP read them at load
time. `--clock cpu` times with the calling thread's CPU time, which time spent descheduled by
other processes does not inflate: valid (and the trustworthy figure on a shared machine) only
single-threaded, where both libraries compute on the calling thread.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-matmul-"))

import transpile as tp  # noqa: E402  (after the cache directory is chosen)
import transpile.numpy as tnp  # noqa: E402
from harness import settle  # noqa: E402  (benchmarks/harness.py, beside this script)

TARGET = 0.8     # issue 8: at least this fraction of NumPy's speed at 512^2, 2000^2 and vecmat


def _matmul(a, b):
    return a @ b


def _dot(a, b):
    return tnp.dot(a, b)


def cases(rng):
    """(name, function, arguments, has a target) for every row of the table."""
    def mat(*shape, dtype):
        return rng.standard_normal(shape).astype(dtype)

    rows = []
    for n in (512, 2000):
        for dt in (np.float32, np.float64):
            rows.append((f"matmul {n}x{n} {np.dtype(dt).name}", _matmul,
                         (mat(n, n, dtype=dt), mat(n, n, dtype=dt)), True))
    rows.append(("vecmat y @ A, 4000x5000 float64", _matmul,
                 (mat(4000, dtype=np.float64), mat(4000, 5000, dtype=np.float64)), True))
    rows.append(("matvec A @ x, 5000x4000 float64", _matmul,
                 (mat(5000, 4000, dtype=np.float64), mat(4000, dtype=np.float64)), False))
    rows.append(("batched 3600 x 128x128 @ shared 128x128 float32", _matmul,
                 (mat(3600, 128, 128, dtype=np.float32), mat(128, 128, dtype=np.float32)),
                 False))
    rows.append(("matmul A.T @ B, 1000x1000 float64", lambda a, b: a.T @ b,
                 (mat(1000, 1000, dtype=np.float64), mat(1000, 1000, dtype=np.float64)), False))
    # Transposed operands, read in place through strides: the products of a backward pass.
    for dt in (np.float32, np.float64):
        name = np.dtype(dt).name
        rows.append((f"A @ B.T 512x512 {name}", lambda a, b: a @ b.T,
                     (mat(512, 512, dtype=dt), mat(512, 512, dtype=dt)), False))
        rows.append((f"A.T @ B.T 512x512 {name}", lambda a, b: a.T @ b.T,
                     (mat(512, 512, dtype=dt), mat(512, 512, dtype=dt)), False))
        rows.append((f"ct @ W.T, 128x512 @ (512x512)^T {name}", lambda c, w: c @ w.T,
                     (mat(128, 512, dtype=dt), mat(512, 512, dtype=dt)), False))
        rows.append((f"x.T @ ct, (128x784)^T @ 128x512 {name}",
                     lambda x, c: x.T @ c, (mat(128, 784, dtype=dt), mat(128, 512, dtype=dt)),
                     False))
    rows.append(("batched q @ k.T, 64 x 128x64 @ (128x64)^T float32",
                 lambda q, k: q @ k.transpose(0, 2, 1),
                 (mat(64, 128, 64, dtype=np.float32), mat(64, 128, 64, dtype=np.float32)), False))
    rows.append(("dot 1-d, 10^6 float64", _dot,
                 (mat(1_000_000, dtype=np.float64), mat(1_000_000, dtype=np.float64)), False))
    return rows


_clock = time.perf_counter


def _time_once(fn, args) -> float:
    start = _clock()
    fn(*args)
    return _clock() - start


def measure(fn, args, repeat: int):
    jitted = tp.jit(fn)
    expected, got = fn(*args), jitted(*args)      # fn on NumPy arrays is eager NumPy
    scale = max(1.0, float(np.max(np.abs(expected))))
    tol = 1e-3 if expected.dtype == np.float32 else 1e-9
    if not np.allclose(got, expected, rtol=tol, atol=tol * scale):
        raise AssertionError(f"{fn.__name__}: transpile disagrees with NumPy")
    # A sample is at least ~20 ms of back-to-back calls, so that small products are timed too.
    inner = max(1, int(0.02 / max(_time_once(fn, args), 1e-7)))
    t_samples, n_samples = [], []
    for _ in range(repeat):
        settle(lambda: jitted(*args))
        t_samples.append(min(_time_once(jitted, args) for _ in range(inner)))
        settle(lambda: fn(*args))
        n_samples.append(min(_time_once(fn, args) for _ in range(inner)))
    return statistics.median(t_samples), statistics.median(n_samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="samples per side (median)")
    parser.add_argument("--only", default="", help="run only rows whose name contains this")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="cpu: the thread's CPU time (single-threaded runs only)")
    args = parser.parse_args()
    global _clock
    _clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    threads = (os.environ.get("OMP_NUM_THREADS", "all"),
               os.environ.get("OPENBLAS_NUM_THREADS", "all"))
    print(f"threads: OMP_NUM_THREADS={threads[0]} OPENBLAS_NUM_THREADS={threads[1]}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{args.clock} clock")
    print(f"{'case':<50} {'transpile':>12} {'numpy':>12} {'ratio':>7}")
    failed = []
    for name, fn, fargs, has_target in cases(np.random.default_rng(0)):
        if args.only not in name:
            continue
        t, n = measure(fn, fargs, args.repeat)
        ratio = n / t
        mark = ""
        if has_target:
            mark = "  PASS" if ratio >= TARGET else f"  below {TARGET}x"
            if ratio < TARGET:
                failed.append(name)
        print(f"{name:<50} {t * 1e3:>9.3f} ms {n * 1e3:>9.3f} ms {ratio:>6.2f}x{mark}")
    if failed:
        print(f"below target ({TARGET}x NumPy): {', '.join(failed)}")


if __name__ == "__main__":
    main()
