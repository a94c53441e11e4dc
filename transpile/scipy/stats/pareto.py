"""jax.scipy.stats.pareto: the Pareto distribution with shape b on [loc + scale, inf)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def _below_support(x, loc, scale):
    return x < loc + scale


def logpdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_inexact(x, b, loc, scale)
    y = (x - loc) / scale
    log_probs = tnp.log(b / scale) - (b + 1) * tnp.log(y)
    return tnp.where(_below_support(x, loc, scale), -np.inf, log_probs)


def pdf(x, b, loc=0, scale=1):
    return tnp.exp(logpdf(x, b, loc, scale))


def cdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_inexact(x, b, loc, scale)
    y = (x - loc) / scale
    return tnp.where(_below_support(x, loc, scale), 0, 1 - tnp.power(y, -b))


def logcdf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_inexact(x, b, loc, scale)
    y = (x - loc) / scale
    return tnp.where(_below_support(x, loc, scale), -np.inf, tnp.log1p(-tnp.power(y, -b)))


def logsf(x, b, loc=0, scale=1):
    x, b, loc, scale = promote_inexact(x, b, loc, scale)
    y = (x - loc) / scale
    return tnp.where(_below_support(x, loc, scale), 0, -b * tnp.log(y))


def sf(x, b, loc=0, scale=1):
    return tnp.exp(logsf(x, b, loc, scale))


def ppf(q, b, loc=0, scale=1):
    q, b, loc, scale = promote_inexact(q, b, loc, scale)
    invalid = tnp.isnan(q) | (q < 0) | (q > 1)
    return tnp.where(invalid, np.nan, loc + scale * tnp.power(1 - q, -1 / b))
