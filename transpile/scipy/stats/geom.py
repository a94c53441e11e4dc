"""jax.scipy.stats.geom: the trial of the first success, probability p each (k >= 1 + loc)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, p, loc=0):
    k, p, loc = promote_inexact(k, p, loc)
    x = k - loc
    log_probs = special.xlog1py(x - 1, -p) + tnp.log(p)
    return tnp.where(x <= 0, -np.inf, log_probs)


def pmf(k, p, loc=0):
    return tnp.exp(logpmf(k, p, loc))
