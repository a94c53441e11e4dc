"""jax.scipy.stats.gumbel_l: the left-skewed Gumbel (minimum extreme value) distribution,
sf exp(-e^{z}), z = (x - loc) / scale. NaN wherever scale <= 0, as JAX's."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def _checked(result, scale):
    return tnp.where(scale > 0, result, np.nan)


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    z = (x - loc) / scale
    return _checked(z - tnp.exp(z) - tnp.log(scale), scale)


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    """log(1 - exp(-e^z)) with expm1, exact where e^z is tiny."""
    x, loc, scale = promote_inexact(x, loc, scale)
    z = (x - loc) / scale
    return _checked(tnp.log(-tnp.expm1(-tnp.exp(z))), scale)


def cdf(x, loc=0, scale=1):
    return tnp.exp(logcdf(x, loc, scale))


def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return _checked(-tnp.exp((x - loc) / scale), scale)


def sf(x, loc=0, scale=1):
    return tnp.exp(logsf(x, loc, scale))


def ppf(p, loc=0, scale=1):
    """loc + scale log(-log(1 - p)); NaN outside the open interval (0, 1), as JAX's."""
    p, loc, scale = promote_inexact(p, loc, scale)
    quantile = loc + scale * tnp.log(-tnp.log1p(-p))
    return tnp.where((p > 0) & (p < 1), quantile, np.nan)
