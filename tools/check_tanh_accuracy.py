"""Measure runtime/include/tp_tanh.h's tanh against correctly rounded results and glibc.

Usage:  python tools/check_tanh_accuracy.py [--count 10000000] [--dtype float32|float64]

The values: a third random float32 bit patterns (every magnitude, subnormals, infinities and
NaN included), a third uniform in [-10, 10] (where tanh is not +-1), a third log-uniform in
magnitude below 1 (the small-argument range), and the special values. Each is computed by
tp_tanh_f32 and by glibc's tanhf, both compiled with the runtime's own flags (-O3
-march=native, -ffp-contract=off, no fast-math), the tp_tanh loop vectorised as generated
code's is.

The reference: tanh in long double (x87, 64-bit significand) rounded to float32, which is the
correctly rounded result unless the long double value lies within ~2^-40 relative of a
rounding midpoint; every value where tp_tanh_f32 and the reference disagree is recomputed
with mpmath at 60 digits (when importable), so the counts below are against correctly rounded
results. Prints: the worst error in ulp, how many results are not correctly rounded, and how
many differ from glibc and from NumPy's float32 tanh (and by how many ulp). Exits non-zero if
any error exceeds one ulp.

float64 (tp_tanh_f64): the same kinds of values (uniform in [-20, 20]); the error is measured
in long double, |result - tanh(x)| in units of the double's ulp, which must stay below 1 (the
result is then one of the two doubles around tanh(x)); also counted: results that differ from
the long double reference rounded to double, and from glibc's tanh.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from runtime.compiler import DEFAULT_FLAGS  # noqa: E402

SOURCE = r"""
#include "tp_tanh.h"
void run_tp(const float *x, float *y, long n) {
    #pragma omp simd
    for (long i = 0; i < n; i++) y[i] = tp_tanh_f32(x[i]);
}
void run_glibc(const float *x, float *y, long n) {
    for (long i = 0; i < n; i++) y[i] = tanhf(x[i]);
}
void run_tp64(const double *x, double *y, long n) {
    #pragma omp simd
    for (long i = 0; i < n; i++) y[i] = tp_tanh_f64(x[i]);
}
void run_glibc64(const double *x, double *y, long n) {
    for (long i = 0; i < n; i++) y[i] = tanh(x[i]);
}
"""


def build(workdir: str) -> ctypes.CDLL:
    c_path, so_path = os.path.join(workdir, "tanh.c"), os.path.join(workdir, "tanh.so")
    with open(c_path, "w") as f:
        f.write(SOURCE)
    include = os.path.join(ROOT, "runtime", "include")
    subprocess.run(["cc", *DEFAULT_FLAGS, "-I", include, "-o", so_path, c_path, "-lm"],
                   check=True)
    return ctypes.CDLL(so_path)


def sample(count: int, rng) -> np.ndarray:
    third = count // 3
    bits = rng.integers(0, 2 ** 32, third, dtype=np.uint64).astype(np.uint32).view(np.float32)
    uniform = rng.uniform(-10, 10, third).astype(np.float32)
    small = (np.exp(rng.uniform(np.log(1e-40), 0, count - 2 * third))
             * rng.choice([-1, 1], count - 2 * third)).astype(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 9.01, 9.02, 20.0, 1e-45, -1e-45,
                        0.17328679, 0.1733, np.finfo(np.float32).max], np.float32)
    return np.concatenate([bits, uniform, small, special])


def call(fn, x: np.ndarray) -> np.ndarray:
    y = np.empty_like(x)
    fn(ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(y.ctypes.data), ctypes.c_long(x.size))
    return y


def ordered(x: np.ndarray) -> np.ndarray:
    """float32 bit patterns mapped to integers in the order of the values (-0 == +0)."""
    i = x.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, np.abs(ordered(a) - ordered(b)))


def correctly_rounded(x: np.ndarray, reference: np.ndarray, suspects: np.ndarray) -> np.ndarray:
    """The reference, redone with mpmath where the long double one is in doubt."""
    try:
        import mpmath
    except ImportError:
        print("mpmath not importable: disagreements checked against long double only")
        return reference
    mpmath.mp.dps = 60
    fixed = reference.copy()
    for i in np.flatnonzero(suspects):
        fixed[i] = np.float32(float(mpmath.tanh(mpmath.mpf(float(x[i])))))
    return fixed


def sample64(count: int, rng) -> np.ndarray:
    third = count // 3
    bits = rng.integers(0, 2 ** 63, third, dtype=np.int64).view(np.float64)
    bits = np.where(rng.integers(0, 2, third) == 1, -bits, bits)
    uniform = rng.uniform(-20, 20, third)
    small = np.exp(rng.uniform(np.log(1e-300), np.log(2.0), count - 2 * third)) * \
        rng.choice([-1, 1], count - 2 * third)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 0.25, np.nextafter(0.25, 0), 19.06,
                        22.0, 5e-324, -5e-324, 1e-8, np.finfo(np.float64).max])
    return np.concatenate([bits, uniform, small, special])


def main64(count: int):
    x = sample64(count, np.random.default_rng(0))
    with tempfile.TemporaryDirectory() as workdir:
        lib = build(workdir)
        ours, glibc = call(lib.run_tp64, x), call(lib.run_glibc64, x)
    with np.errstate(invalid="ignore"):
        exact = np.tanh(x.astype(np.longdouble))
    nearest = exact.astype(np.float64)
    finite = ~np.isnan(x)
    spacing = np.spacing(np.abs(nearest[finite])).astype(np.longdouble)
    error = np.abs(ours[finite].astype(np.longdouble) - exact[finite]) / spacing
    glibc_error = np.abs(glibc[finite].astype(np.longdouble) - exact[finite]) / spacing
    worst = int(np.argmax(error))
    sign_ok = np.all(np.signbit(ours[x == 0]) == np.signbit(x[x == 0]))
    nan_ok = np.all(np.isnan(ours[~finite]))
    print(f"{x.size} float64 values")
    print(f"tp_tanh_f64: max error {float(error[worst]):.4f} ulp (at x = {x[finite][worst]!r}), "
          f"differs from the rounded reference: {(ours[finite] != nearest[finite]).sum()}")
    print(f"glibc tanh:  max error {float(glibc_error.max()):.4f} ulp, differs from the rounded "
          f"reference: {(glibc[finite] != nearest[finite]).sum()}")
    print(f"tp_tanh_f64 != glibc: {(ours[finite] != glibc[finite]).sum()} values")
    print(f"signed zeros kept: {sign_ok}, NaN propagated: {nan_ok}")
    sys.exit(0 if error.max() < 1 and sign_ok and nan_ok else 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000_000)
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    options = parser.parse_args()
    count = options.count
    if options.dtype == "float64":
        return main64(count)
    x = sample(count, np.random.default_rng(0))
    with tempfile.TemporaryDirectory() as workdir:
        lib = build(workdir)
        ours, glibc = call(lib.run_tp, x), call(lib.run_glibc, x)
    with np.errstate(invalid="ignore"):
        reference = np.tanh(x.astype(np.longdouble)).astype(np.float32)
    reference = correctly_rounded(x, reference, ulp_distance(ours, reference) != 0)
    finite = ~np.isnan(x)
    err, glibc_err = ulp_distance(ours, reference), ulp_distance(glibc, reference)
    differs, numpy_differs = ulp_distance(ours, glibc), ulp_distance(ours, np.tanh(x))
    sign_ok = np.all(np.signbit(ours[x == 0]) == np.signbit(x[x == 0]))
    nan_ok = np.all(np.isnan(ours[~finite]))
    print(f"{x.size} float32 values")
    print(f"tp_tanh_f32: max error {err.max()} ulp, not correctly rounded: {(err != 0).sum()}")
    print(f"glibc tanhf: max error {glibc_err.max()} ulp, not correctly rounded: "
          f"{(glibc_err != 0).sum()}")
    print(f"tp_tanh_f32 != glibc: {(differs != 0).sum()} values, at most {differs.max()} ulp")
    print(f"tp_tanh_f32 != NumPy's np.tanh: {(numpy_differs != 0).sum()} values, at most "
          f"{numpy_differs.max()} ulp")
    print(f"signed zeros kept: {sign_ok}, NaN propagated: {nan_ok}")
    sys.exit(0 if err.max() <= 1 and sign_ok and nan_ok else 1)


if __name__ == "__main__":
    main()
