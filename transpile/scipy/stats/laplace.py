"""jax.scipy.stats.laplace: the double exponential distribution around loc with scale."""
from __future__ import annotations

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return -(tnp.abs(x - loc) / scale + tnp.log(2 * scale))


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """Each half from its own tail, so neither side loses digits to 1 - tiny."""
    x, loc, scale = promote_inexact(x, loc, scale)
    z = (x - loc) / scale
    return tnp.where(z <= 0, tnp.exp(z) / 2, 1 - tnp.exp(-z) / 2)
