"""jax.scipy.stats.truncnorm: the standard normal restricted to [a, b] (in standard units),
then shifted by loc and scaled. NaN wherever a >= b, as JAX's."""
from __future__ import annotations

import math

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact
from . import norm


def _log_difference(log_big, log_small):
    """log(e^big - e^small) for big >= small; -inf when they are equal (infinities too)."""
    gap = log_small - log_big
    log_rest = tnp.where(gap > -math.log(2), tnp.log(-tnp.expm1(gap)), tnp.log1p(-tnp.exp(gap)))
    return tnp.where(log_big == log_small, -np.inf, log_big + log_rest)


def _log_normal_mass(lo, hi):
    """log P(lo <= Z <= hi) for a standard normal Z, computed in whichever tail is smaller
    (mirrored to the left so that log_ndtr stays accurate), or as 1 minus both tails when the
    interval holds 0."""
    right = lo > 0
    central = ~((hi <= 0) | right)
    tail_lo = tnp.where(right, -hi, lo)
    tail_hi = tnp.where(right, -lo, hi)
    tail = _log_difference(special.log_ndtr(tail_hi), special.log_ndtr(tail_lo))
    middle = tnp.log1p(-special.ndtr(lo) - special.ndtr(-hi))
    return tnp.where(central, middle, tail)


def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    log_probs = norm.logpdf(x, loc, scale) - _log_normal_mass(a, b)
    z = (x - loc) / scale
    log_probs = tnp.where((z < a) | (z > b), -np.inf, log_probs)
    return tnp.where(a >= b, np.nan, log_probs)


def pdf(x, a, b, loc=0, scale=1):
    return tnp.exp(logpdf(x, a, b, loc, scale))


def logcdf(x, a, b, loc=0, scale=1):
    """log of the mass in [a, z] over the mass in [a, b]; near 1 (above e^-0.1) it is taken
    as log(1 - upper mass), which keeps the digits the lower mass would lose."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    z = (x - loc) / scale
    log_total = _log_normal_mass(a, b)
    log_lower = _log_normal_mass(a, z) - log_total
    log_upper = _log_normal_mass(z, b) - log_total
    result = tnp.select([z >= b, z <= a, log_lower > -0.1, z > a],
                        [0, -np.inf, tnp.log1p(-tnp.exp(log_upper)), log_lower], 0)
    return tnp.where(a >= b, np.nan, result)


def cdf(x, a, b, loc=0, scale=1):
    return tnp.exp(logcdf(x, a, b, loc, scale))


def logsf(x, a, b, loc=0, scale=1):
    """The mirrored distribution's logcdf."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    return logcdf(-x, -b, -a, -loc, scale)


def sf(x, a, b, loc=0, scale=1):
    return tnp.exp(logsf(x, a, b, loc, scale))
