"""jax.scipy.stats.dirichlet: densities on the probability simplex with concentrations alpha
(one-dimensional); x's first axis runs over the K categories (or K - 1, the last implied)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact

# How far from 1 a point's coordinates may sum and still count as on the simplex (JAX's).
SIMPLEX_TOLERANCE = 1e-6


def _on_simplex(x):
    return tnp.all(x > 0, axis=0) & (tnp.abs(tnp.sum(x, axis=0) - 1) < SIMPLEX_TOLERANCE)


def _checked_shapes(x, alpha):
    if alpha.ndim != 1:
        raise ValueError(f"dirichlet: `alpha` must be one-dimensional; got alpha.shape="
                         f"{alpha.shape}")
    if x.ndim == 0 or x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ValueError(f"dirichlet: `x` must have as many entries along its first axis as "
                         f"`alpha`, or one fewer; got x.shape={x.shape}, "
                         f"alpha.shape={alpha.shape}")


def logpdf(x, alpha):
    x, alpha = promote_inexact(x, alpha)
    _checked_shapes(x, alpha)
    if x.shape[0] != alpha.shape[0]:          # the last coordinate is what the others leave
        x = tnp.concatenate([x, 1 - tnp.sum(x, axis=0, keepdims=True)], axis=0)
    log_beta = tnp.sum(special.gammaln(alpha)) - special.gammaln(tnp.sum(alpha))
    alpha = tnp.reshape(alpha, alpha.shape + (1,) * (x.ndim - 1))
    log_probs = tnp.sum(special.xlogy(alpha - 1, x), axis=0) - log_beta
    return tnp.where(_on_simplex(x), log_probs, -np.inf)


def pdf(x, alpha):
    return tnp.exp(logpdf(x, alpha))
