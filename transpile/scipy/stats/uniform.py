"""jax.scipy.stats.uniform: the uniform distribution on [loc, loc + scale]."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    outside = (x > loc + scale) | (x < loc)
    return tnp.where(outside, -np.inf, -tnp.log(scale))


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return tnp.select([x < loc, x > loc + scale], [0, 1], (x - loc) / scale)


def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    invalid = tnp.isnan(q) | (q < 0) | (q > 1)
    return tnp.where(invalid, np.nan, loc + q * scale)
