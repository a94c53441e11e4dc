"""jax.scipy.stats.cauchy: the Cauchy (Lorentz) distribution centred on loc."""
from __future__ import annotations

import math

from ... import numpy as tnp
from ...numpy._inexact import promote_inexact


def logpdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    z = (x - loc) / scale
    return -(tnp.log(math.pi * scale) + tnp.log1p(z * z))


def pdf(x, loc=0, scale=1):
    return tnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return 0.5 + tnp.arctan((x - loc) / scale) / math.pi


def logcdf(x, loc=0, scale=1):
    return tnp.log(cdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    """The mirrored cdf, as 1 - cdf would cancel in the upper tail."""
    x, loc, scale = promote_inexact(x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x, loc=0, scale=1):
    x, loc, scale = promote_inexact(x, loc, scale)
    return logcdf(-x, -loc, scale)


def ppf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    return tnp.tan(math.pi * q - math.pi / 2) * scale + loc


def isf(q, loc=0, scale=1):
    q, loc, scale = promote_inexact(q, loc, scale)
    return tnp.tan(math.pi / 2 - math.pi * q) * scale + loc
