"""Cumulative reductions as a log-depth scan of shifted, fused elementwise passes.

Step k combines each element with the one 2**k places before it (Hillis-Steele), so an
axis of n elements takes ceil(log2 n) passes, each one fused loop with no Python per
element. Integer results are exact; float sums differ from NumPy's left-to-right loop
only by reassociation, as a pairwise sum does.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ._reductions import _sum_dtype
from ..base.operands import astype, normalize_axis, operand, reshape


def _shifted(x, axis: int, k: int, identity):
    """x moved k places along `axis`, with `identity` filling the first k places."""
    from ._manipulation import _pad_constant, _take_slice
    n = aval_of(x).shape[axis]
    head = _take_slice(x, axis, 0, n - k)
    widths = [(0, 0)] * len(aval_of(x).shape)
    widths[axis] = (k, 0)
    return _pad_constant(head, widths, identity)


def _scan(x, axis, combine, identity):
    n = aval_of(x).shape[axis]
    k = 1
    while k < n:
        x = combine(x, _shifted(x, axis, k, identity))
        k *= 2
    return x


def _prepare(a, axis, dtype, default_dtype):
    a = operand(a)
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    ax = normalize_axis(axis, len(aval_of(a).shape))
    dt = dtypes.canonicalize(dtype) if dtype is not None else default_dtype(aval_of(a).dtype)
    return astype(a, dt), ax


def _cumulative_dtype(dt):
    """NumPy accumulates small integers in the platform int, as its sum does; JAX keeps the
    operand's integer dtype (and sums booleans in its default int)."""
    if dtypes.config.jax_rules() and dt != dtypes.bool_:
        return dt
    return _sum_dtype(dt)


def cumsum(a, axis=None, dtype=None):
    x, ax = _prepare(a, axis, dtype, _cumulative_dtype)
    if aval_of(x).dtype == dtypes.bool_:
        return _scan(x, ax, E.logical_or, False)
    return _scan(x, ax, E.add, 0)


def cumprod(a, axis=None, dtype=None):
    x, ax = _prepare(a, axis, dtype, _cumulative_dtype)
    if aval_of(x).dtype == dtypes.bool_:
        return _scan(x, ax, E.logical_and, True)
    return _scan(x, ax, E.multiply, 1)


def _extreme_identity(dt, largest: bool):
    if dtypes.is_float(dt):
        return -np.inf if largest else np.inf
    if dt == dtypes.bool_:
        return not largest
    info = np.iinfo(dt)
    return info.min if largest else info.max


def cummax(a, axis=None, reverse=False):
    return _cumulative_extreme(a, axis, reverse, largest=True)


def cummin(a, axis=None, reverse=False):
    return _cumulative_extreme(a, axis, reverse, largest=False)


def _cumulative_extreme(a, axis, reverse, largest):
    x, ax = _prepare(a, axis, None, lambda dt: dt)
    combine = E.maximum if largest else E.minimum
    identity = _extreme_identity(aval_of(x).dtype, largest)
    return _maybe_reversed(lambda y: _scan(y, ax, combine, identity), x, ax, reverse)


def _maybe_reversed(fn, x, ax, reverse):
    if not reverse:
        return fn(x)
    from ._shape import flip
    return flip(fn(flip(x, ax)), ax)


def _cumulative_axis(x, axis, name):
    """The Array API's rule (NumPy's and JAX's): a scalar has no axis to accumulate along,
    and only a 1-d array may leave `axis` out."""
    ndim = len(aval_of(operand(x)).shape)
    if ndim == 0:
        raise ValueError(f"{name}: The input must be non-scalar to take a cumulative "
                         "operation; reshape it to at least 1-d first")
    if axis is None and ndim > 1:
        raise ValueError(f"{name}: The input array has rank {ndim}, however axis was not "
                         "set to an explicit value; pass axis= (an int)")
    return axis


def _cumulative_sum(x, axis=None, dtype=None, include_initial=False):
    axis = _cumulative_axis(x, axis, "cumulative_sum")
    out = cumsum(x, axis=axis, dtype=dtype)
    return _with_initial(out, axis, 0, include_initial)


def _cumulative_prod(x, axis=None, dtype=None, include_initial=False):
    axis = _cumulative_axis(x, axis, "cumulative_prod")
    out = cumprod(x, axis=axis, dtype=dtype)
    return _with_initial(out, axis, 1, include_initial)


def _with_initial(out, axis, identity, include_initial):
    if not include_initial:
        return out
    from ._manipulation import _pad_constant
    ax = 0 if axis is None else normalize_axis(axis, len(aval_of(out).shape))
    widths = [(0, 0)] * len(aval_of(out).shape)
    widths[ax] = (1, 0)
    return _pad_constant(out, widths, identity)


cumulative_sum, cumulative_prod = _cumulative_sum, _cumulative_prod


def _nan_as(a, identity):
    a = operand(a)
    if not dtypes.is_inexact(aval_of(a).dtype):
        return a
    return E.where(E.isnan(a), astype(identity, aval_of(a).dtype), a)


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero."""
    if out is not None:
        raise NotImplementedError("nancumsum: 'out' is not supported; use the returned value")
    return cumsum(_nan_as(a, 0), axis=axis, dtype=dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    if out is not None:
        raise NotImplementedError("nancumprod: 'out' is not supported; use the returned value")
    return cumprod(_nan_as(a, 1), axis=axis, dtype=dtype)
