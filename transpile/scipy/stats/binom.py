"""jax.scipy.stats.binom: successes in n trials of probability p (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, n, p, loc=0):
    """log C(n, y) + y log p + (n - y) log(1 - p), y = k - loc. As JAX's, a non-integer k
    inside [loc, loc + n] gets the gamma-function interpolation, not -inf."""
    k, n, p, loc = promote_inexact(k, n, p, loc)
    y = k - loc
    log_choose = special.gammaln(n + 1) - special.gammaln(y + 1) - special.gammaln(n - y + 1)
    log_powers = special.xlogy(y, p) + special.xlog1py(n - y, -p)
    # A certain outcome (p = 0 or 1 at the matching end, or no trials) has probability
    # exactly 1: its gammaln terms would otherwise leave a rounding residue.
    certain = ((y == 0) & (n == 0)) | (log_powers == 0)
    log_probs = tnp.where(certain, 0, log_choose + log_powers)
    inside = (k >= loc) & (k < loc + n + 1)
    return tnp.where(inside, log_probs, -np.inf)


def pmf(k, n, p, loc=0):
    return tnp.exp(logpmf(k, n, p, loc))
