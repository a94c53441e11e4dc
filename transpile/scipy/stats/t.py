"""jax.scipy.stats.t: Student's t distribution with `df` degrees of freedom, shifted by loc
and scaled."""
from __future__ import annotations

import math

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact

# From this shape on, log Γ(a + 1/2) - log Γ(a) comes from its asymptotic series (four terms
# leave 2e-15 relative error at a = 20, less beyond) rather than from two large gammaln
# values that cancel (JAX's form, off by 7e-4 in float32 and 2e-12 in float64 at df = 1e4).
SERIES_FROM = 20.0


def _log_gamma_half_step(a):
    """log(Γ(a + 1/2) / Γ(a)) for a > 0."""
    big = tnp.maximum(a, SERIES_FROM)        # the series' operand stays finite where unused
    inv = 1 / big
    inv2 = inv * inv
    corrections = 1 / 8 - inv2 * (1 / 192 - inv2 * (1 / 640 - inv2 * 17 / 14336))
    series = tnp.log(big) / 2 - inv * corrections
    difference = special.gammaln(a + 0.5) - special.gammaln(a)
    return tnp.where(a >= SERIES_FROM, series, difference)


def logpdf(x, df, loc=0, scale=1):
    """log Γ((ν+1)/2) - log Γ(ν/2) - log(πνσ²)/2 - (ν+1)/2 · log1p(z²/ν), z = (x - loc)/σ.
    As JAX's, no parameter checks: df <= 0 or scale <= 0 give what the formula gives."""
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    z = (x - loc) / scale
    half_df = df / 2
    log_norm = tnp.log(math.pi * scale * scale * df) / 2 - _log_gamma_half_step(half_df)
    return -(log_norm + (half_df + 0.5) * tnp.log1p(z * z / df))


def pdf(x, df, loc=0, scale=1):
    return tnp.exp(logpdf(x, df, loc, scale))
