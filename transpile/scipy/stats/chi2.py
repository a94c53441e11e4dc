"""jax.scipy.stats.chi2: the chi-squared distribution with `df` degrees of freedom (a gamma
with shape df/2 and scale 2), shifted by loc and scaled."""
from __future__ import annotations

import math

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    y = (x - loc) / scale
    half_df = df / 2
    log_norm = special.gammaln(half_df) + half_df * math.log(2) + tnp.log(scale)
    log_probs = (half_df - 1) * tnp.log(y) - y / 2 - log_norm
    return tnp.where(x < loc, -np.inf, log_probs)


def pdf(x, df, loc=0, scale=1):
    return tnp.exp(logpdf(x, df, loc, scale))


def _half_y(x, loc, scale):
    """(x - loc) / (2 scale), clamped at 0 below the support (maximum keeps a NaN)."""
    return tnp.maximum((x - loc) / (2 * scale), 0)


def cdf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    return special.gammainc(df / 2, _half_y(x, loc, scale))


def logcdf(x, df, loc=0, scale=1):
    return tnp.log(cdf(x, df, loc, scale))


def sf(x, df, loc=0, scale=1):
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    return special.gammaincc(df / 2, _half_y(x, loc, scale))


def logsf(x, df, loc=0, scale=1):
    return tnp.log(sf(x, df, loc, scale))
