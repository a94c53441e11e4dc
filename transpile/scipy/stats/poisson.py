"""jax.scipy.stats.poisson: counts with mean mu (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, mu, loc=0):
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    log_probs = special.xlogy(x, mu) - special.gammaln(x + 1) - mu
    return tnp.where((x < 0) | (x != tnp.round(x)), -np.inf, log_probs)


def pmf(k, mu, loc=0):
    return tnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """P(K <= k) = Q(floor(k) + 1, mu), the regularized upper incomplete gamma function."""
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    return tnp.where(x < 0, 0, special.gammaincc(tnp.floor(1 + x), mu))
