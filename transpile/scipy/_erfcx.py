"""The scaled complementary error function erfcx(x) = exp(x^2) erfc(x), as
jax.scipy.special's, in float64 (a float32 operand is rounded once at the end).

Below 26 (9 in float32) the product itself, with x^2 carried as an exact sum hi + lo (Dekker's
splitting) so that exp(x^2) = exp(hi) (1 + lo) keeps full precision where x^2 is large; from
there, where erfc(x) approaches float64's underflow, the asymptotic series
1 / (x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k, whose terms fall below 1e-19 within
_TERMS terms at x = 26. exp(x^2) overflows below about -26.6: inf, as SciPy.
"""
from __future__ import annotations

import math

import numpy as np

from .. import numpy as tnp
from ..lax_zeta import working_precision
from ..lax_special import erfc

_TERMS = 12
# Per working precision (float64, or float32 under JAX's rules without x64): where erfc is
# about to underflow (the asymptotic series from there), where 1/x^2 would (the series is 1),
# Dekker's splitting constant 2^(p/2) + 1, and where exp(x^2) has overflowed.
_LIMITS = {np.dtype(np.float64): (26.0, 1e150, 134217729.0, -26.7),
           np.dtype(np.float32): (9.0, 1e18, 4097.0, -9.5)}


def _square_hi_lo(x, split):
    """x * x = hi + lo exactly (without an FMA)."""
    hi = x * x
    c = split * x
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
    x = working_precision(x)
    asymptotic, huge_from, split, overflow = _LIMITS[x.dtype]
    moderate = (x < asymptotic) & (x > overflow)
    safe = tnp.where(moderate, x, 0.0)
    hi, lo = _square_hi_lo(safe, split)
    direct = tnp.exp(hi) * (1 + lo) * erfc(safe)
    # Far out 1/x^2 would underflow (harmlessly, but NumPy warns): the series is 1 there.
    large = tnp.where((x >= asymptotic) & (x < huge_from), x, asymptotic)
    huge = 1 / (tnp.where(x >= huge_from, x, 1.0) * math.sqrt(math.pi))
    value = tnp.where(moderate, direct, tnp.where(x >= huge_from, huge, _asymptotic(large)))
    value = tnp.where(x <= overflow, np.inf, value)
    return tnp.where(tnp.isnan(x), np.nan, value).astype(dt)
