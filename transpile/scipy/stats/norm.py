"""jax.scipy.stats.norm: the normal distribution with mean `loc` and deviation `scale`."""
from __future__ import annotations

import math

from ... import numpy as tnp
from .._normal import log_ndtr, ndtr, ndtri
from ...numpy._inexact import DEFAULT_FLOAT, promote_inexact


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    variance = tnp.square(scale)
    log_normalizer = tnp.log(2 * math.pi * variance)
    return (log_normalizer + tnp.square(x - loc) / variance) / -2


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return ndtr((x - loc) / scale)


def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return log_ndtr((x - loc) / scale)


def sf(x, loc=0, scale=1):
    """1 - cdf, as the cdf of the mirrored value (accurate in the upper tail)."""
    x, loc, scale = promote_inexact(x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return logcdf(-x, -loc, scale)


def ppf(q, loc=0, scale=1):
    """The quantile function. As JAX's, the result has the default float dtype (float64
    here; JAX's with x64 on)."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return tnp.asarray(ndtri(q) * scale + loc, dtype=DEFAULT_FLOAT)


def isf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    return ppf(1 - q, loc, scale)
