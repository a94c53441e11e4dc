"""jax.scipy.stats.wrapcauchy: the wrapped Cauchy distribution on [0, 2π], shape 0 < c < 1."""
from __future__ import annotations

import math

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def logpdf(x, c):
    x, c = promote_inexact(x, c)
    log_probs = (tnp.log(1 - c * c) - math.log(2 * math.pi)
                 - tnp.log(1 + c * c - 2 * c * tnp.cos(x)))
    on_circle = (x >= 0) & (x <= 2 * math.pi)
    result = tnp.where(on_circle, log_probs, -np.inf)
    return tnp.where((c > 0) & (c < 1), result, np.nan)


def pdf(x, c):
    return tnp.exp(logpdf(x, c))
