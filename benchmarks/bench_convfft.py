"""jnp.fft, convolutions and pooling: transpile's C (runtime/include/tp_fft.h, tp_conv.h) against
NumPy (pocketfft; a NumPy convolution) and JAX (when importable), side by side.

Usage:
    python benchmarks/bench_convfft.py                 # everything
    python benchmarks/bench_convfft.py --only fft      # cases whose name contains "fft"
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_convfft.py   # one thread

Method: every side runs in this one process on the same inputs, after a warm-up call (which
compiles transpile's version) and a check of its answer against NumPy's. A sample is the
fastest of `inner` back-to-back calls (enough for ~20 ms); the sides' samples are interleaved,
each after running untimed for a moment (harness.settle), and the table shows the median
sample per call and NumPy time / other time (>= 1: faster than NumPy). The NumPy
convolution is what a NumPy user writes: sliding_window_view then einsum (its default,
unoptimised path) and the same with tensordot (which reaches BLAS); the ratio column is
against the faster of the two. Targets (issue 19): FFT within 2x of pocketfft (ratio >= 0.5);
convolution 10x faster than the NumPy convolution (ratio >= 10). Pooling (lax.reduce_window:
max 2x2 stride 2, average 3x3 'SAME') against NumPy's window view reduced and, for the 2x2
max, the reshape a NumPy user writes instead (the faster is the numpy column); no target.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-convfft-"))

import transpile as tp  # noqa: E402  (after the cache directory is chosen)
import transpile.numpy as tnp  # noqa: E402
from transpile import lax  # noqa: E402
from harness import check, settle  # noqa: E402  (benchmarks/harness.py, beside this script)

try:
    import jax  # noqa: E402
    import jax.numpy as jnp  # noqa: E402
    jax.config.update("jax_enable_x64", True)
except ImportError:
    jax = None


def _sample(call, inner: int) -> float:
    settle(call)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(inner):
            call()
        best = min(best, (time.perf_counter() - start) / inner)
    return best


def _inner(call) -> int:
    start = time.perf_counter()
    call()
    return max(1, int(0.02 / max(time.perf_counter() - start, 1e-7)))


def _same_windows(x, w, stride):
    """NHWC input padded as lax's 'SAME' pads it, as (n, h, w, c, kh, kw) windows."""
    pads = [(0, 0)]
    for size, k in zip(x.shape[1:3], w.shape[:2]):
        total = max((-(-size // stride) - 1) * stride + k - size, 0)
        pads.append((total // 2, total - total // 2))
    xp = np.pad(x, pads + [(0, 0)])
    return sliding_window_view(xp, w.shape[:2], axis=(1, 2))[:, ::stride, ::stride]


def numpy_conv_einsum(x, w, stride):
    """NHWC x HWIO: windows, then one einsum (NumPy's default, unoptimised path)."""
    return np.einsum("nhwcij,ijco->nhwo", _same_windows(x, w, stride), w)


def numpy_conv_tensordot(x, w, stride):
    """The same windows contracted with tensordot (a copy, then BLAS)."""
    return np.tensordot(_same_windows(x, w, stride), w, axes=([3, 4, 5], [2, 0, 1]))


def _conv_tp(stride):
    return tp.jit(lambda x, w: lax.conv_general_dilated(
        x, w, (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))


def _conv_jax(stride):
    return jax.jit(lambda x, w: jax.lax.conv_general_dilated(
        x, w, (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))


def fft_cases():
    rng = np.random.default_rng(0)
    cases = []
    for n in (1024, 4096, 1000, 65536, 1009, 3 ** 9, 2 * 3 * 5 * 7 * 11):
        z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        cases.append((f"fft c128 n={n}", "fft", (z,)))
        x = rng.standard_normal(n)
        cases.append((f"rfft f64 n={n}", "rfft", (x,)))
    cases.append(("fft c128 256x1024 rows", "fft", (rng.standard_normal((256, 1024)) + 0j,)))
    cases.append(("rfft f32 256x1024 rows", "rfft",
                  (rng.standard_normal((256, 1024)).astype(np.float32),)))
    cases.append(("fft2 c128 512x512", "fft2", (rng.standard_normal((512, 512)) + 0j,)))
    cases.append(("irfft f64 n=4096", "irfft", (np.fft.rfft(rng.standard_normal(4096)),)))
    return cases


def conv_cases():
    rng = np.random.default_rng(1)
    cases = []
    for name, (n, h, c, o, k, s) in {
            "conv 3x3 32->64 32x32 batch 8 f32": (8, 32, 32, 64, 3, 1),
            "conv 3x3 64->64 56x56 batch 1 f32": (1, 56, 64, 64, 3, 1),
            "conv 5x5 3->32 64x64 batch 4 f32 (first layer)": (4, 64, 3, 32, 5, 1),
            "conv 3x3 64->128 stride 2 28x28 batch 4 f32": (4, 28, 64, 128, 3, 2)}.items():
        x = rng.standard_normal((n, h, h, c)).astype(np.float32)
        w = (rng.standard_normal((k, k, c, o)) / np.sqrt(k * k * c)).astype(np.float32)
        cases.append((name, s, (x, w)))
    return cases


def _row(name, sides, repeat):
    base = sides["numpy"]
    inner = {k: _inner(v) for k, v in sides.items() if callable(v)}
    samples = {k: [] for k in inner}
    for _ in range(repeat):
        for k in inner:
            samples[k].append(_sample(sides[k], inner[k]))
    med = {k: statistics.median(v) for k, v in samples.items()}
    cells = []
    for k, v in sides.items():
        cells.append(f"{k} {med[k] * 1e6:10.1f} us" if k in med else f"{k} {v}")
    ratio = med["numpy"] / med["transpile"]
    jax_ratio = f"  jax/np {med['numpy'] / med['jax']:5.2f}x" if "jax" in med else ""
    print(f"{name:48s} " + " | ".join(cells) + f" | np/tp {ratio:5.2f}x{jax_ratio}")
    del base
    return ratio


def run_fft(only, repeat):
    ratios = []
    for name, fn, args in fft_cases():
        if only and only not in name:
            continue
        ref = getattr(np.fft, fn)(*args)
        sides = {"numpy": lambda fn=fn, args=args: getattr(np.fft, fn)(*args)}
        f = tp.jit(getattr(tnp.fft, fn))
        single = ref.dtype in (np.complex64, np.float32)
        scale = max(1.0, float(np.abs(ref).max()))
        check(np.asarray(f(*args)).real / scale, ref.real / scale, 1e-5 if single else 1e-9)
        sides["transpile"] = lambda f=f, args=args: f(*args)
        if jax is not None:
            jf = jax.jit(getattr(jnp.fft, fn))
            jargs = [jnp.asarray(a) for a in args]
            sides["jax"] = lambda jf=jf, jargs=jargs: jf(*jargs).block_until_ready()
        ratios.append(_row(name, sides, repeat))
    return ratios


def run_conv(only, repeat):
    ratios = []
    for name, stride, (x, w) in conv_cases():
        if only and only not in name:
            continue
        einsum_ref = numpy_conv_einsum(x, w, stride)
        f = _conv_tp(stride)
        check(f(x, w), einsum_ref, 1e-3)
        check(numpy_conv_tensordot(x, w, stride), einsum_ref, 1e-3)
        fast = {}
        for label, np_fn in (("einsum", numpy_conv_einsum), ("tensordot", numpy_conv_tensordot)):
            call = (lambda np_fn=np_fn: np_fn(x, w, stride))
            fast[label] = _sample(call, _inner(call))
        best = min(fast, key=fast.get)
        print(f"  (numpy einsum {fast['einsum'] * 1e3:.2f} ms, tensordot "
              f"{fast['tensordot'] * 1e3:.2f} ms: the numpy column is {best})")
        np_fn = numpy_conv_einsum if best == "einsum" else numpy_conv_tensordot
        sides = {"numpy": lambda np_fn=np_fn: np_fn(x, w, stride),
                 "transpile": lambda f=f: f(x, w)}
        if jax is not None:
            jf, jx, jw = _conv_jax(stride), jnp.asarray(x), jnp.asarray(w)
            sides["jax"] = lambda: jf(jx, jw).block_until_ready()
        ratios.append(_row(name, sides, repeat))
    return ratios


def pool_cases():
    rng = np.random.default_rng(2)
    return [("max pool 2x2 stride 2 8x64x64x32 f32", "max",
             rng.standard_normal((8, 64, 64, 32)).astype(np.float32)),
            ("avg pool 3x3 SAME 4x56x56x64 f32", "avg",
             rng.standard_normal((4, 56, 56, 64)).astype(np.float32))]


def numpy_pool_windows(kind, x):
    """NHWC windows (sliding_window_view) reduced: 2x2 stride 2 max, or 3x3 'SAME' mean with
    zero padding counted (lax.reduce_window's add over the padded input, divided by 9)."""
    if kind == "max":
        return sliding_window_view(x, (2, 2), axis=(1, 2))[:, ::2, ::2].max(axis=(-2, -1))
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    return sliding_window_view(xp, (3, 3), axis=(1, 2)).sum(axis=(-2, -1)) / 9


def numpy_pool_reshape(kind, x):
    """The 2x2 max as a reshape (no window view); the average has no such form."""
    if kind != "max":
        return numpy_pool_windows(kind, x)
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def _pool(lax_module, kind):
    if kind == "max":
        return lambda x: lax_module.reduce_window(x, -np.inf, lax_module.max, (1, 2, 2, 1),
                                                  (1, 2, 2, 1), "VALID")
    return lambda x: lax_module.reduce_window(x, 0.0, lax_module.add, (1, 3, 3, 1),
                                              (1, 1, 1, 1), "SAME") / 9


def run_pool(only, repeat):
    ratios = []
    for name, kind, x in pool_cases():
        if only and only not in name:
            continue
        f = tp.jit(_pool(lax, kind))
        ref = numpy_pool_windows(kind, x)
        check(f(x), ref, 1e-5)
        check(numpy_pool_reshape(kind, x), ref, 1e-5)
        fast = {}
        for label, np_fn in (("windows", numpy_pool_windows), ("reshape", numpy_pool_reshape)):
            call = (lambda np_fn=np_fn: np_fn(kind, x))
            fast[label] = _sample(call, _inner(call))
        np_fn = numpy_pool_windows if fast["windows"] <= fast["reshape"] else numpy_pool_reshape
        sides = {"numpy": lambda np_fn=np_fn: np_fn(kind, x), "transpile": lambda f=f: f(x)}
        if jax is not None:
            jf, jx = jax.jit(_pool(jax.lax, kind)), jnp.asarray(x)
            sides["jax"] = lambda: jf(jx).block_until_ready()
        ratios.append(_row(name, sides, repeat))
    return ratios


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    parser.add_argument("--repeat", type=int, default=5, help="samples per side")
    args = parser.parse_args(argv)
    print(f"threads: OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"jax {'absent' if jax is None else jax.__version__}")
    fft = run_fft(args.only, args.repeat)
    conv = run_conv(args.only, args.repeat)
    pool = run_pool(args.only, args.repeat)
    if fft:
        print(f"FFT: worst np/tp {min(fft):.2f}x, geometric mean "
              f"{np.exp(np.mean(np.log(fft))):.2f}x (target >= 0.5)")
    if conv:
        print(f"conv: worst np/tp {min(conv):.2f}x, geometric mean "
              f"{np.exp(np.mean(np.log(conv))):.2f}x (target >= 10)")
    if pool:
        print(f"pooling: worst np/tp {min(pool):.2f}x, geometric mean "
              f"{np.exp(np.mean(np.log(pool))):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
