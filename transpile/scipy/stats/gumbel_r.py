"""jax.scipy.stats.gumbel_r: the right-skewed Gumbel (maximum extreme value) distribution,
cdf exp(-e^{-z}), z = (x - loc) / scale. NaN wherever scale <= 0, as JAX's."""
from __future__ import annotations

import math

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def _checked(result, scale):
    return tnp.where(scale > 0, result, np.nan)


def _log_one_minus_exp_neg(a):
    """log(1 - e^{-a}) for a >= 0, through expm1 for small a and log1p for large a (each
    where the other loses digits)."""
    return tnp.where(a < math.log(2), tnp.log(-tnp.expm1(-a)), tnp.log1p(-tnp.exp(-a)))


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    z = (x - loc) / scale
    return _checked(-(z + tnp.exp(-z)) - tnp.log(scale), scale)


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return _checked(-tnp.exp((loc - x) / scale), scale)


def cdf(x, loc=0, scale=1):
    return tnp.exp(logcdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return _checked(1 - tnp.exp(-tnp.exp((loc - x) / scale)), scale)


def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return _checked(_log_one_minus_exp_neg(tnp.exp((loc - x) / scale)), scale)


def ppf(p, loc=0, scale=1):
    """loc - scale log(-log p); NaN outside the open interval (0, 1), as JAX's."""
    p, loc, scale = promote_inexact(p, loc, scale)
    quantile = loc - scale * tnp.log(-tnp.log(p))
    return tnp.where((p > 0) & (p < 1), quantile, np.nan)
