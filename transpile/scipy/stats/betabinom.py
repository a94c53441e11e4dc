"""jax.scipy.stats.betabinom: a binomial whose success probability is Beta(a, b) distributed."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, n, a, b, loc=0):
    """log C(n, y) + log B(y + a, n - y + b) - log B(a, b), y = floor(k) - loc, the binomial
    coefficient as -log(n + 1) - log B(n - y + 1, y + 1)."""
    k, n, a, b, loc = promote_inexact(k, n, a, b, loc)
    y = tnp.floor(k) - loc
    log_choose = -(tnp.log1p(n) + special.betaln(n - y + 1, y + 1))
    log_ratio = special.betaln(y + a, n - y + b) - special.betaln(a, b)
    log_probs = tnp.where((y == 0) & (n == 0), 0, log_choose + log_ratio)
    outside = (y < -loc) | (y > n) | (y + a <= 0)
    log_probs = tnp.where(outside, -np.inf, log_probs)
    return tnp.where((n < 0) | (a <= 0) | (b <= 0), np.nan, log_probs)


def pmf(k, n, a, b, loc=0):
    return tnp.exp(logpmf(k, n, a, b, loc))
