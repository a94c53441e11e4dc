"""Statistics as compositions of reductions and elementwise ops, with NumPy's dtypes.

Each follows the formula NumPy's own implementation uses (e.g. `var` subtracts the mean
and sums squares, in the mean's dtype), so results agree to within summation order.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from . import _reductions as R
from ..base.operands import (as_bool, astype, broadcast_to, normalize_axes, normalize_axis,
                             operand, reshape)


def _float_dtype(dt, dtype=None):
    if dtype is not None:
        return dtypes.canonicalize(dtype)
    return dt if dtypes.is_inexact(dt) else dtypes.float_for_integers(dt)


def _count(shape, axis) -> int:
    return math.prod(shape[i] for i in normalize_axes(axis, len(shape)))


def _divide_by_dof(total, count, ddof, nan_without_dof=False):
    # NumPy divides by max(n - ddof, 0): a non-positive count gives inf or NaN, no error.
    # JAX's var and std answer NaN whenever n - ddof is not positive (`nan_without_dof`).
    if nan_without_dof:
        dof = E.subtract(count, ddof)
        return E.where(E.greater(dof, 0), E.divide(total, E.maximum(dof, 1)), np.nan)
    if isinstance(count, int):
        return E.divide(total, float(max(count - ddof, 0)))
    return E.divide(total, E.maximum(E.subtract(count, ddof), 0))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None, mean=None):
    """The mean squared distance from the mean (a precomputed `mean`, with the reduced axes
    kept, may be passed, as NumPy 2 and JAX allow)."""
    _no_out(out, "var")
    R.check_where(where, "var")
    if correction is not None:
        if ddof != 0:
            raise ValueError("var/std: ddof and correction can't both be specified; pass one")
        ddof = correction
    a = operand(a)
    aval = aval_of(a)
    if (dtype is not None and dtypes.config.jax_rules() and dtypes.is_complex(aval.dtype)
            and not dtypes.is_complex(dtypes.canonicalize(dtype))):
        raise ValueError(f"var/std of complex values with a real dtype={dtype!r}: the "
                         "imaginary parts would be lost; pass a complex dtype (JAX's error)")
    dt = _float_dtype(aval.dtype, dtype)
    if dtypes.is_half(dt) and dtypes.config.jax_rules():
        # JAX computes a 16-bit variance in float32 and rounds once at the end.
        return astype(var(astype(a, dtypes.float32), axis, None, None, ddof, keepdims,
                          where=where, mean=mean), dt)
    x = astype(a, dt)
    if mean is not None:
        mean = astype(operand(mean), dt)
    if where is not None:
        return _in_requested_dtype(_masked_var(x, axis, ddof, keepdims, where, mean), dtype)
    if mean is None:
        mean = R.mean(x, axis=axis, keepdims=True)
    centred = E.subtract(x, mean)
    total = R.sum(_squared_magnitude(centred), axis=axis, keepdims=keepdims)
    return _in_requested_dtype(_divide_by_dof(total, _count(aval.shape, axis), ddof,
                                              dtypes.config.jax_rules()), dtype)


def _in_requested_dtype(result, dtype):
    """The variance of complex values is real: NumPy returns it so even for a complex
    `dtype`; JAX returns the `dtype` asked for."""
    if dtype is not None and dtypes.config.jax_rules():
        return astype(result, dtypes.canonicalize(dtype))
    return result


def _squared_magnitude(x):
    """|x|**2, real for complex x: the variance of complex values is real, as NumPy's and
    JAX's (x * x would keep the imaginary cross terms)."""
    if not dtypes.is_complex(aval_of(x).dtype):
        return E.multiply(x, x)
    from ._complex import imag, real
    re, im = real(x), imag(x)
    return E.add(E.multiply(re, re), E.multiply(im, im))


def _masked_var(x, axis, ddof, keepdims, where, mean=None):
    mask = broadcast_to(operand(where), aval_of(x).shape)
    count = R.sum(mask, axis=axis, keepdims=True)
    if mean is None:     # the count in x's dtype: an integer count made float32 means float64
        mean = E.divide(R.sum(E.where(mask, x, 0), axis=axis, keepdims=True),
                        astype(count, aval_of(x).dtype))
    centred = E.where(mask, E.subtract(x, mean), 0)
    total = R.sum(_squared_magnitude(centred), axis=axis, keepdims=keepdims)
    count = count if keepdims else R.sum(mask, axis=axis)
    return _divide_by_dof(total, astype(count, aval_of(total).dtype), ddof,
                          dtypes.config.jax_rules())


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
        correction=None, mean=None):
    R.check_where(where, "std")
    return E.sqrt(var(a, axis, dtype, out, ddof, keepdims, where=where, correction=correction,
                      mean=mean))


def _no_out(out, name):
    if out is not None:
        raise TypeError(f"{name}: 'out' is not supported (arrays are immutable under jit); "
                        f"use the returned value")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = operand(a)
    aval = aval_of(a)
    if weights is None:
        avg = R.mean(a, axis=axis, keepdims=keepdims)
        scale = np.asarray(_count(aval.shape, axis), dtype=aval_of(avg).dtype)
        return (avg, broadcast_to(scale, aval_of(avg).shape)) if returned else avg
    w = operand(weights)
    waval = aval_of(w)
    if dtypes.config.jax_rules():       # JAX: the inexact type of the promoted operands
        dt = dtypes.float_for_integers(dtypes.promote([aval.dtype, waval.dtype],
                                                      [False, False])[0])
    else:
        floor = [dtypes.float64] if not dtypes.is_float(aval.dtype) else []
        dt = np.result_type(aval.dtype, waval.dtype, *floor)
    if waval.shape != aval.shape:
        w = _weights_along_axis(w, aval.shape, axis)
    scale = R.sum(astype(w, dt), axis=axis, keepdims=keepdims)
    total = R.sum(E.multiply(astype(a, dt), astype(w, dt)), axis=axis, keepdims=keepdims)
    avg = E.divide(total, scale)
    if returned:
        return avg, broadcast_to(scale, aval_of(avg).shape)
    return avg


def _weights_along_axis(w, shape, axis):
    """Weights given along the averaged axes (one weight dimension per axis, in `axis`'s
    order, as NumPy 2 and JAX allow), placed and broadcast against the array."""
    from ._shape import transpose
    wshape = aval_of(w).shape
    if axis is None:
        raise TypeError("average: axis must be specified when shapes of a and weights differ")
    axes = tuple(normalize_axis(ax, len(shape))            # in the caller's order
                 for ax in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(wshape) != len(axes):
        raise TypeError(f"average: weights of shape {wshape} need one dimension per averaged "
                        f"axis {tuple(axes)}, or the array's shape {shape}")
    if wshape != tuple(shape[ax] for ax in axes):
        raise ValueError(f"average: weights of shape {wshape} do not match the lengths of "
                         f"axes {tuple(axes)} of an array of shape {shape}")
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    placed = reshape(transpose(w, order),
                     tuple(shape[ax] if ax in axes else 1 for ax in range(len(shape))))
    return broadcast_to(placed, shape)


def count_nonzero(a, axis=None, keepdims=False):
    return R.sum(as_bool(a), axis=axis, dtype=dtypes.int64, keepdims=keepdims)


def ptp(a, axis=None, keepdims=False):
    return E.subtract(R.max(a, axis=axis, keepdims=keepdims),
                      R.min(a, axis=axis, keepdims=keepdims))


# --- NaN-ignoring reductions ------------------------------------------------------------------

def _is_float(a) -> bool:
    """Can `a` hold NaN? Floating and complex values can (a complex NaN has a NaN part)."""
    return dtypes.is_inexact(aval_of(a).dtype)


def _nan_mask(a, where):
    """Where a value counts: not NaN, and inside `where` when given."""
    keep = E.logical_not(E.isnan(a))
    return keep if where is None else E.logical_and(keep, as_bool(where))


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _no_out(out, "nansum")
    R.check_where(where, "nansum")
    R.check_initial(initial)
    a = R.reduction_operand(a, "nansum")
    clean = E.where(E.isnan(a), 0, a) if _is_float(a) else a
    return R.sum(clean, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                 where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _no_out(out, "nanprod")
    R.check_where(where, "nanprod")
    R.check_initial(initial)
    a = R.reduction_operand(a, "nanprod")
    clean = E.where(E.isnan(a), 1, a) if _is_float(a) else a
    return R.prod(clean, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial,
                  where=where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    _no_out(out, "nanmean")
    R.check_where(where, "nanmean")
    a = operand(a)
    if not _is_float(a):
        return R.mean(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    dt = _float_dtype(aval_of(a).dtype, dtype)
    # NaNs out before converting: a complex value with a NaN imaginary part is NaN, also
    # when a real dtype= keeps only its real part.
    total = R.sum(astype(E.where(E.isnan(a), 0, a), dt), axis=axis, keepdims=keepdims,
                  where=where)
    count = R.sum(_nan_mask(a, where), axis=axis, dtype=dtypes.int64, keepdims=keepdims)
    return E.divide(total, astype(count, dt))       # all-NaN: 0/0 = NaN


def _nan_extreme(reduce, fill, a, axis, keepdims, initial=None, where=None):
    if not _is_float(a):
        return reduce(a, axis=axis, keepdims=keepdims, initial=initial, where=where)
    nan = E.isnan(a)
    best = reduce(E.where(nan, fill, a), axis=axis, keepdims=keepdims, initial=initial,
                  where=where)
    if initial is not None:     # NumPy's fmax/fmin fold from `initial`: all-NaN gives it
        return best
    any_valid = R.any(_nan_mask(a, where), axis=axis, keepdims=keepdims)
    return E.where(any_valid, best, np.nan)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_out(out, "nanmax")
    R.check_where(where, "nanmax")
    R.check_initial(initial)
    return _nan_extreme(R.max, -np.inf, R.reduction_operand(a, "nanmax"), axis, keepdims,
                        initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_out(out, "nanmin")
    R.check_where(where, "nanmin")
    R.check_initial(initial)
    return _nan_extreme(R.min, np.inf, R.reduction_operand(a, "nanmin"), axis, keepdims,
                        initial, where)


def _nan_arg(reduce, fill, a, axis, keepdims):
    a = operand(a)
    if not _is_float(a):
        return reduce(a, axis=axis, keepdims=keepdims)
    return reduce(E.where(E.isnan(a), fill, a), axis=axis, keepdims=keepdims)


def nanargmax(a, axis=None, out=None, keepdims=False):
    _no_out(out, "nanargmax")
    return _nan_arg(R.argmax, -np.inf, a, axis, keepdims)


def nanargmin(a, axis=None, out=None, keepdims=False):
    _no_out(out, "nanargmin")
    return _nan_arg(R.argmin, np.inf, a, axis, keepdims)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None):
    _no_out(out, "nanvar")
    R.check_where(where, "nanvar")
    a = operand(a)
    if not _is_float(a):
        return var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where,
                   mean=mean)
    return var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
               where=_nan_mask(a, where), mean=mean)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None):
    R.check_where(where, "nanstd")
    return E.sqrt(nanvar(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                         where=where, mean=mean))


# --- covariance ---------------------------------------------------------------------------------

def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """NumPy's formula: weights w = fweights * aweights, the weighted mean subtracted, the
    product with the conjugate transpose divided by NumPy's degrees of freedom."""
    from ._matmul import matmul
    from ._complex import conj
    from ._shape import transpose
    x = _variables(m, y, rowvar)
    n = aval_of(x).shape[1]
    w = _cov_weights(fweights, aweights, n)
    if w is not None and dtype is None:     # the weights' dtype joins in, as in average()
        from ._dtype_api import result_type
        x = astype(x, result_type(x, w))
    x = astype(x, _cov_dtype(aval_of(x).dtype, dtype))
    ddof = (0 if bias else 1) if ddof is None else ddof
    if w is None:
        centred = E.subtract(x, R.mean(x, axis=1, keepdims=True))
        c = _divide_by_dof(matmul(centred, transpose(conj(centred))), n, ddof)
    else:
        w = astype(w, np.empty(0, aval_of(x).dtype).real.dtype)   # real for complex x
        w_sum = R.sum(w)
        centred = E.subtract(x, E.divide(R.sum(E.multiply(x, w), axis=1, keepdims=True),
                                         w_sum))
        c = E.divide(matmul(E.multiply(centred, w), transpose(conj(centred))),
                     _weighted_dof(w, w_sum, aweights, ddof))
    rows = aval_of(x).shape[0]
    c = astype(c, aval_of(x).dtype)       # 16-bit inputs compute in float32: back to theirs
    return reshape(c, ()) if rows == 1 else c


def _variables(m, y, rowvar):
    """The observations as a (variables, observations) matrix; with rowvar=False a 2-d input
    is transposed even when it has one row (NumPy 2, JAX), a 1-d one is one variable."""
    from ._manipulation import atleast_2d
    from ._shape import concatenate, transpose
    parts = []
    for v in (m, y):
        if v is None:
            continue
        v = operand(v)
        if len(aval_of(v).shape) > 2:
            raise ValueError(f"cov: m and y must be at most 2-d, got shape {aval_of(v).shape}")
        v2 = atleast_2d(v)
        parts.append(transpose(v2) if not rowvar and len(aval_of(v).shape) != 1 else v2)
    return parts[0] if len(parts) == 1 else concatenate(parts, axis=0)


def _cov_dtype(dt, dtype):
    if dtype is not None:
        if not dtypes.is_inexact(dtypes.canonicalize(dtype)):
            raise ValueError(f"cov: dtype must be a subclass of float or complex, got "
                             f"{dtype!r}")
        return dtypes.canonicalize(dtype)
    if dtypes.config.jax_rules():      # JAX keeps float32 (promote_dtypes_inexact)
        return dtypes.float_for_integers(dt)
    return np.result_type(dt, np.float64)


def _cov_weights(fweights, aweights, n):
    """The product of the frequency and analytic weights (None when neither is given)."""
    w = None
    for weights, what in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is None:
            continue
        weights = operand(weights)
        if aval_of(weights).shape != (n,):
            raise ValueError(f"cov: {what} must be 1-d with one weight per observation "
                             f"({n}), got shape {aval_of(weights).shape}")
        if what == "fweights" and not dtypes.is_int(aval_of(weights).dtype) \
                and not dtypes.config.jax_rules():
            raise TypeError("cov: fweights must be integers")
        w = weights if w is None else E.multiply(w, weights)
    return w


def _weighted_dof(w, w_sum, aweights, ddof):
    # NumPy: sum(w) - ddof, less ddof * sum(w * a) / sum(w) with analytic weights a.
    if ddof == 0:
        return w_sum
    if aweights is None:
        return E.subtract(w_sum, ddof)
    a = astype(operand(aweights), aval_of(w).dtype)
    return E.subtract(w_sum, E.divide(E.multiply(ddof, R.sum(E.multiply(w, a))), w_sum))


def corrcoef(x, y=None, rowvar=True, dtype=None):
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize(dtype)):
        raise ValueError(f"corrcoef: dtype must be a subclass of float or complex, got "
                         f"{dtype}")
    c = cov(x, y, rowvar, dtype=dtype)
    shape = aval_of(c).shape
    if shape == ():
        out = E.divide(c, c)
    else:
        from ._matrices import diagonal
        d = E.sqrt(diagonal(c))
        out = _clip_parts(E.divide(E.divide(c, reshape(d, (-1, 1))), reshape(d, (1, -1))))
    return out if dtype is None else astype(out, dtypes.canonicalize(dtype))


def _clip_parts(c):
    """NumPy's last step of corrcoef: the real part, and a complex result's imaginary part,
    each clipped to [-1, 1] (rounding can leave them just outside)."""
    if not dtypes.is_complex(aval_of(c).dtype):
        return E.clip(c, -1, 1)
    from ._complex import imag, real
    dt = aval_of(c).dtype
    return E.add(astype(E.clip(real(c), -1, 1), dt),
                 E.multiply(astype(E.clip(imag(c), -1, 1), dt), astype(1j, dt)))
