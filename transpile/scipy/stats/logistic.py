"""jax.scipy.stats.logistic: the logistic distribution (cdf = expit((x - loc) / scale))."""
from __future__ import annotations

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, loc=0, scale=1):
    """log(e^{-z} / (1 + e^{-z})²) = -2 log(e^{z/2} + e^{-z/2}), symmetric and free of
    overflow for large |z|."""
    x, loc, scale = promote_inexact(x, loc, scale)
    half_z = (x - loc) / scale / 2
    return -2 * tnp.logaddexp(half_z, -half_z) - tnp.log(scale)


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return special.expit((x - loc) / scale)


def sf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return special.expit((loc - x) / scale)


def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    return special.logit(q) * scale + loc


def isf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    return loc - special.logit(q) * scale
