"""jax.scipy.stats.poisson: counts with mean mu (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as tnp
from .. import special
from ._util import promote_inexact


def logpmf(k, mu, loc=0):
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    log_probs = special.xlogy(x, mu) - special.gammaln(x + 1) - mu
    return tnp.where((x < 0) | (x != tnp.round(x)), -np.inf, log_probs)


def pmf(k, mu, loc=0):
    return tnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """P(K <= k) = sum of pmf(i) for i = 0 .. floor(k): a loop to the largest k, adding each
    term (in log space, so a large mu does not underflow exp(-mu)) where i <= floor(k)."""
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    terms = tnp.floor(1 + x)                  # how many pmf terms each element sums
    terms, mu = tnp.broadcast_arrays(terms, mu)
    stop = tnp.max(terms) if terms.size else 0

    def keep_going(state):
        return state[0] < stop

    def add_term(state):
        i, total = state
        term = tnp.exp(special.xlogy(i, mu) - mu - special.gammaln(i + 1))
        return i + 1, total + tnp.where(i < terms, term, 0)

    start = (tnp.zeros((), dtype=mu.dtype), tnp.zeros_like(mu))
    _, total = lax.while_loop(keep_going, add_term, start)
    return tnp.where(x < 0, 0, total)
