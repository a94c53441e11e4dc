"""jax.scipy.stats.multivariate_normal: the density of a normal with mean vector `mean` and
covariance matrix `cov`, through cov's Cholesky factor."""
from __future__ import annotations

import math

from ... import numpy as tnp
from ...core import aval_of
from ...numpy._inexact import promote_inexact


def logpdf(x, mean, cov, allow_singular=None):
    """log density at x (shape (..., n)); mean has shape (n,), cov (n, n) (a scalar or
    vector cov: a multiple of the identity, or the diagonal)."""
    if allow_singular is not None:
        raise NotImplementedError("multivariate_normal.logpdf: allow_singular is not "
                                  "supported (JAX's neither); pass allow_singular=None")
    x, mean, cov = promote_inexact(x, mean, cov)
    n = aval_of(mean).shape[-1] if aval_of(mean).shape else aval_of(x).shape[-1]
    if len(aval_of(cov).shape) < 2:
        cov = tnp.eye(n, dtype=aval_of(cov).dtype) * cov
    chol = tnp.linalg.cholesky(cov)
    diff = x - mean
    batch = aval_of(diff).shape[:-1]
    columns = tnp.reshape(diff, (-1, n)).T               # one column per point
    whitened = tnp.linalg.solve(chol, columns)
    quadratic = tnp.reshape(tnp.sum(tnp.square(whitened), axis=0), batch)
    log_det = 2 * tnp.sum(tnp.log(tnp.diagonal(chol)))
    return -0.5 * (quadratic + log_det + n * math.log(2 * math.pi))


def pdf(x, mean, cov):
    return tnp.exp(logpdf(x, mean, cov))
