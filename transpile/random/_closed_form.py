"""Distributions JAX draws by a closed-form transform of uniform, exponential or normal draws
(pareto, weibull_min, rayleigh, maxwell, double_sided_maxwell, wald, triangular) and random
orthogonal matrices, each with JAX's key splits and formula, so a key gives JAX's numbers."""
from __future__ import annotations

import numpy as np

from ..numpy import _elementwise as E
from ..numpy import linalg as _linalg
from ..numpy._manipulation import swapaxes
from ..numpy._shape import expand_dims
from ..base.operands import static_shape
from ._params import float_dtype, param, params_at, reciprocal, result_shape
from ._samplers import normal, uniform
from ._threefry import check_key, split
from ._transforms import exponential, rademacher


def pareto(key, b, shape=None, dtype=None):
    """Pareto with shape b and scale 1: exp(exponential / b)."""
    key = check_key(key, "pareto")
    dt = float_dtype(dtype, "pareto")
    shape = result_shape("pareto", shape, b=b)
    return E.exp(E.divide(exponential(key, shape, dt), param(b, dt)))


def weibull_min(key, scale, concentration, shape=(), dtype=None):
    """The inverse Weibull CDF of a uniform draw: scale * (-log1p(-u))**(1/concentration).
    As JAX, `shape` is the draws' shape and the parameters broadcast against it."""
    key = check_key(key, "weibull_min")
    dt = float_dtype(dtype, "weibull_min")
    u = uniform(key, static_shape(shape, "shape"), dt)
    exponent = reciprocal(concentration)
    scale = param(scale, dt)
    return E.multiply(E.power(E.negative(E.log1p(E.negative(u))), exponent), scale)


def rayleigh(key, scale, shape=None, dtype=None):
    """scale * sqrt(-2 log u)."""
    key = check_key(key, "rayleigh")
    dt = float_dtype(dtype, "rayleigh")
    shape = result_shape("rayleigh", shape, scale=scale)
    u = uniform(key, shape, dt)
    scale, = params_at(dt, shape, scale)
    return E.multiply(scale, E.sqrt(E.multiply(E.log(u), dt.type(-2.0))))


def maxwell(key, shape=(), dtype=None):
    """The length of a standard normal vector in three dimensions."""
    key = check_key(key, "maxwell")
    dt = float_dtype(dtype, "maxwell")
    return _maxwell(key, static_shape(shape, "shape"), dt)


def _maxwell(key, shape, dt):
    return _linalg.norm(normal(key, (*shape, 3), dt), axis=-1)


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None):
    """A Maxwell draw with a random sign, scaled and shifted. As JAX, the parameters' batch
    shape is appended to `shape` (and is the whole shape when `shape` is empty)."""
    key = check_key(key, "double_sided_maxwell")
    dt = float_dtype(dtype, "double_sided_maxwell")
    loc, scale = param(loc, dt), param(scale, dt)
    batch = np.broadcast_shapes(np.shape(loc), np.shape(scale))
    shape = static_shape(shape, "shape") or batch
    shape = shape + batch
    maxwell_key, sign_key = split(key)
    draws = _maxwell(maxwell_key, shape, dt)
    sign = rademacher(sign_key, shape, dt)
    return E.add(E.multiply(E.multiply(sign, draws), scale), loc)


def wald(key, mean, shape=None, dtype=None):
    """Inverse Gaussian with the given mean and shape parameter 1 (Michael, Schucany and
    Haas' transform of a normal draw, one uniform choosing between the two roots)."""
    key = check_key(key, "wald")
    dt = float_dtype(dtype, "wald")
    shape = result_shape("wald", shape, mean=mean)
    k1, k2 = split(key)
    mean, = params_at(dt, shape, mean)
    v = normal(k1, shape, dt)
    z = uniform(k2, shape, dt)
    y = E.multiply(v, v)
    y_sq = E.multiply(y, y)
    mean_sq = E.multiply(mean, mean)
    sqrt_term = E.sqrt(E.add(E.multiply(E.multiply(dt.type(4.0), mean), y),
                             E.multiply(mean_sq, y_sq)))
    x = E.subtract(E.add(mean, E.divide(E.multiply(mean_sq, y), dt.type(2.0))),
                   E.multiply(E.divide(mean, dt.type(2.0)), sqrt_term))
    return E.where(E.less_equal(z, E.divide(mean, E.add(mean, x))), x, E.divide(mean_sq, x))


def triangular(key, left, mode, right, shape=None, dtype=None):
    """The inverse CDF of the triangular distribution on [left, right] peaking at mode."""
    key = check_key(key, "triangular")
    dt = float_dtype(dtype, "triangular")
    shape = result_shape("triangular", shape, left=left, mode=mode, right=right)
    left, mode, right = params_at(dt, shape, left, mode, right)
    width = E.subtract(right, left)
    u = uniform(key, shape, dt)
    below = E.add(left, E.sqrt(E.multiply(E.multiply(u, width), E.subtract(mode, left))))
    above = E.subtract(right, E.sqrt(E.multiply(E.multiply(E.subtract(dt.type(1.0), u), width),
                                                E.subtract(right, mode))))
    return E.where(E.less(u, E.divide(E.subtract(mode, left), width)), below, above)


def orthogonal(key, n, shape=(), dtype=None, m=None):
    """A Haar-random orthogonal (n, n) matrix, or semi-orthogonal (n, m) one (Mezzadri,
    "How to generate random matrices from the classical compact groups", 2007): Q of a
    normal matrix's QR, each column's sign set by R's diagonal."""
    key = check_key(key, "orthogonal")
    dt = float_dtype(dtype, "orthogonal")
    shape = static_shape(shape, "shape")
    n = _static_size(n, "n")
    m = n if m is None else _static_size(m, "m")
    z = normal(key, (*shape, max(n, m), min(n, m)), dt)
    q, r = _linalg.qr(z)
    signs = E.sign(_linalg.diagonal(r))
    x = E.multiply(q, expand_dims(signs, -2))
    return swapaxes(x, -1, -2) if n < m else x


def _static_size(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"random.orthogonal: {what} must be a static non-negative int, got "
                         f"{value!r}")
    return int(value)

