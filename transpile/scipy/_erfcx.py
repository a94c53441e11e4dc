"""The scaled complementary error function erfcx(x) = exp(x^2) erfc(x), as
jax.scipy.special's, in float64 (a float32 operand is rounded once at the end).

Below _ASYMPTOTIC the product itself, with x^2 carried as an exact sum hi + lo (Dekker's
splitting) so that exp(x^2) = exp(hi) (1 + lo) keeps full precision where x^2 is large; from
there, where erfc(x) approaches float64's underflow, the asymptotic series
1 / (x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k, whose terms fall below 1e-19 within
_TERMS terms at x = 26. exp(x^2) overflows below about -26.6: inf, as SciPy.
"""
from __future__ import annotations

import math

import numpy as np

from .. import numpy as tnp
from ..lax_special import erfc

_ASYMPTOTIC = 26.0
_TERMS = 12
_SPLIT = 134217729.0           # 2^27 + 1: splits a double into two 26-bit halves
_OVERFLOW = -26.7


def _square_hi_lo(x):
    """x * x = hi + lo exactly (without an FMA)."""
    hi = x * x
    c = _SPLIT * x
    xh = c - (c - x)
    xl = x - xh
    lo = ((xh * xh - hi) + 2 * xh * xl) + xl * xl
    return hi, lo


def _asymptotic(x):
    r = 1 / (2 * x * x)
    term = tnp.ones_like(x)
    total = term
    for k in range(1, _TERMS):
        term = -term * (2 * k - 1) * r
        total = total + term
    return total / (x * math.sqrt(math.pi))


def erfcx(x):
    """exp(x^2) erfc(x) for a float operand (the caller promotes)."""
    dt = x.dtype
    x = tnp.asarray(x, dtype=tnp.float64)
    moderate = (x < _ASYMPTOTIC) & (x > _OVERFLOW)
    safe = tnp.where(moderate, x, 0.0)
    hi, lo = _square_hi_lo(safe)
    direct = tnp.exp(hi) * (1 + lo) * erfc(safe)
    # Beyond 1e150, 1/x^2 would underflow (harmlessly, but NumPy warns): the series is 1.
    large = tnp.where((x >= _ASYMPTOTIC) & (x < 1e150), x, _ASYMPTOTIC)
    huge = 1 / (tnp.where(x >= 1e150, x, 1.0) * math.sqrt(math.pi))
    value = tnp.where(moderate, direct, tnp.where(x >= 1e150, huge, _asymptotic(large)))
    value = tnp.where(x <= _OVERFLOW, np.inf, value)
    return tnp.where(tnp.isnan(x), np.nan, value).astype(dt)
