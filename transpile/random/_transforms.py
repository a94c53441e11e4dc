"""Distributions that are a fixed transform of one uniform or normal draw, computed as JAX
computes them (same uniform range, same formula), so the same key gives JAX's numbers:
exponential, laplace, logistic, cauchy, rademacher, lognormal and multivariate_normal."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..numpy import _elementwise as E
from ..numpy import linalg as _linalg
from ..numpy._creation import asarray
from ..numpy._einsum import einsum
from ..base.operands import astype
from ._samplers import _float_dtype, bernoulli, normal, uniform
from ._threefry import check_key


def exponential(key, shape=(), dtype=None):
    """-log(1 - u): the log's argument in (0, 1]."""
    key = check_key(key, "exponential")
    u = uniform(key, shape, _float_dtype(dtype, "exponential"))
    return E.negative(E.log1p(E.negative(u)))


def laplace(key, shape=(), dtype=None):
    key = check_key(key, "laplace")
    dt = _float_dtype(dtype, "laplace")
    u = uniform(key, shape, dt, dt.type(-1.0 + np.finfo(dt).epsneg), dt.type(1.0))
    return E.multiply(E.sign(u), E.log1p(E.negative(E.abs(u))))


def logistic(key, shape=(), dtype=None):
    key = check_key(key, "logistic")
    dt = _float_dtype(dtype, "logistic")
    x = uniform(key, shape, dt, np.finfo(dt).tiny, dt.type(1.0))
    return E.subtract(E.log(x), E.log1p(E.negative(x)))


def cauchy(key, shape=(), dtype=None):
    key = check_key(key, "cauchy")
    dt = _float_dtype(dtype, "cauchy")
    u = uniform(key, shape, dt, np.finfo(dt).eps, dt.type(1.0))
    return E.tan(E.multiply(dt.type(np.pi), E.subtract(u, dt.type(0.5))))


def rademacher(key, shape=(), dtype=None):
    """-1 or 1 with equal probability (an int32 array unless `dtype` says otherwise)."""
    key = check_key(key, "rademacher")
    dt = dtypes.int32 if dtype is None or dtype is int else dtypes.canonicalize(dtype)
    return astype(E.subtract(E.multiply(2, astype(bernoulli(key, 0.5, shape), dt)), 1), dt)


def lognormal(key, sigma=1.0, shape=None, dtype=None):
    key = check_key(key, "lognormal")
    dt = _float_dtype(dtype, "lognormal")
    shape = np.shape(sigma) if shape is None else shape
    return E.exp(E.multiply(normal(key, shape, dt), astype(asarray(sigma), dt)))


def multivariate_normal(key, mean, cov, shape=None, dtype=None, method="cholesky"):
    """mean + factor @ z with z standard normal and factor cov's Cholesky factor (or
    u*sqrt(s) from its SVD, v*sqrt(w) from eigh), as JAX draws it."""
    key = check_key(key, "multivariate_normal")
    if method not in ("cholesky", "svd", "eigh"):
        raise ValueError(f"multivariate_normal: method must be 'cholesky', 'svd' or 'eigh', "
                         f"got {method!r}")
    dt = _float_dtype(dtype, "multivariate_normal")
    mean, cov = astype(asarray(mean), dt), astype(asarray(cov), dt)
    if len(mean.shape) < 1 or len(cov.shape) < 2 or cov.shape[-2:] != mean.shape[-1:] * 2:
        raise ValueError(f"multivariate_normal: mean must be (..., n) and cov (..., n, n), "
                         f"got mean {mean.shape} and cov {cov.shape}")
    batch = np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2])
    shape = batch if shape is None else tuple(shape)
    if np.broadcast_shapes(shape, batch) != shape:
        raise ValueError(f"multivariate_normal: shape {shape} must be a broadcast of the "
                         f"batch shapes of mean {mean.shape[:-1]} and cov {cov.shape[:-2]}")
    if method == "svd":
        u, s, _ = _linalg.svd(cov)
        factor = E.multiply(u, E.sqrt(s[..., None, :]))
    elif method == "eigh":
        w, v = _linalg.eigh(cov)
        factor = E.multiply(v, E.sqrt(w[..., None, :]))
    else:
        factor = _linalg.cholesky(cov)
    z = normal(key, shape + mean.shape[-1:], dt)
    return E.add(mean, einsum("...ij,...j->...i", factor, z))
