"""jax.scipy.stats.gamma: the gamma distribution with shape a, shifted by loc, scaled."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_inexact(x, a, loc, scale)
    y = (x - loc) / scale
    log_probs = special.xlogy(a - 1, y) - y - special.gammaln(a) - tnp.log(scale)
    return tnp.where(x < loc, -np.inf, log_probs)


def pdf(x, a, loc=0, scale=1):
    return tnp.exp(logpdf(x, a, loc, scale))


def cdf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_inexact(x, a, loc, scale)
    return special.gammainc(a, tnp.maximum((x - loc) / scale, 0))


def logcdf(x, a, loc=0, scale=1):
    return tnp.log(cdf(x, a, loc, scale))


def sf(x, a, loc=0, scale=1):
    x, a, loc, scale = promote_inexact(x, a, loc, scale)
    y = (x - loc) / scale
    return tnp.where(y < 0, 1, special.gammaincc(a, y))


def logsf(x, a, loc=0, scale=1):
    return tnp.log(sf(x, a, loc, scale))
