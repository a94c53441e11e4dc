"""jax.scipy.stats.gennorm: the generalized normal distribution, density ∝ exp(-|x|^β)."""
from __future__ import annotations

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, beta):
    x, beta = promote_inexact(x, beta)
    return tnp.log(beta / 2) - special.gammaln(1 / beta) - tnp.power(tnp.abs(x), beta)


def pdf(x, beta):
    return tnp.exp(logpdf(x, beta))


def cdf(x, beta):
    """(1 + sign(x) P(1/β, |x|^β)) / 2, P the regularized lower incomplete gamma."""
    x, beta = promote_inexact(x, beta)
    mass = special.gammainc(1 / beta, tnp.power(tnp.abs(x), beta))
    return (1 + tnp.sign(x) * mass) / 2
