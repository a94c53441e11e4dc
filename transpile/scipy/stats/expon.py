"""jax.scipy.stats.expon: the exponential distribution on [loc, inf) with mean loc + scale."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    log_probs = (loc - x) / scale - tnp.log(scale)
    return tnp.where(x < loc, -np.inf, log_probs)


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return tnp.where(x < loc, 0, (loc - x) / scale)


def sf(x, loc=0, scale=1):
    return tnp.exp(logsf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """1 - e^{-z} as -expm1(-z): exact near loc where 1 - e^{-z} cancels."""
    x, loc, scale = promote_inexact(x, loc, scale)
    return tnp.where(x < loc, 0, -tnp.expm1((loc - x) / scale))


def logcdf(x, loc=0, scale=1):
    return tnp.log1p(-sf(x, loc, scale))


def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    invalid = tnp.isnan(q) | (q < 0) | (q > 1)
    return tnp.where(invalid, np.nan, loc - scale * tnp.log1p(-q))
