"""Is a compiled value NumPy's? Bit-exact for ints, bools and the sign of zero; a few ulp for
transcendental functions; a bound from the magnitudes of the terms for float sums."""
from __future__ import annotations

import numpy as np

import transpile as tp
from transpile import dtypes

from .ops import ACCUMULATE, EXACT, TRANSCENDENTAL

MAX_ULP = 8


def _ordered_bits(a: np.ndarray) -> np.ndarray:
    """Float bits mapped onto a monotonic integer line (+0 and -0 meet)."""
    itype = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    i = a.view(itype).astype(np.int64)
    return np.where(i < 0, np.int64(np.iinfo(itype).min) - i, i)


def _same_bits(actual, expected):
    """Elementwise: equal, with NaN == NaN and -0.0 != +0.0."""
    if actual.dtype.kind != "f":
        return actual == expected
    both_nan = np.isnan(actual) & np.isnan(expected)
    return both_nan | ((actual == expected) & (np.signbit(actual) == np.signbit(expected)))


def mismatch(actual, expected, tol: str, scale=None, terms=1, mask=None) -> str | None:
    """None when `actual` is an acceptable answer, else a short description of the difference.
    `mask` marks the elements whose value NumPy leaves undefined (float->int casts of NaN)."""
    if type(expected) in (bool, int, float, complex) and tp.config.jax_rules():
        # JAX's rules (fuzz/jax_mode.py): a Python scalar result is JAX's default dtype
        expected = np.asarray(expected, dtype=dtypes.default_for_python_type(type(expected)))
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype} != NumPy's {expected.dtype}"
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != NumPy's {expected.shape}"
    if actual.dtype.kind == "c":          # each part as a float, with the same tolerance
        for part in ("real", "imag"):
            problem = mismatch(getattr(actual, part), getattr(expected, part), tol, scale,
                               terms, mask)
            if problem:
                return f"{part} part: {problem}"
        return None
    ok = _same_bits(actual, expected)
    if actual.dtype.kind == "f" and tol != EXACT:
        ok = ok | _tolerated(actual, expected, tol, scale, terms)
    if mask is not None:
        ok = ok | ~np.broadcast_to(mask, ok.shape)
    if np.all(ok):
        return None
    bad = np.flatnonzero(~np.asarray(ok).ravel())
    a, e = actual.ravel()[bad[:4]], expected.ravel()[bad[:4]]
    what = "signed-zero" if actual.dtype.kind == "f" and np.all(
        (a == 0) & (e == 0)) else "value"
    return f"{what}: {bad.size} of {actual.size} differ, e.g. at {bad[:4].tolist()} got " \
           f"{a.tolist()} expected {e.tolist()}"


def _tolerated(actual, expected, tol, scale, terms):
    finite = np.isfinite(expected) & np.isfinite(actual)
    if tol == TRANSCENDENTAL:
        return finite & (np.abs(_ordered_bits(actual) - _ordered_bits(expected)) <= MAX_ULP)
    if tol == ACCUMULATE and scale is not None:
        info = np.finfo(actual.dtype)
        # `scale` is the terms' magnitude, or (that, the accumulator's magnitude) where they
        # differ: a mean's sum is `terms` times larger than the mean and overflows first.
        scale, running = scale if isinstance(scale, tuple) else (scale, scale)
        scale = np.broadcast_to(np.asarray(scale, dtype=np.float64), actual.shape)
        running = np.broadcast_to(np.asarray(running, dtype=np.float64), actual.shape)
        # Worst case of a sequential sum of `terms` values against NumPy's pairwise one:
        # wrong answers (a lost partial sum, a race) are far outside it.
        bound = info.eps * scale * (terms + 16) + 4 * float(info.smallest_subnormal)
        with np.errstate(all="ignore"):
            err = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        # Where the magnitudes overflow the dtype, the order of additions decides inf or not.
        ill = ~np.isfinite(running) | (running > float(info.max) / 4)
        # Products whose partial products may pass through subnormals lose bits in an
        # order-dependent way.
        ill |= np.abs(expected.astype(np.float64)) < float(info.tiny) / float(info.eps) ** 2
        return ill | (finite & (err <= bound))
    return np.zeros(actual.shape, bool)


def same_results(first, second) -> bool:
    """Two calls of one compiled function give the same bits."""
    first, second = np.asarray(first), np.asarray(second)
    if first.dtype.kind == "c" and second.dtype == first.dtype:
        return same_results(first.real, second.real) and same_results(first.imag, second.imag)
    return first.dtype == second.dtype and first.shape == second.shape and \
        bool(np.all(_same_bits(first, second)))
