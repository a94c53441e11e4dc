"""Spence's function spence(x) = integral_1^x log(t) / (1 - t) dt = Li2(1 - x), the
dilogarithm at 1 - x, as jax.scipy.special's (and SciPy's) for real x >= 0 (NaN below, and
at +inf).

Li2 comes from one series, in u = -log(1 - z): Li2(z) = u - u^2/4 + sum_j B_2j u^(2j+1) /
(2j+1)!, whose terms shrink like (u / 2 pi)^2 each; every x is brought to |u| <= log 2 by
the reflection Li2(z) = pi^2/6 - log z log(1-z) - Li2(1-z) (for x < 1/2, where 1 - z is x
itself, exactly) or the inversion Li2(z) = -pi^2/6 - log^2(-z)/2 - Li2(1/z) (for x > 2). Each
u is formed from x without rounding 1 - x first. float64 throughout; float32 rounds once.
"""
from __future__ import annotations

import math

import numpy as np

from .. import numpy as tnp
from ..lax_zeta import working_precision
from ..lax_zeta import even_bernoulli

_TERMS = 12
_PI2_6 = math.pi ** 2 / 6
# B_2j / (2j+1)!: the series' coefficients in powers of u^2 after u^3.
_COEFFS = tuple(b / math.factorial(2 * j + 1)
                for j, b in enumerate(even_bernoulli(_TERMS), start=1))


def _li2_series(u):
    w = u * u
    p = tnp.full_like(u, _COEFFS[-1])
    for c in _COEFFS[-2::-1]:
        p = c + w * p
    return u - w / 4 + u * w * p


def spence(x):
    """Li2(1 - x) for a float operand (the caller promotes)."""
    dt = x.dtype
    x = working_precision(x)
    valid = (x >= 0) & tnp.isfinite(x)
    # Stand-ins keep every branch finite; tnp.where picks the one that applies.
    small = tnp.where(valid & (x > 0) & (x < 0.5), x, 0.25)
    middle = tnp.where(valid & (x >= 0.5) & (x <= 2), x, 1.0)
    big = tnp.where(valid & (x > 2), x, 4.0)
    reflected = _PI2_6 - tnp.log(small) * tnp.log1p(-small) - _li2_series(-tnp.log1p(-small))
    direct = _li2_series(-tnp.log(middle)) + 0.0       # spence(1) is +0, as SciPy's
    log_big = tnp.log(big - 1)
    inverted = -_PI2_6 - 0.5 * log_big * log_big - _li2_series(tnp.log1p(-1 / big))
    value = tnp.where(x < 0.5, reflected, tnp.where(x <= 2, direct, inverted))
    value = tnp.where(x == 0, _PI2_6, value)
    return tnp.where(valid, value, np.nan).astype(dt)
