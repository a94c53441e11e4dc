"""`gamma` and `loggamma` by Marsaglia and Tsang's method ("A simple method for generating
gamma variables", ACM TOMS 2000), as JAX draws them, so a key gives JAX's numbers.

JAX splits the key into one key per element and runs a rejection loop per element (a
vmapped while loop on CPU). Here every element is one lane of a single vectorised
while loop: each pass redraws the lanes still rejecting and keeps the others, which is
what the vmapped loop computes, so each lane's draws and result are those of JAX's
element. Under jit the loop is one C `while` over arrays.

Derivatives: JAX differentiates gamma (and beta, dirichlet, ... built on it) through the
shape parameter by implicit reparameterisation. That is not implemented; differentiating
with respect to the parameter raises NotImplementedError naming the sampler, instead of
returning a derivative of the rejection loop, which would be wrong."""
from __future__ import annotations

import math

from ..autodiff.custom import custom_jvp
from ..core import aval_of
from ..lax import while_loop
from ..numpy import _elementwise as E
from ..numpy._creation import full
from ..numpy._reductions import any as any_
from ..numpy._util import reshape
from ._params import float_dtype, params_at, result_shape
from ._per_key import normal_each, split_each, uniform_each
from ._threefry import check_key, split


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
    flat = _without_derivative(what, log_space)(keys, reshape(alpha, (count,)))
    return reshape(flat, shape)


def _without_derivative(what: str, log_space: bool):
    def draw(keys, alpha):
        return _marsaglia_tsang(keys, alpha, log_space)
    draw = custom_jvp(draw)

    @draw.defjvp
    def _refuse(primals, tangents):
        raise NotImplementedError(
            f"random.{what}: derivatives with respect to the distribution's parameters (JAX's "
            f"implicit reparameterisation gradient of gamma) are not implemented; wrap the "
            f"parameter in lax.stop_gradient if its derivative is not needed")
    return draw


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
