"""Reference values of the special functions NumPy has no ufunc for (erf, erfc, erf_inv,
lgamma, digamma): the eager path and the `interpret` backend. The C helpers they mirror live in
runtime/include/tp_special.h (erf_inv and digamma there are the same algorithms, step for step).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

# M. Giles' single-precision erfinv polynomials (GPU Computing Gems Jade, 2011), used only
# as a starting point: Newton steps below take it to full double precision.
_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
            -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
         -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
_TWO_OVER_SQRT_PI = 1.1283791670955126


def _horner(coeffs, w):
    p = np.full_like(w, coeffs[0])
    for c in coeffs[1:]:
        p = c + p * w
    return p


def _vectorized(fn):
    return np.vectorize(fn, otypes=[np.float64])


def _libm_lgamma():
    """libm's reentrant lgamma_r, which the compiled code calls: CPython's math.lgamma is
    its own, less accurate implementation (hundreds of ulp off for some arguments)."""
    try:
        fn = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").lgamma_r
    except (OSError, AttributeError):
        return None
    fn.argtypes, fn.restype = [ctypes.c_double, ctypes.POINTER(ctypes.c_int)], ctypes.c_double
    sign = ctypes.c_int()
    return lambda x: fn(x, ctypes.byref(sign))


def _python_lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:           # the poles 0, -1, -2, ...: lgamma is +inf there, as in C
        return math.inf


_lgamma_scalar = _libm_lgamma() or _python_lgamma


_erf, _erfc, _lgamma = _vectorized(math.erf), _vectorized(math.erfc), _vectorized(_lgamma_scalar)


def erf_inv_f64(x: np.ndarray) -> np.ndarray:
    """Giles' start, then four Newton steps: on erf(t) = a in the centre, on
    log(erfc(t)) = log(1 - a) for a > 0.5 (1 - a exact, steps well scaled in the tail)."""
    x = np.asarray(x, np.float64)
    a = np.abs(x)
    inside = a < 1.0
    a_in = np.where(inside, a, 0.0)
    q = 1.0 - a_in
    w = -np.log1p(-a_in * a_in)
    t = a_in * np.where(w < 5.0, _horner(_CENTRAL, w - 2.5), _horner(_TAIL, np.sqrt(w) - 3.0))
    tail = a_in > 0.5
    for _ in range(4):
        slope = _TWO_OVER_SQRT_PI * np.exp(-t * t)
        e = _erfc(t)
        with np.errstate(divide="ignore", invalid="ignore"):
            up = (np.log(e) - np.log(q)) * e / slope
        t = np.where(tail, t + up, t - (_erf(t) - a_in) / slope)
    edge = np.where(a == 1.0, np.inf, np.nan)
    return np.copysign(np.where(inside, t, edge), x)


def digamma_f64(x: np.ndarray) -> np.ndarray:
    """SciPy's digamma: reflection for x < 0, recurrence up to x >= 10, then the asymptotic
    series (tp_digamma_f64 in tp_special.h, operation for operation)."""
    x = np.asarray(x, np.float64)
    negative = x < 0
    pole = (negative & (x == np.floor(x))) | (x == -np.inf)
    reflected = np.where(negative & ~pole, -np.pi / np.tan(np.pi * (x - np.rint(x))), 0.0)
    result = np.where(negative, reflected, 0.0)
    y = np.where(negative, 1 - x, x)
    y = np.where(pole | (x == 0), 1.0, y)             # keep the steps finite; fixed below
    for _ in range(10):                               # y < 10 steps up (at most 10 times)
        low = y < 10
        result = np.where(low, result - 1 / y, result)
        y = np.where(low, y + 1, y)
    f = 1 / (y * y)
    series = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (
        -1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12)))))))
    out = result + np.log(y) - 0.5 / y + series
    out = np.where(x == np.inf, np.inf, out)
    out = np.where(x == 0, np.copysign(np.inf, -x), out)
    return np.where(pole | np.isnan(x), np.nan, out)


def _in_dtype(fn):
    def rule(avals, x):
        dt = avals[0].dtype
        with np.errstate(all="ignore"):
            return np.asarray(fn(np.asarray(x, np.float64))).astype(dt)
    return rule


SPECIAL_IMPLS = {"erf": _in_dtype(_erf), "erfc": _in_dtype(_erfc),
                 "erf_inv": _in_dtype(erf_inv_f64), "lgamma": _in_dtype(_lgamma),
                 "digamma": _in_dtype(digamma_f64)}
