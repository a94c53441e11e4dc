"""Samplers on top of Threefry bits, each the same computation as JAX's default
implementation (jax/_src/random), so a key gives JAX's numbers.

Dtypes default as under JAX's default configuration: float32 for floats, int32 for ints
(a Python float or list argument such as bernoulli's p is float32 too). Pass float64 or
int64 explicitly for 64-bit results (JAX's numbers with jax_enable_x64). Under JAX's dtype
rules with x64 on (transpile.config) the defaults are float64/int64, as JAX's.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import lax_ops
from ..core import aval_of, is_python_scalar
from ..lax_special import bitcast_convert_type, erf, erf_inv
from ..numpy import _elementwise as E
from ..numpy._creation import arange, asarray, zeros
from ..numpy._cumulative import cumsum
from ..numpy._indexing import take, take_along_axis
from ..numpy._mathfuncs import nextafter
from ..numpy._sorting import argsort, searchsorted
from ..base.operands import astype, broadcast_to, normalize_axis, operand, reshape, static_shape
from ._threefry import check_key, random_bits, split

F32, I32 = dtypes.float32, dtypes.int32
# M. Giles' single-precision erfinv polynomials (GPU Computing Gems Jade, 2011).
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
               0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: dtypes.uint64}


def _default(dt32, kind):
    """JAX's default: its float_/int_ under JAX's rules (64-bit with x64), else 32-bit."""
    if dtypes.config.jax_rules():
        return dtypes.default_float() if kind == "f" else dtypes.default_int()
    return dt32


def _float_dtype(dtype, what):
    dt = _default(F32, "f") if dtype is None or dtype is float else dtypes.canonicalize(dtype)
    if not dtypes.is_float(dt):
        raise TypeError(f"random.{what}: dtype must be a float dtype, got {dt}")
    return dt


def _shape(shape, *param_shapes, what):
    shape = static_shape(shape, "shape")
    full = np.broadcast_shapes(shape, *param_shapes)
    if full != shape:
        raise ValueError(f"random.{what}: parameter shapes {param_shapes} must broadcast to "
                         f"the shape argument {shape}, got {full}")
    return shape


def _as_dtype(x, dt):
    return dt.type(x) if is_python_scalar(x) else astype(operand(x), dt)


def bits(key, shape=(), dtype=None):
    key = check_key(key, "bits")
    dt = dtypes.uint32 if dtype is None else dtypes.canonicalize(dtype)
    if dt not in _UINT.values():
        raise TypeError(f"random.bits: dtype must be an unsigned integer dtype, got {dt}")
    return random_bits(key, dt.itemsize * 8, _shape(shape, what="bits"))


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Floats in [minval, maxval): random mantissa bits under the exponent of 1.0, minus 1."""
    key = check_key(key, "uniform")
    dt = _float_dtype(dtype, "uniform")
    lo, hi = _as_dtype(minval, dt), _as_dtype(maxval, dt)
    shape = _shape(shape, aval_of(lo).shape, aval_of(hi).shape, what="uniform")
    return uniform_from_bits(random_bits(key, dt.itemsize * 8, shape), dt, lo, hi)


def uniform_from_bits(random_bits_, dt, lo, hi):
    """`uniform`'s floats from its random bits (as wide as `dt`)."""
    nbits, nmant = dt.itemsize * 8, np.finfo(dt).nmant
    udt = _UINT[nbits]
    mantissa = E.right_shift(random_bits_, udt.type(nbits - nmant))
    one = np.array(1.0, dt).view(udt)[()]
    floats = E.subtract(bitcast_convert_type(E.bitwise_or(mantissa, one), dt), dt.type(1.0))
    scaled = E.add(E.multiply(floats, E.subtract(hi, lo)), lo)
    return E.maximum(lo, scaled)


def normal(key, shape=(), dtype=None):
    """sqrt(2) * erf_inv(u), u uniform in (-1, 1), as JAX. In float32 erf_inv is XLA's form
    (below); in float64 lax.erf_inv, within an ulp or two of XLA's. A complex dtype gives
    (re + i im) / sqrt(2), re and im real normals from the key's two halves, as JAX's."""
    key = check_key(key, "normal")
    if dtype is not None and dtypes.is_complex(dtypes.canonicalize(dtype)):
        return _complex_normal(key, _shape(shape, what="normal"), dtypes.canonicalize(dtype))
    dt = _float_dtype(dtype, "normal")
    shape = _shape(shape, what="normal")
    return normal_from_bits(random_bits(key, dt.itemsize * 8, shape), dt)


def _complex_normal(key, shape, dt):
    real = np.dtype(dt.char.lower())          # complex64 -> float32, complex128 -> float64
    halves = split(key)
    re, im = (normal_from_bits(random_bits(halves[i], real.itemsize * 8, shape), real)
              for i in (0, 1))
    value = E.add(astype(re, dt), E.multiply(astype(im, dt), dt.type(1j)))
    return E.divide(value, dt.type(math.sqrt(2)))


def normal_from_bits(random_bits_, dt):
    """`normal`'s values from its random bits (as wide as `dt`)."""
    lo = np.nextafter(dt.type(-1.0), dt.type(0.0))
    u = uniform_from_bits(random_bits_, dt, lo, dt.type(1.0))
    inverse = _erf_inv_like_xla_f32(u) if dt == F32 else erf_inv(u)
    return E.multiply(dt.type(math.sqrt(2)), inverse)


def truncated_normal(key, lower, upper, shape=None, dtype=None):
    """A unit normal truncated to (lower, upper), as JAX: the inverse CDF of a uniform draw
    between the bounds' CDFs, clamped inside the open interval."""
    key = check_key(key, "truncated_normal")
    dt = _float_dtype(dtype, "truncated_normal")
    lower, upper = _as_dtype(lower, dt), _as_dtype(upper, dt)
    bounds = (aval_of(lower).shape, aval_of(upper).shape)
    shape = np.broadcast_shapes(*bounds) if shape is None else \
        _shape(shape, *bounds, what="truncated_normal")
    sqrt2 = dt.type(math.sqrt(2))
    lo_cdf, hi_cdf = erf(E.divide(lower, sqrt2)), erf(E.divide(upper, sqrt2))
    u = uniform(key, shape, dt, lo_cdf, hi_cdf)
    inverse = _erf_inv_like_xla_f32(u) if dt == F32 else erf_inv(u)
    out = E.multiply(sqrt2, inverse)
    # Rounding (or u landing on a bound) must not reach the bounds themselves.
    inside_lo = nextafter(lower, dt.type(np.inf))
    inside_hi = nextafter(upper, dt.type(-np.inf))
    return E.minimum(E.maximum(out, inside_lo), inside_hi)


def _erf_inv_like_xla_f32(x):
    """XLA's float32 erf_inv: Giles' single-precision polynomials in w = -log1p(-x*x),
    evaluated with fused multiply-adds. Each step runs in float64 and rounds to float32
    (a float32 product is exact in float64), which reproduces XLA's bits for about 99% of
    inputs and is within 2 ulp of them otherwise (XLA's own log1p accounts for the rest)."""
    w = astype(E.negative(E.log1p(astype(E.multiply(x, E.negative(x)), dtypes.float64))), F32)
    central = _fma_horner(_GILES_CENTRAL, E.subtract(w, F32.type(2.5)))
    tail = _fma_horner(_GILES_TAIL, E.subtract(E.sqrt(w), F32.type(3.0)))
    p = E.where(E.less(w, F32.type(5.0)), central, tail)
    edge = E.equal(E.absolute(x), F32.type(1.0))
    return E.where(edge, E.multiply(x, F32.type(np.inf)), E.multiply(p, x))


def _fma_horner(coeffs, w):
    wide, p = astype(w, dtypes.float64), None
    for c in coeffs:
        c64 = np.float64(np.float32(c))
        p = c64 if p is None else astype(E.add(E.multiply(p, wide), c64), F32)
        p = astype(p, dtypes.float64) if not isinstance(p, np.float64) else p
    return astype(p, F32)


def _clip_to(x, dt):
    """x converted to integer dtype `dt`, clipped to its range instead of wrapping."""
    src = aval_of(x).dtype
    info, src_info = np.iinfo(dt), np.iinfo(src)
    lo, hi = max(info.min, src_info.min), min(info.max, src_info.max)
    return astype(E.minimum(E.maximum(x, src.type(lo)), src.type(hi)), dt)


def _int_operand(x):
    x = asarray(operand(x))
    return x if dtypes.is_int(aval_of(x).dtype) else astype(x, dtypes.int64)


def randint(key, shape, minval, maxval, dtype=None):
    """Integers in [minval, maxval): two words of random bits reduced modulo the span."""
    key = check_key(key, "randint")
    dt = _default(I32, "i") if dtype is None or dtype is int else dtypes.canonicalize(dtype)
    if not dtypes.is_int(dt):
        raise TypeError(f"random.randint: dtype must be an integer dtype, got {dt}")
    minval, maxval = _int_operand(minval), _int_operand(maxval)
    shape = _shape(shape, aval_of(minval).shape, aval_of(maxval).shape, what="randint")
    info = np.iinfo(dt)
    if info.bits >= 32:
        return _randint(key, shape, minval, maxval, dt)
    # As JAX: narrow integers are sampled at 32 bits, to keep the modulo bias small.
    lo = E.clip(astype(minval, I32), int(info.min), int(info.max))
    hi = E.clip(astype(maxval, I32), int(info.min), int(info.max) + 1)
    return astype(_randint(key, shape, lo, hi, I32), dt)


def _randint(key, shape, minval, maxval, dt):
    nbits = np.iinfo(dt).bits
    udt = _UINT[nbits]
    out_of_range = E.greater(maxval, _clip_to(np.array(np.iinfo(dt).max, dt),
                                              aval_of(maxval).dtype))
    minval, maxval = _clip_to(minval, dt), _clip_to(maxval, dt)
    k1, k2 = split(key)
    higher, lower = random_bits(k1, nbits, shape), random_bits(k2, nbits, shape)
    span = astype(E.subtract(maxval, minval), udt)
    span = E.where(E.less_equal(maxval, minval), udt.type(1), span)
    # A maxval past the dtype's range makes the span one larger (2**nbits wraps to 0, and
    # the remainders below then leave the bits as they are).
    span = E.where(E.logical_and(out_of_range, E.greater(maxval, minval)),
                   E.add(span, udt.type(1)), span)
    # 2**nbits % span without overflow: (2**(nbits/2) % span)**2 % span.
    multiplier = lax_ops.rem(udt.type(2 ** (nbits // 2)), span)
    multiplier = lax_ops.rem(E.multiply(multiplier, multiplier), span)
    offset = E.add(E.multiply(lax_ops.rem(higher, span), multiplier), lax_ops.rem(lower, span))
    offset = lax_ops.rem(offset, span)
    return broadcast_to(E.add(minval, astype(offset, dt)), shape)


def _p_operand(p):
    """p as an array: Python numbers and lists are float32 (JAX's default float)."""
    if is_python_scalar(p) or isinstance(p, (list, tuple)):
        return asarray(p, dtype=F32)
    return operand(p)


def bernoulli(key, p=0.5, shape=None, mode="low"):
    """True with probability p: uniform(key, shape, p's dtype) < p."""
    key = check_key(key, "bernoulli")
    p = _p_operand(p)
    dt = aval_of(p).dtype
    if not dtypes.is_float(dt):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {dt}")
    shape = aval_of(p).shape if shape is None else _shape(shape, aval_of(p).shape,
                                                          what="bernoulli")
    if mode == "low":
        return E.less(uniform(key, shape, dt), p)
    if mode != "high":
        raise ValueError(f"got mode={mode!r}, expected 'high' or 'low'")
    both = uniform(key, (2, *shape), dt)
    u1, u2 = both[0], E.multiply(both[1], dt.type(2.0 ** -np.finfo(dt).nmant))
    return E.less(u2, E.subtract(p, u1))


def gumbel(key, shape=(), dtype=None):
    key = check_key(key, "gumbel")
    dt = _float_dtype(dtype, "gumbel")
    u = uniform(key, shape, dt, np.finfo(dt).tiny, dt.type(1.0))
    return E.negative(E.log(E.negative(E.log(u))))


def _shuffle(key, x, axis: int):
    """Sort by fresh 32-bit random keys, enough rounds that ties are unlikely (JAX's rule)."""
    size = int(np.prod(aval_of(x).shape, dtype=np.int64))
    rounds = int(np.ceil(3 * np.log(max(1, size)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(rounds):
        key, subkey = split(key)
        sort_keys = random_bits(subkey, 32, aval_of(x).shape)
        x = take_along_axis(x, argsort(sort_keys, axis=axis), axis=axis)
    return x


def permutation(key, x, axis=0, independent=False):
    """A shuffled arange(x) (x an int) or x shuffled along `axis`."""
    key = check_key(key, "permutation")
    if isinstance(x, int) or (isinstance(x, np.ndarray) and x.ndim == 0):
        if not dtypes.is_int(np.asarray(x).dtype):
            raise TypeError("x must be an integer or at least 1-dimensional")
        return _shuffle(key, arange(int(x), dtype=_default(I32, "i")), 0)
    x = operand(x)
    ndim = aval_of(x).ndim
    if ndim == 0:
        raise TypeError("random.permutation: x must be a static integer or an array with "
                        "at least one dimension")
    axis = normalize_axis(axis, ndim)
    if independent or ndim == 1:
        return _shuffle(key, x, axis)
    order = _shuffle(key, arange(aval_of(x).shape[axis], dtype=I32), 0)
    return take(x, order, axis=axis)


def choice(key, a, shape=(), replace=True, p=None, axis=0):
    """Draws from a (an int n: from arange(n)) along `axis`, as jax.random.choice."""
    key = check_key(key, "choice")
    shape = static_shape(shape, "shape")
    scalar = isinstance(a, int) or (isinstance(a, np.ndarray) and a.ndim == 0)
    arr = None if scalar else operand(a)
    n = int(a) if scalar else aval_of(arr).shape[normalize_axis(axis, aval_of(arr).ndim)]
    if not scalar:
        axis = normalize_axis(axis, aval_of(arr).ndim)
    draws = math.prod(shape)
    if draws == 0:
        return zeros(shape, dtype=_default(I32, "i") if scalar else aval_of(arr).dtype)
    if n <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and draws > n:
        raise ValueError(f"Cannot take a larger sample (size {draws}) than population "
                         f"(size {n}) when 'replace=False'")
    if p is None and not replace:
        picked = permutation(key, n if scalar else arr, axis)
        index = (slice(None),) * (0 if scalar else axis) + (slice(draws),)
        result = picked[index]
    else:
        ind = _draw_indices(key, n, shape, replace, p)
        result = ind if scalar else take(arr, ind, axis=axis)
    out_shape = shape if scalar else \
        aval_of(arr).shape[:axis] + tuple(shape) + aval_of(arr).shape[axis + 1:]
    return reshape(result, out_shape)


def _draw_indices(key, n, shape, replace, p):
    if p is None:
        return randint(key, shape, 0, n)
    p = _p_operand(p)
    if not dtypes.is_float(aval_of(p).dtype):
        p = astype(p, F32)
    if aval_of(p).shape != (n,):
        raise ValueError("p must be None or a 1D vector with the same size as a.shape[axis]. "
                         f"p has shape {aval_of(p).shape} and a.shape[axis] is {n}.")
    dt = aval_of(p).dtype
    if replace:
        cumulative = cumsum(p)
        r = E.multiply(cumulative[-1], E.subtract(dt.type(1), uniform(key, shape, dt)))
        return astype(searchsorted(cumulative, r), _default(I32, "i"))
    # The Gumbel top-k trick: the n_draws largest of gumbel + log p, ties to the first.
    g = E.add(gumbel(key, (n,), dt), E.log(p))
    order = argsort(g, descending=True, stable=True)
    return astype(order[:math.prod(shape)], _default(I32, "i"))
