"""`gamma` and `loggamma` by Marsaglia and Tsang's method ("A simple method for generating
gamma variables", ACM TOMS 2000), as JAX draws them, so a key gives JAX's numbers.

JAX splits the key into one key per element and runs a rejection loop per element (a
vmapped while loop on CPU). Here every element is one lane of a single vectorised
while loop: each pass redraws the lanes still rejecting and keeps the others, which is
what the vmapped loop computes, so each lane's draws and result are those of JAX's
element. Under jit the loop is one C `while` over arrays.

Derivatives: as JAX, a draw x is differentiated with respect to its shape parameter a by
implicit reparameterisation (Figurnov et al., 2018): x moves with a so that its CDF P(a, x)
stays fixed, dx/da = -(dP/da) / (dP/dx). dP/dx is the density; dP/da is a central difference
of the regularized incomplete gamma function in float64 (of Q = 1 - P above the mean, where
P rounds to 1), accurate to ~1e-8 relative, far below float32's rounding. The rejection loop
itself is never differentiated (its derivative would be wrong)."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autodiff.custom import custom_jvp
from ..core import aval_of
from ..lax_special import lgamma
from ..lax import while_loop
from ..numpy import _elementwise as E
from ..numpy._creation import full
from ..numpy._reductions import any as any_
from ..base.operands import astype, reshape
from ..scipy.special import gammainc, gammaincc
from ._params import float_dtype, params_at, result_shape
from ._per_key import normal_each, split_each, uniform_each
from ._threefry import check_key, split

F64 = dtypes.float64


def gamma(key, a, shape=None, dtype=None):
    """Gamma(a, 1) draws of `shape` (None: a's shape)."""
    return sample_gamma(key, a, shape, dtype, "gamma", log_space=False)


def loggamma(key, a, shape=None, dtype=None):
    """log of Gamma(a, 1) draws, computed in log space (accurate for a << 1)."""
    return sample_gamma(key, a, shape, dtype, "loggamma", log_space=True)


def sample_gamma(key, a, shape, dtype, what: str, log_space: bool):
    """gamma/loggamma for the public sampler `what` (named by errors)."""
    key = check_key(key, what)
    dt = float_dtype(dtype, what)
    shape = result_shape(what, shape, a=a)
    alpha, = params_at(dt, shape, a)
    count = math.prod(shape)
    keys = split(key, count)
    flat = _with_implicit_derivative(log_space)(keys, reshape(alpha, (count,)))
    return reshape(flat, shape)


def _with_implicit_derivative(log_space: bool):
    def draw(keys, alpha):
        return _marsaglia_tsang(keys, alpha, log_space)
    draw = custom_jvp(draw)

    @draw.defjvp
    def _implicit(primals, tangents):
        keys, alpha = primals
        out = _marsaglia_tsang(keys, alpha, log_space)
        slope = _log_sample_slope(alpha, out) if log_space else _sample_slope(alpha, out)
        return out, E.multiply(tangents[1], slope)
    return draw


def _sample_slope(alpha, x):
    """dx/dalpha at fixed CDF, in alpha's dtype (0 where x is 0, as JAX)."""
    dt = aval_of(alpha).dtype
    a64, x64 = astype(alpha, F64), astype(x, F64)
    slope = E.where(E.equal(x64, 0.0), 0.0, _implicit_slope(a64, E.where(E.equal(x64, 0.0),
                                                                          1.0, x64)))
    return astype(slope, dt)


def _log_sample_slope(alpha, log_x):
    """d log(x)/dalpha = (dx/dalpha) / x, x = exp(log_x) computed in float64."""
    a64 = astype(alpha, F64)       # float32 where float64 does not exist (JAX's x32 rules)
    x64 = E.exp(astype(log_x, F64))
    x64 = E.maximum(x64, np.finfo(aval_of(x64).dtype).tiny)
    return astype(E.divide(_implicit_slope(a64, x64), x64), aval_of(alpha).dtype)


def _implicit_slope(a, x):
    """-(dP/da) / (dP/dx) for float64 a > 0, x > 0."""
    h = E.multiply(a, 1e-5)
    upper = E.greater(x, a)     # there P is near 1: difference Q = 1 - P instead
    p_hi, p_lo = gammainc(E.add(a, h), x), gammainc(E.subtract(a, h), x)
    q_hi, q_lo = gammaincc(E.add(a, h), x), gammaincc(E.subtract(a, h), x)
    dp_da = E.where(upper, E.negative(E.subtract(q_hi, q_lo)), E.subtract(p_hi, p_lo))
    dp_da = E.divide(dp_da, E.multiply(h, 2.0))
    density = E.exp(E.subtract(E.subtract(E.multiply(E.subtract(a, 1.0), E.log(x)), x),
                               lgamma(a)))
    return E.negative(E.divide(dp_da, density))


def _marsaglia_tsang(keys, alpha, log_space):
    """One gamma (or log-gamma) draw per (key, alpha) lane."""
    dt = aval_of(alpha).dtype
    one, third = dt.type(1.0), dt.type(1.0 / 3.0)
    # a < 1 draws Gamma(a + 1) and scales it by u**(1/a) (in log space: adds log(u) / a).
    boost_mask = E.greater_equal(alpha, one)
    boosted = E.where(boost_mask, alpha, E.add(alpha, one))
    d = E.subtract(boosted, third)
    c = E.divide(third, E.sqrt(d))
    pairs = split_each(keys, 2)
    key, subkey = pairs[:, 0], pairs[:, 1]
    zeros = full(aval_of(alpha).shape, dt.type(0.0))
    # The initial (X, V, U) = (0, 1, 2) rejects, so every lane draws at least once.
    state = (key, zeros, E.add(zeros, one), E.add(zeros, dt.type(2.0)))
    _, _, v, _ = while_loop(lambda s: any_(_rejects(s, d)),
                            lambda s: _redraw_rejected(s, d, c), state)
    if log_space:
        log_u = E.log1p(E.negative(uniform_each(subkey, dt)))
        zero = dt.type(0.0)
        log_boost = E.where(E.logical_or(boost_mask, E.equal(log_u, zero)), zero,
                            E.multiply(log_u, E.divide(one, alpha)))
        return E.add(E.add(E.log(d), E.log(v)), log_boost)
    u = E.subtract(one, uniform_each(subkey, dt))
    boost = E.where(boost_mask, one, E.power(u, E.divide(one, alpha)))
    return E.multiply(E.multiply(d, v), boost)


def _rejects(state, d):
    """Marsaglia and Tsang's test, both halves (the squeeze, then the logarithms)."""
    _, x2, v, u = state
    dt = aval_of(d).dtype
    one = dt.type(1.0)
    squeeze = E.greater_equal(u, E.subtract(one, E.multiply(dt.type(0.0331),
                                                            E.multiply(x2, x2))))
    bound = E.add(E.multiply(x2, dt.type(0.5)),
                  E.multiply(d, E.add(E.subtract(one, v), E.log(v))))
    return E.logical_and(squeeze, E.greater_equal(E.log(u), bound))


def _redraw_rejected(state, d, c):
    key, x2, v, u = state
    rejected = _rejects(state, d)
    keys = split_each(key, 3)
    new_key, x_key, u_key = keys[:, 0], keys[:, 1], keys[:, 2]
    x, v_new = _positive_v(x_key, c)
    dt = aval_of(d).dtype
    new = (new_key, E.multiply(x, x), E.multiply(E.multiply(v_new, v_new), v_new),
           uniform_each(u_key, dt))
    return (E.where(rejected[:, None], new[0], key),
            *(E.where(rejected, n, o) for n, o in zip(new[1:], (x2, v, u))))


def _positive_v(keys, c):
    """Normal draws x until v = 1 + c x is positive, per lane; returns (x, v)."""
    dt = aval_of(c).dtype
    zeros = full(aval_of(c).shape, dt.type(0.0))

    def redraw(state):
        key, x, v = state
        pending = E.less_equal(v, dt.type(0.0))
        pairs = split_each(key, 2)
        x_new = normal_each(pairs[:, 1], dt)
        v_new = E.add(dt.type(1.0), E.multiply(x_new, c))
        return (E.where(pending[:, None], pairs[:, 0], key), E.where(pending, x_new, x),
                E.where(pending, v_new, v))
    _, x, v = while_loop(lambda s: any_(E.less_equal(s[2], dt.type(0.0))), redraw,
                         (keys, zeros, E.subtract(zeros, dt.type(1.0))))
    return x, v
