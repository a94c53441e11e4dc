"""jax.scipy.stats.beta: the beta distribution on [loc, loc + scale], shapes a and b."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    y = (x - loc) / scale
    log_kernel = special.xlogy(a - 1, y) + special.xlog1py(b - 1, -y)
    log_probs = log_kernel - special.betaln(a, b) - tnp.log(scale)
    outside = (x > loc + scale) | (x < loc)
    result = tnp.where(outside, -np.inf, log_probs)
    return tnp.where((a <= 0) | (b <= 0) | (scale <= 0), np.nan, result)


def pdf(x, a, b, loc=0, scale=1):
    return tnp.exp(logpdf(x, a, b, loc, scale))


def _unit(x, loc, scale):
    return tnp.clip((x - loc) / scale, 0, 1)


def cdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    return special.betainc(a, b, _unit(x, loc, scale))


def logcdf(x, a, b, loc=0, scale=1):
    return tnp.log(cdf(x, a, b, loc, scale))


def sf(x, a, b, loc=0, scale=1):
    """1 - cdf, as the mirrored distribution's cdf (I_{1-y}(b, a))."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    return special.betainc(b, a, 1 - _unit(x, loc, scale))


def logsf(x, a, b, loc=0, scale=1):
    return tnp.log(sf(x, a, b, loc, scale))
