"""jax.scipy.stats.vonmises: the circular normal distribution with concentration kappa."""
from __future__ import annotations

import math

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpdf(x, kappa):
    """κ(cos x - 1) - log(2π i0e(κ)): i0e(κ) = e^{-κ} I0(κ) keeps large κ finite. NaN for
    κ <= 0, as JAX's."""
    x, kappa = promote_inexact(x, kappa)
    log_probs = kappa * (tnp.cos(x) - 1) - tnp.log(2 * math.pi * special.i0e(kappa))
    return tnp.where(kappa > 0, log_probs, np.nan)


def pdf(x, kappa):
    return tnp.exp(logpdf(x, kappa))
