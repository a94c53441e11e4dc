"""jax.scipy.stats.bernoulli: 1 with probability p, else 0 (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, p, loc=0):
    k, p, loc = promote_inexact(k, p, loc)
    x = k - loc
    log_probs = special.xlogy(x, p) + special.xlog1py(1 - x, -p)
    return tnp.where((x < 0) | (x > 1), -np.inf, log_probs)


def pmf(k, p, loc=0):
    return tnp.exp(logpmf(k, p, loc))


def cdf(k, p):
    k, p = promote_inexact(k, p)
    invalid = tnp.isnan(k) | tnp.isnan(p) | (p < 0) | (p > 1)
    return tnp.select([invalid, k < 0, k < 1], [np.nan, 0, 1 - p], 1)


def ppf(q, p):
    q, p = promote_inexact(q, p)
    invalid = tnp.isnan(q) | tnp.isnan(p) | (p < 0) | (p > 1) | (q < 0) | (q > 1)
    zero, one = q.dtype.type(0), q.dtype.type(1)
    return tnp.where(invalid, np.nan, tnp.where(q <= 1 - p, zero, one))
