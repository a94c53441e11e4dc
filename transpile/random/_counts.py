"""Counting distributions as JAX draws them, so a key gives JAX's numbers: poisson (Knuth's
product of uniforms below lam = 10, Hoermann's transformed rejection above), binomial
(geometric waiting times while n p <= 10, else Hoermann's BTRS), multinomial (a binomial
per category on what the earlier ones left) and geometric.

The loops are JAX's: whole-array rejection loops in which every pass draws fresh uniforms for
all elements from one new key and keeps the first accepted value of each."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of, is_python_scalar
from ..lax import scan, while_loop
from ..lax_special import lgamma
from ..numpy import _elementwise as E
from ..numpy._creation import asarray, full
from ..numpy._cumulative import cumsum
from ..numpy._indexing import take
from ..numpy._reductions import any as any_
from ..numpy._shape import flip, moveaxis
from ..base.operands import astype, broadcast_to
from ._params import int_dtype, float_dtype, param, result_shape
from ._samplers import F32, uniform
from ._threefry import check_key, split


# -- poisson ----------------------------------------------------------------------------------

def poisson(key, lam, shape=None, dtype=None):
    """Poisson(lam) counts (an integer dtype, int32 by default); lam is used in float32."""
    key = check_key(key, "poisson")
    dt = int_dtype(dtype, "poisson")
    shape = result_shape("poisson", shape, lam=lam)
    lam = broadcast_to(param(lam, F32), shape)
    use_knuth = E.logical_or(E.isnan(lam), E.less(lam, F32.type(10.0)))
    # Both loops run on every element with the same key; each element keeps one result.
    small = _poisson_knuth(key, E.where(use_knuth, lam, F32.type(0.0)), shape, dt)
    large = _poisson_rejection(key, E.where(use_knuth, F32.type(1e5), lam), shape, dt)
    result = E.where(use_knuth, small, large)
    return E.where(E.equal(lam, F32.type(0.0)), dt.type(0), result)


def _poisson_knuth(key, lam, shape, dt):
    """Count uniforms until their product falls to exp(-lam), in log space."""
    neg_lam = E.negative(lam)

    def body(state):
        k, key, log_prod = state
        key, subkey = split(key)
        k = E.where(E.greater(log_prod, neg_lam), E.add(k, dt.type(1)), k)
        return k, key, E.add(log_prod, E.log(uniform(subkey, shape, F32)))
    init = (full(shape, dt.type(0)), key, full(shape, F32.type(0.0)))
    k, _, _ = while_loop(lambda s: any_(E.greater(s[2], neg_lam)), body, init)
    return E.subtract(k, dt.type(1))


def _poisson_rejection(key, lam, shape, dt):
    """Hoermann's transformed rejection ("The transformed rejection method for generating
    Poisson random variables", 1993), JAX's constants and operation order."""
    c = F32.type                # float32 constants, as JAX's weak Python floats become
    log_lam = E.log(lam)
    b = E.add(c(0.931), E.multiply(c(2.53), E.sqrt(lam)))
    a = E.add(c(-0.059), E.multiply(c(0.02483), b))
    inv_alpha = E.add(c(1.1239), E.divide(c(1.1328), E.subtract(b, c(3.4))))
    v_r = E.subtract(c(0.9277), E.divide(c(3.6224), E.subtract(b, c(2.0))))

    def body(state):
        k_out, accepted, key = state
        key, key_u, key_v = split(key, 3)
        u = E.subtract(uniform(key_u, shape, F32), c(0.5))
        v = uniform(key_v, shape, F32)
        u_shifted = E.subtract(c(0.5), E.abs(u))
        k = E.floor(E.add(E.add(E.multiply(E.add(E.divide(E.multiply(c(2.0), a), u_shifted),
                                                     b), u), lam), c(0.43)))
        s = E.log(E.divide(E.multiply(v, inv_alpha),
                           E.add(E.divide(a, E.multiply(u_shifted, u_shifted)), b)))
        t = E.subtract(E.add(E.negative(lam), E.multiply(k, log_lam)),
                       lgamma(E.add(k, c(1.0))))
        accept1 = E.logical_and(E.greater_equal(u_shifted, c(0.07)), E.less_equal(v, v_r))
        reject = E.logical_or(E.less(k, c(0.0)), E.logical_and(E.less(u_shifted, c(0.013)),
                                                                E.greater(v, u_shifted)))
        accept = E.logical_or(accept1, E.logical_and(E.logical_not(reject),
                                                     E.less_equal(s, t)))
        return E.where(accept, k, k_out), E.logical_or(accepted, accept), key
    init = (full(shape, c(-1.0)), full(shape, False), key)
    k, _, _ = while_loop(lambda s: any_(E.logical_not(s[1])), body, init)
    return astype(k, dt)


# -- binomial ---------------------------------------------------------------------------------

def binomial(key, n, p, shape=None, dtype=None):
    """Binomial(n, p) counts, as floats (JAX's dtype: float32 by default). Draws for p > 1/2
    count failures with q = 1 - p; NaN or negative n and NaN or negative p give NaN, an
    infinite n gives inf."""
    key = check_key(key, "binomial")
    dt = float_dtype(dtype, "binomial")
    shape = result_shape("binomial", shape, n=n, p=p)
    prob = _inexact(p)
    pdt = aval_of(prob).dtype
    count = broadcast_to(astype(asarray(n), pdt), shape)
    prob = broadcast_to(prob, shape)
    return _binomial(key, count, prob, shape, dt)


def _inexact(p):
    """p as a float array: Python numbers, lists and integer arrays in JAX's default float."""
    if is_python_scalar(p) or isinstance(p, (list, tuple)):
        return asarray(p, dtype=float_dtype(None, "p"))
    p = asarray(p)
    return p if dtypes.is_float(aval_of(p).dtype) else astype(p, float_dtype(None, "p"))


def _binomial(key, count, prob, shape, dt):
    pdt = aval_of(prob).dtype
    c = pdt.type
    p_lt_half = E.less(prob, c(0.5))
    q = E.where(p_lt_half, prob, E.subtract(c(1.0), prob))
    count_nan_or_neg = E.logical_or(E.isnan(count), E.less(count, c(0.0)))
    count_inf = E.isinf(count)
    q_is_nan, q_negative = E.isnan(q), E.less(q, c(0.0))
    q = E.where(E.logical_or(q_is_nan, q_negative), c(0.01), q)
    use_inversion = E.logical_or(count_nan_or_neg, E.less_equal(E.multiply(count, q), c(10.0)))
    count = E.floor(count)
    small = _binomial_inversion(key, E.where(use_inversion, count, c(0.0)), q, shape, dt)
    large = _btrs(key, E.where(use_inversion, c(1e4), count),
                  E.where(use_inversion, c(0.5), q), shape, dt)
    samples = E.where(use_inversion, small, large)
    invalid = E.logical_or(E.logical_or(q_negative, q_is_nan), count_nan_or_neg)
    samples = E.where(invalid, dt.type(np.nan), samples)
    samples = E.where(E.logical_and(count_inf, E.logical_not(invalid)), dt.type(np.inf), samples)
    keep = E.logical_or(E.logical_or(p_lt_half, count_nan_or_neg),
                        E.logical_or(q_is_nan, count_inf))
    return E.where(keep, samples, E.subtract(astype(count, dt), samples))


def _binomial_inversion(key, count, prob, shape, dt):
    """Sum geometric waiting times until they pass n; the count of them, less one."""
    pdt = aval_of(prob).dtype
    log1m_prob = E.log1p(E.negative(prob))

    def body(state):
        num_geom, geom_sum, key = state
        subkey, key = split(key)
        num_geom = E.where(E.less_equal(geom_sum, count), E.add(num_geom, pdt.type(1)),
                           num_geom)
        u = uniform(subkey, shape, pdt)
        geom = E.ceil(E.divide(E.log(u), log1m_prob))
        return num_geom, E.add(geom_sum, geom), key
    init = (full(shape, pdt.type(0)), full(shape, pdt.type(0)), key)
    k, _, _ = while_loop(lambda s: any_(E.less_equal(s[1], count)), body, init)
    return astype(E.subtract(k, pdt.type(1)), dt)


def _btrs(key, count, prob, shape, dt):
    """Hoermann's BTRS ("The generation of binomial random variates", 1993), with JAX's
    constants and Stirling tail terms."""
    c = aval_of(prob).dtype.type
    stddev = E.sqrt(E.multiply(E.multiply(count, prob), E.subtract(c(1), prob)))
    b = E.add(c(1.15), E.multiply(c(2.53), stddev))
    a = E.add(E.add(c(-0.0873), E.multiply(c(0.0248), b)), E.multiply(c(0.01), prob))
    center = E.add(E.multiply(count, prob), c(0.5))
    v_r = E.subtract(c(0.92), E.divide(c(4.2), b))
    r = E.divide(prob, E.subtract(c(1), prob))
    alpha = E.multiply(E.add(c(2.83), E.divide(c(5.1), b)), stddev)
    m = E.floor(E.multiply(E.add(count, c(1)), prob))

    def body(state):
        k_out, accepted, key = state
        key, key_u, key_v = split(key, 3)
        u = uniform(key_u, shape, aval_of(prob).dtype)
        v = uniform(key_v, shape, aval_of(prob).dtype)
        u = E.subtract(u, c(0.5))
        us = E.subtract(c(0.5), E.abs(u))
        accept1 = E.logical_and(E.greater_equal(us, c(0.07)), E.less_equal(v, v_r))
        k = E.floor(E.add(E.multiply(E.add(E.divide(E.multiply(c(2), a), us), b), u), center))
        reject = E.logical_or(E.less(k, c(0)), E.greater(k, count))
        v = E.log(E.divide(E.multiply(v, alpha), E.add(E.divide(a, E.multiply(us, us)), b)))
        accept = E.logical_or(accept1, E.logical_and(E.logical_not(reject),
                                                     E.less_equal(v, _btrs_bound(k, m, r, count))))
        return E.where(accept, k, k_out), E.logical_or(accepted, accept), key
    init = (full(shape, c(-1)), full(shape, False), key)
    k, _, _ = while_loop(lambda s: any_(E.logical_not(s[1])), body, init)
    return astype(k, dt)


def _btrs_bound(k, m, r, count):
    c = aval_of(k).dtype.type
    terms = (
        E.multiply(E.add(m, c(0.5)),
                   E.log(E.divide(E.add(m, c(1)), E.multiply(r, E.add(E.subtract(count, m),
                                                                      c(1)))))),
        E.multiply(E.add(count, c(1)),
                   E.log(E.divide(E.add(E.subtract(count, m), c(1)),
                                  E.add(E.subtract(count, k), c(1))))),
        E.multiply(E.add(k, c(0.5)),
                   E.log(E.divide(E.multiply(r, E.add(E.subtract(count, k), c(1))),
                                  E.add(k, c(1))))),
        _stirling_tail(m), _stirling_tail(E.subtract(count, m)))
    total = terms[0]
    for term in terms[1:]:
        total = E.add(total, term)
    return E.subtract(E.subtract(total, _stirling_tail(k)),
                      _stirling_tail(E.subtract(count, k)))


# log(k!) - (Stirling's formula): tabulated for k = 0..9, the series beyond.
_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_tail(k):
    dt = aval_of(k).dtype
    c = dt.type
    table = np.array(_STIRLING_TAIL, dt)
    use_table = E.less_equal(k, c(9))
    k = E.clip(k, c(0), c(9))
    kp1sq = E.multiply(E.add(k, c(1)), E.add(k, c(1)))
    series = E.divide(E.subtract(c(1.0 / 12), E.divide(E.subtract(c(1.0 / 360),
                                                                 E.divide(c(1.0 / 1260), kp1sq)),
                                                      kp1sq)),
                      E.add(k, c(1)))
    return E.where(use_table, take(table, astype(E.floor(k), dtypes.int32)), series)


# -- multinomial ------------------------------------------------------------------------------

def multinomial(key, n, p, *, shape=None, dtype=None, unroll=1):
    """Counts of n draws over p's last axis (the categories): category i gets a binomial
    draw from what categories before it left, with p_i over the probability remaining.
    `shape` is the whole result shape (JAX 0.10's: p's shape with the batch broadcast)."""
    key = check_key(key, "multinomial")
    dt = float_dtype(dtype, "multinomial")
    work = _joint_inexact(n, p)
    n, p = asarray(n), asarray(p)
    n, p = astype(n, work), astype(p, work)
    shape = tuple(aval_of(p).shape) if shape is None else tuple(int(d) for d in shape)
    if len(shape) < 1:
        raise ValueError("random.multinomial: p must have at least one dimension (the "
                         "categories)")
    n = broadcast_to(n, shape[:-1])
    p = moveaxis(broadcast_to(p, shape), -1, 0)
    remaining = flip(cumsum(flip(p, 0), axis=0), 0)
    ratios = E.divide(p, E.where(E.equal(remaining, work.type(0)), work.type(1), remaining))
    keys = split(key, shape[-1])

    def step(remainder, ratio_key):
        ratio, k = ratio_key
        count = _binomial(k, remainder, E.clip(ratio, work.type(0), work.type(1)),
                          shape[:-1], work)
        return E.subtract(remainder, count), count
    _, counts = scan(step, n, (ratios, keys))
    return astype(moveaxis(counts, 0, -1), dt)


def _joint_inexact(n, p):
    """The float dtype n and p promote to, a Python number n taking p's (JAX's weak type)."""
    joint = dtypes.result_type([aval_of(asarray(n)).dtype, aval_of(asarray(p)).dtype],
                               [is_python_scalar(n), is_python_scalar(p)])
    return joint if dtypes.is_float(joint) else float_dtype(None, "multinomial")


# -- geometric --------------------------------------------------------------------------------

def geometric(key, p, shape=None, dtype=None):
    """The number of Bernoulli(p) trials up to the first success (1, 2, ...):
    floor(log(u) / log1p(-p)) + 1, as integers (int32 by default)."""
    key = check_key(key, "geometric")
    dt = int_dtype(dtype, "geometric")
    shape = result_shape("geometric", shape, p=p)
    p = _inexact(p)
    pdt = aval_of(p).dtype
    u = uniform(key, shape, pdt)
    # As JAX: u == 0 becomes 1 (log(0) would be -inf).
    log_u = E.log(E.where(E.equal(u, pdt.type(0)), pdt.type(1), u))
    log1m_p = broadcast_to(E.log1p(E.negative(p)), shape)
    return astype(E.add(E.floor(E.divide(log_u, log1m_p)), pdt.type(1)), dt)
