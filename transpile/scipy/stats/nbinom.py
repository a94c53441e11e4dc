"""jax.scipy.stats.nbinom: failures before the n-th success, probability p each."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, n, p, loc=0):
    """log Γ(y + n) - log Γ(n) - log Γ(y + 1) + n log p + y log(1 - p), y = k - loc."""
    k, n, p, loc = promote_inexact(k, n, p, loc)
    y = k - loc
    log_choose = special.gammaln(y + n) - special.gammaln(n) - special.gammaln(y + 1)
    log_powers = special.xlogy(n, p) + special.xlogy(y, 1 - p)
    return tnp.where(k < loc, -np.inf, log_choose + log_powers)


def pmf(k, n, p, loc=0):
    return tnp.exp(logpmf(k, n, p, loc))
