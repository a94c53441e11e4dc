"""Distributions JAX builds from gamma draws, with its key splits and formulas, so a key gives
JAX's numbers: beta, dirichlet, chisquare, t, f, generalized_normal and ball. Their
derivatives with respect to the parameters go through gamma's implicit reparameterisation."""
from __future__ import annotations

import numpy as np

from ..core import aval_of
from ..numpy import _elementwise as E
from ..numpy._reductions import max as max_, sum as sum_
from ..base.operands import static_shape
from ._gamma import sample_gamma
from ._params import float_dtype, param, params_at, reciprocal, result_shape
from ._samplers import normal
from ._threefry import check_key, split
from ._transforms import exponential, rademacher


def beta(key, a, b, shape=None, dtype=None):
    """Gamma(a) / (Gamma(a) + Gamma(b)), from log-gamma draws scaled by their maximum."""
    key = check_key(key, "beta")
    dt = float_dtype(dtype, "beta")
    shape = result_shape("beta", shape, a=a, b=b)
    a, b = params_at(dt, shape, a, b)
    key_a, key_b = split(key)
    log_a = sample_gamma(key_a, a, shape, dt, "beta", log_space=True)
    log_b = sample_gamma(key_b, b, shape, dt, "beta", log_space=True)
    log_max = E.maximum(log_a, log_b)
    scaled_a, scaled_b = E.exp(E.subtract(log_a, log_max)), E.exp(E.subtract(log_b, log_max))
    return E.divide(scaled_a, E.add(scaled_a, scaled_b))


def dirichlet(key, alpha, shape=None, dtype=None):
    """softmax of log-gamma draws along alpha's last axis; `shape` is the batch shape."""
    key = check_key(key, "dirichlet")
    dt = float_dtype(dtype, "dirichlet")
    alpha = param(alpha, dt)
    alpha_shape = aval_of(alpha).shape
    if len(alpha_shape) < 1:
        raise ValueError(f"random.dirichlet: alpha must have at least one dimension (the "
                         f"categories), got alpha.ndim == 0")
    batch = result_shape("dirichlet", shape, **{"alpha.shape[:-1]": np.empty(alpha_shape[:-1])})
    log_g = sample_gamma(key, alpha, batch + alpha_shape[-1:], dt, "dirichlet", log_space=True)
    shifted = E.exp(E.subtract(log_g, max_(log_g, axis=-1, keepdims=True)))
    return E.divide(shifted, sum_(shifted, axis=-1, keepdims=True))


def chisquare(key, df, shape=None, dtype=None):
    """2 Gamma(df / 2), drawn in log space."""
    key = check_key(key, "chisquare")
    dt = float_dtype(dtype, "chisquare")
    shape = result_shape("chisquare", shape, df=df)
    return _chisquare(key, param(df, dt), shape, dt, "chisquare")


def _chisquare(key, df, shape, dt, what):
    two = dt.type(2.0)
    log_g = sample_gamma(key, E.divide(df, two), shape, dt, what, log_space=True)
    return E.multiply(E.exp(log_g), two)


def t(key, df, shape=None, dtype=None):
    """Student's t: normal * sqrt((df / 2) / Gamma(df / 2))."""
    key = check_key(key, "t")
    dt = float_dtype(dtype, "t")
    shape = result_shape("t", shape, df=df)
    df = param(df, dt)
    key_n, key_g = split(key)
    n = normal(key_n, shape, dt)
    half_df = E.divide(df, dt.type(2.0))
    g = sample_gamma(key_g, half_df, shape, dt, "t", log_space=False)
    return E.multiply(n, E.sqrt(E.divide(half_df, g)))


def f(key, dfnum, dfden, shape=None, dtype=None):
    """(chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden)."""
    key = check_key(key, "f")
    dt = float_dtype(dtype, "f")
    shape = result_shape("f", shape, dfnum=dfnum, dfden=dfden)
    dfnum, dfden = param(dfnum, dt), param(dfden, dt)
    key_den, key_num = split(key)
    num = E.divide(_chisquare(key_num, dfnum, shape, dt, "f"), dfnum)
    den = E.divide(_chisquare(key_den, dfden, shape, dt, "f"), dfden)
    return E.divide(num, den)


def generalized_normal(key, p, shape=(), dtype=None):
    """Density proportional to exp(-|x|**p): a random sign times Gamma(1/p)**(1/p)."""
    key = check_key(key, "generalized_normal")
    dt = float_dtype(dtype, "generalized_normal")
    return _generalized_normal(key, p, static_shape(shape, "shape"), dt, "generalized_normal")


def _generalized_normal(key, p, shape, dt, what):
    keys = split(key)
    inverse_p = reciprocal(p)
    g = sample_gamma(keys[0], inverse_p, shape, dt, what, log_space=False)
    sign = rademacher(keys[1], shape, dt)
    return E.multiply(sign, E.power(g, inverse_p))


def ball(key, d, p=2, shape=(), dtype=None):
    """Uniform draws from the unit Lp ball in d dimensions (Barthe, Guedon, Mendelson and
    Naor): generalized normal coordinates over (sum |g|**p + exponential)**(1/p)."""
    key = check_key(key, "ball")
    dt = float_dtype(dtype, "ball")
    shape = static_shape(shape, "shape")
    if not isinstance(d, (int, np.integer)) or isinstance(d, bool) or d < 0:
        raise ValueError(f"random.ball: d (the dimension) must be a static non-negative int, "
                         f"got {d!r}")
    k1, k2 = split(key)
    g = _generalized_normal(k1, p, (*shape, int(d)), dt, "ball")
    e = exponential(k2, shape, dt)
    radius = E.power(E.add(sum_(E.power(E.abs(g), p), axis=-1), e), reciprocal(p))
    return E.divide(g, radius[..., None])
