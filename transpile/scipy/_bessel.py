"""Exponentially scaled modified Bessel functions of the first kind, i0e(x) = exp(-|x|) I0(x)
and i1e(x) = exp(-|x|) I1(x), as jax.scipy.special's.

Up to |x| = 30 the power series (every term positive, so no cancellation) times exp(-|x|);
beyond, Hankel's asymptotic expansion, whose terms shrink past 1e-17 within 20 terms there.
Both are evaluated in float64 (a float32 operand is rounded once at the end), or in float32
where float64 does not exist (JAX's rules with 64-bit mode off).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import numpy as tnp
from ..core import aval_of

_SERIES_LIMIT = 30.0
_SERIES_TERMS = 64        # (15^2)^k / (k! (k+nu)!) is below 1e-17 of the sum by k = 64
_ASYMPTOTIC_TERMS = 20


def _power_series(x, nu: int):
    """I_nu(x) = sum_k (x/2)^(2k+nu) / (k! (k+nu)!), for x >= 0."""
    half = x / 2
    quarter_squared = tnp.square(half)
    term = half if nu == 1 else tnp.ones_like(x)
    total = term
    for k in range(1, _SERIES_TERMS):
        term = term * quarter_squared / (k * (k + nu))
        total = total + term
    return total


def _hankel_scaled(x, nu: int):
    """exp(-x) I_nu(x) ~ sum_k c_k / x^k / sqrt(2 pi x), c_k / c_(k-1) = ((2k-1)^2 - 4 nu^2)
    / (8k), for large x > 0."""
    inverse = 1 / x
    term = tnp.ones_like(x)
    total = term
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = term * inverse * (((2 * k - 1) ** 2 - 4 * nu * nu) / (8 * k))
        total = total + term
    return total / tnp.sqrt(2 * math.pi * x)


def _scaled_bessel(x, nu: int):
    dt = aval_of(x).dtype
    wide = tnp.asarray(x, dtype=dtypes.canonicalize(np.float64))
    magnitude = tnp.abs(wide)
    small = tnp.minimum(magnitude, _SERIES_LIMIT)
    large = tnp.maximum(magnitude, _SERIES_LIMIT)
    value = tnp.where(magnitude <= _SERIES_LIMIT,
                      tnp.exp(-small) * _power_series(small, nu), _hankel_scaled(large, nu))
    if nu == 1:
        value = tnp.where(wide < 0, -value, value)      # I1 is odd, I0 even
    return value.astype(dt)


def i0e(x):
    return _scaled_bessel(x, 0)


def i1e(x):
    return _scaled_bessel(x, 1)
