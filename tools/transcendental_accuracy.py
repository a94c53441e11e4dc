"""How far NumPy's and transpile's transcendental functions are from the correctly rounded
answer, on this machine's CPU (NumPy dispatches per CPU: SVML on AVX-512, its own SIMD loops
for some functions on AVX2, libm otherwise; transpile's C calls libm everywhere).

    python tools/transcendental_accuracy.py [--n 100000]

The reference is the function in long double (x87 80-bit on x86-64: 11 more bits than
float64), rounded once to the argument's dtype. Prints, per function and dtype: the share of
results where NumPy and transpile differ, and each one's share of correctly rounded results
and its worst error in ulp. This is the evidence behind the README's "within a few ulp, not
bit for bit" for transcendental functions (issue 20)."""
from __future__ import annotations

import argparse

import numpy as np

import transpile as tp
import transpile.numpy as tnp

UNARY = {  # name: domain (low, high) of the random arguments
    "exp": (-80, 80), "expm1": (-5, 5), "log": (1e-30, 1e30), "log2": (1e-30, 1e30),
    "log10": (1e-30, 1e30), "log1p": (-0.9, 10), "sin": (-100, 100), "cos": (-100, 100),
    "tan": (-1.5, 1.5), "arcsin": (-1, 1), "arccos": (-1, 1), "arctan": (-100, 100),
    "sinh": (-20, 20), "cosh": (-20, 20), "tanh": (-10, 10), "arcsinh": (-100, 100),
    "arccosh": (1, 100), "arctanh": (-0.99, 0.99), "cbrt": (-1e6, 1e6),
}
BINARY = {"power": ((0.01, 10), (-8, 8)), "arctan2": ((-10, 10), (-10, 10))}


def _ordered(a):
    itype = np.int32 if a.dtype == np.float32 else np.int64
    i = a.view(itype).astype(np.int64)
    return np.where(i < 0, np.int64(np.iinfo(itype).min) - i, i)


def _ulps(a, ref):
    ok = np.isfinite(a) & np.isfinite(ref)
    return np.abs(_ordered(a[ok]) - _ordered(ref[ok]))


def _draw(rng, low, high, n, dtype):
    if low > 0 and high / low > 1e3:           # log-uniform over wide positive ranges
        return np.exp(rng.uniform(np.log(low), np.log(high), n)).astype(dtype)
    return rng.uniform(low, high, n).astype(dtype)


def _row(name, dtype, args):
    numpy_fn, tp_fn = getattr(np, name), getattr(tnp, name)
    compiled = np.asarray(tp.jit(tp_fn)(*args))
    with np.errstate(all="ignore"):
        reference = numpy_fn(*(a.astype(np.longdouble) for a in args)).astype(dtype)
        ours = numpy_fn(*args)
    differ = np.mean(~((compiled == ours) | (np.isnan(compiled) & np.isnan(ours))))
    cells = [f"{name:8} {np.dtype(dtype).name:7} differ {100 * differ:6.2f}%"]
    for label, values in (("numpy", ours), ("transpile", compiled)):
        err = _ulps(values, reference)
        cells.append(f"{label}: exact {100 * np.mean(err == 0):6.2f}% max {err.max():2d} ulp")
    return "  ".join(cells)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    n = parser.parse_args().n
    rng = np.random.default_rng(20)
    for dtype in (np.float32, np.float64):
        for name, (low, high) in UNARY.items():
            print(_row(name, dtype, (_draw(rng, low, high, n, dtype),)))
        for name, domains in BINARY.items():
            print(_row(name, dtype, tuple(_draw(rng, lo, hi, n, dtype) for lo, hi in domains)))


if __name__ == "__main__":
    main()
