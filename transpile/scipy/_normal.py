"""The standard normal distribution's CDF (`ndtr`), its logarithm (`log_ndtr`) and its
inverse (`ndtri`), as jax.scipy.special's."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import numpy as tnp
from ..core import aval_of
from ..lax_special import erf, erf_inv, erfc

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def ndtr(x):
    """P(Z <= x): erf near 0 (where it is exact-ish), erfc in the tails (no cancellation)."""
    z = x * aval_of(x).dtype.type(math.sqrt(0.5))
    near_zero = tnp.abs(z) < math.sqrt(0.5)
    doubled = tnp.where(near_zero, 1 + erf(z), tnp.where(z > 0, 2 - erfc(z), erfc(-z)))
    return 0.5 * doubled


def log_ndtr(x, series_order=3):
    """log P(Z <= x), by JAX's three segments: -ndtr(-x) above `upper`, log(ndtr(x)) in the
    middle, and below `lower` the asymptotic series log(phi(x) / -x * (1 - 1/x^2 + 3/x^4 ...))
    truncated after `series_order` terms (JAX's default 3; its bounds per dtype)."""
    if not 0 <= series_order <= 30:
        raise ValueError(f"log_ndtr: series_order must be in [0, 30], got {series_order}")
    dt = aval_of(x).dtype
    lower, upper = (-20.0, 8.0) if dt == dtypes.float64 else (-10.0, 5.0)
    middle = tnp.log(ndtr(tnp.maximum(x, lower)))
    tail = _log_ndtr_asymptotic(tnp.minimum(x, lower), series_order)
    return tnp.where(x > upper, -ndtr(-x), tnp.where(x > lower, middle, tail))


def _log_ndtr_asymptotic(x, series_order):
    x_squared = tnp.square(x)
    series, term, power = 1.0, 1.0, 1.0
    for n in range(1, series_order + 1):
        term *= -(2 * n - 1)          # (-1)^n (2n-1)!!
        power = power * x_squared
        series = series + term / power
    return -0.5 * x_squared - tnp.log(-x) - _HALF_LOG_2PI + tnp.log(series)


def ndtri(p):
    """The x with P(Z <= x) = p (`_ndtri_values`). Its derivative is the analytic one,
    1 / density(x), as JAX's: differentiating the Newton steps would be slow, and their
    tail branch (not taken, but NaN near p = 0.5) would leak NaN into it."""
    from ..autodiff.custom import custom_jvp      # autodiff names scipy only lazily
    quantile = custom_jvp(_ndtri_values)
    quantile.defjvp(_ndtri_jvp)
    return quantile(p)


def _ndtri_jvp(primals, tangents):
    p, = primals
    t, = tangents
    x = _ndtri_values(p)
    return x, t * tnp.exp(0.5 * tnp.square(x) + _HALF_LOG_2PI).astype(aval_of(x).dtype)


def _ndtri_values(p):
    """The x with P(Z <= x) = p. A first guess (erf_inv, or the tail's asymptotic form where
    2p - 1 rounds to -1) refined by Newton steps on log ndtr, which converge monotonically
    (log ndtr is concave) and keep full relative precision deep in the tails. float32
    computes in float64 and rounds once (in float32 where float64 does not exist: JAX's
    rules with 64-bit mode off)."""
    dt = aval_of(p).dtype
    wide = dtypes.canonicalize(np.float64)
    q64 = tnp.asarray(p, dtype=wide)
    upper_half = q64 > 0.5
    q = tnp.where(upper_half, 1 - q64, q64)       # exact for p >= 0.5
    safe = tnp.clip(q, np.finfo(wide).tiny, 0.5)
    x = tnp.where(safe < 1e-8, _tail_guess(safe), math.sqrt(2) * erf_inv(2 * safe - 1))
    log_q = tnp.log(safe)
    for _ in range(4):
        cdf = ndtr(x)
        density = tnp.exp(-0.5 * tnp.square(x) - _HALF_LOG_2PI)
        x = x - (tnp.log(cdf) - log_q) * cdf / density
    x = tnp.where(q == 0.5, 0.0, x)
    x = tnp.where(q == 0, -np.inf, x)
    x = tnp.where((q64 < 0) | (q64 > 1) | tnp.isnan(q64), np.nan, x)
    return tnp.where(upper_half, -x, x).astype(dt)


def _tail_guess(q):
    """-sqrt(-2 log q - log(-2 log q) - log 2 pi): the lower tail's quantile to about 1e-3."""
    two_log = -2 * tnp.log(q)
    return -tnp.sqrt(two_log - tnp.log(two_log) - 2 * _HALF_LOG_2PI)
