"""Sorting and what is built on it: sort/argsort (stable, NaN last, as NumPy), searchsorted,
the static-size forms of nonzero/argwhere/flatnonzero/unique (JAX's `size=`), median and
quantiles.

`sort` and `argsort` are primitives over the last axis (a run-time merge sort); other axes
are moved there and back. The `size=` forms find the j-th selected position by counting
(a fused reduction), so they need no scatter; their cost is O(n * size).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind, current_trace
from . import _elementwise as E
from ._shape import flip, moveaxis
from ._util import astype, is_weak, normalize_axis, operand, reshape, shape_of


def _along_last(fn, a, axis):
    a = operand(a)
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    if not shape_of(a):
        raise ValueError("sorting needs an array of at least one dimension (axis=None flattens)")
    ax = normalize_axis(axis, len(shape_of(a)))
    last = len(shape_of(a)) - 1
    return moveaxis(fn(moveaxis(a, ax, last)), last, ax)


def sort(a, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    if order is not None:
        raise TypeError("sort: 'order' (structured arrays) is not supported")
    if not descending:          # stable=False may be served by a stable sort
        return _along_last(lambda x: bind(P.sort, x), a, axis)
    # Descending and stable: sort the reversed row ascending, then reverse the result.
    return _along_last(lambda x: flip(bind(P.sort, flip(x, -1)), -1), a, axis)


def argsort(a, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    if order is not None:
        raise TypeError("argsort: 'order' (structured arrays) is not supported")
    if not descending:
        return _along_last(lambda x: bind(P.argsort, x), a, axis)

    def descending_order(x):
        # Ties keep their input order: sort the reversed row, map positions back, reverse.
        n = shape_of(x)[-1]
        return flip(E.subtract(n - 1, bind(P.argsort, flip(x, -1))), -1)
    return _along_last(descending_order, a, axis)


# --- searching ------------------------------------------------------------------------------

def _less_nan_last(a, b):
    """a < b in NumPy's sort order, where NaN comes after every number."""
    if not dtypes.is_float(np.result_type(aval_of(a).dtype, aval_of(b).dtype)):
        return E.less(a, b)
    return E.logical_or(E.less(a, b), E.logical_and(E.isnan(b), E.logical_not(E.isnan(a))))


def searchsorted(a, v, side="left", sorter=None, *, method=None):
    """Insertion points of v in the sorted 1-d a, by counting a's elements before each."""
    from ._reductions import sum
    a, v = operand(a), operand(v)
    if len(shape_of(a)) != 1:
        raise ValueError(f"searchsorted: 'a' must be 1-d, got shape {shape_of(a)}")
    if sorter is not None:
        from ._indexing import take
        a = take(a, sorter, mode="clip")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    column = reshape(v, shape_of(v) + (1,))
    before = _less_nan_last(a, column) if side == "left" else \
        E.logical_not(_less_nan_last(column, a))
    return sum(before, axis=-1, dtype=dtypes.int64)


def _positions_of_true(mask, size: int):
    """Flat positions of the first `size` True values of a 1-d mask (n where missing)."""
    from ._cumulative import cumsum
    from ._reductions import sum
    count = cumsum(astype(mask, dtypes.int64))
    wanted = np.arange(1, size + 1, dtype=np.int64).reshape(size, 1)
    return sum(E.less(count, wanted), axis=-1, dtype=dtypes.int64)


def _require_size(size, name):
    if size is None:
        raise TypeError(f"{name}: the result's length depends on the data, so under jit pass "
                        f"a static size=..., e.g. tnp.{name}(x, size=10, fill_value=0)")
    if isinstance(size, Tracer):
        raise TypeError(f"{name}: size must be a static Python int")
    return int(size)


def nonzero(a, *, size=None, fill_value=None):
    a = operand(a)
    if current_trace() is None and not isinstance(a, Tracer) and size is None:
        return np.nonzero(a)
    size = _require_size(size, "nonzero")
    shape = shape_of(a)
    n = int(np.prod(shape)) if shape else 1
    flat = reshape(a, (n,)) if shape else reshape(a, (1,))
    pos = _positions_of_true(E.not_equal(flat, 0) if aval_of(flat).dtype != dtypes.bool_
                             else flat, size)
    missing = E.greater_equal(pos, n)
    fills = fill_value if isinstance(fill_value, (tuple, list)) else \
        [0 if fill_value is None else fill_value] * max(len(shape), 1)
    coords, rest = [], pos
    for d in range(len(shape) - 1, -1, -1):
        coords.append(E.remainder(rest, shape[d]) if d else rest)
        rest = E.floor_divide(rest, shape[d])
    coords = coords[::-1] or [pos]
    return tuple(E.where(missing, astype(f, dtypes.int64), c) for c, f in zip(coords, fills))


def flatnonzero(a, *, size=None, fill_value=None):
    return nonzero(reshape(operand(a), (-1,)), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size=None, fill_value=None):
    from ._shape import stack
    a = operand(a)
    if current_trace() is None and not isinstance(a, Tracer) and size is None:
        return np.argwhere(a)
    coords = nonzero(a, size=size, fill_value=fill_value)
    return stack(coords, axis=-1) if shape_of(a) else reshape(coords[0], (-1, 0))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, size=None, fill_value=None):
    """The sorted distinct values; with size=, the first `size` (fill_value after them, by
    default the smallest value, as JAX)."""
    if return_index or return_inverse or return_counts or axis is not None:
        raise NotImplementedError("unique: return_index/return_inverse/return_counts/axis "
                                  "are not supported yet; use the values form")
    ar = operand(ar)
    if current_trace() is None and not isinstance(ar, Tracer) and size is None:
        return np.unique(ar, equal_nan=equal_nan)
    size = _require_size(size, "unique")
    s = sort(reshape(ar, (-1,)), axis=0)
    n = shape_of(s)[0]
    if n == 0:
        raise ValueError("unique with size= needs a non-empty array")
    new = E.not_equal(s[1:], s[:-1])
    if equal_nan and dtypes.is_float(aval_of(s).dtype):
        new = E.logical_and(new, E.logical_not(E.logical_and(E.isnan(s[1:]), E.isnan(s[:-1]))))
    from ._shape import concatenate
    first = concatenate([np.ones(1, bool), new])
    pos = _positions_of_true(first, size)
    from ._indexing import gather
    values = gather(s, E.minimum(pos, n - 1), 0)
    fill = s[0] if fill_value is None else astype(fill_value, aval_of(s).dtype)
    return E.where(E.greater_equal(pos, n), fill, values)


# --- order statistics ---------------------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False):
    if out is not None:
        raise TypeError("quantile: 'out' is not supported; use the returned value")
    if method not in _METHODS:
        raise ValueError(f"quantile: method must be one of {_METHODS}, got {method!r}")
    a = operand(a)
    dt = aval_of(a).dtype
    work = dt if dtypes.is_float(dt) else dtypes.float64
    q_arr = operand(q)
    # NumPy: the data's float dtype, widened by q's dtype when q is an array (not a number).
    out_dt = np.result_type(work, *([] if is_weak(q_arr) else [aval_of(q_arr).dtype]))
    shape = shape_of(a)
    axes = tuple(range(len(shape))) if axis is None else \
        tuple(normalize_axis(x, len(shape)) for x in (axis if isinstance(axis, (tuple, list))
                                                       else (axis,)))
    rest = [d for d in range(len(shape)) if d not in axes]
    from ._shape import transpose
    from math import prod
    moved = transpose(a, rest + list(axes)) if rest + list(axes) != list(range(len(shape))) \
        else a
    rows = reshape(moved, tuple(shape[d] for d in rest) + (prod(shape[d] for d in axes),))
    s = sort(astype(rows, work), axis=-1)
    result = _pick(s, q_arr, method, out_dt)
    if keepdims:
        kept = [1 if d in axes else shape[d] for d in range(len(shape))]
        result = reshape(result, shape_of(q_arr) + tuple(kept))
    return result


def _pick(s, q, method, out_dt):
    """Quantile q (any shape; result dims first) of each sorted row of s, as NumPy."""
    from ._indexing import gather
    n = shape_of(s)[-1]
    q = astype(q, dtypes.float64)
    virtual = E.multiply(q, n - 1)
    lo_i = astype(E.floor(virtual), dtypes.int64)
    hi_i = E.minimum(E.add(lo_i, 1), n - 1)
    last = len(shape_of(s)) - 1
    lo = moveaxis_q(gather(s, lo_i, last), len(shape_of(q)), last)
    hi = moveaxis_q(gather(s, hi_i, last), len(shape_of(q)), last)
    t = reshape(E.subtract(virtual, E.floor(virtual)), shape_of(q) + (1,) * last)
    t = astype(t, out_dt)
    if method == "lower":
        value = lo
    elif method == "higher":
        value = E.where(E.equal(t, 0), lo, hi)
    elif method == "nearest":
        # NumPy rounds the virtual index half to even.
        near = astype(E.rint(virtual), dtypes.int64)
        value = moveaxis_q(gather(s, near, last), len(shape_of(q)), last)
    elif method == "midpoint":
        value = E.where(E.equal(t, 0), lo, E.divide(E.add(lo, hi), 2))
    else:
        value = _lerp(lo, hi, t)
    # Any NaN in a row sorts last, and NumPy's answer for that row is NaN.
    has_nan = E.isnan(s[..., -1:]) if dtypes.is_float(aval_of(s).dtype) else None
    if has_nan is not None:
        has_nan = reshape(has_nan, (1,) * len(shape_of(q)) + shape_of(has_nan)[:-1])
        value = E.where(has_nan, np.nan, value)
    return astype(value, out_dt)


def moveaxis_q(x, nq, last):
    """gather put q's dims at the sorted axis's place (the end): bring them to the front."""
    if nq == 0:
        return x
    ndim = len(shape_of(x))
    order = list(range(last, last + nq)) + [d for d in range(ndim) if not last <= d < last + nq]
    from ._shape import transpose
    return transpose(x, order)


def _lerp(a, b, t):
    # NumPy's formula: from the nearer end, so the result is exact at t = 0 and t = 1.
    diff = E.subtract(b, a)
    return E.where(E.greater_equal(t, 0.5), E.subtract(b, E.multiply(diff, E.subtract(1, t))),
                   E.add(a, E.multiply(diff, t)))


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False):
    q = q / 100 if isinstance(q, (int, float)) else E.divide(operand(q), 100)   # stays weak
    return quantile(a, q, axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile(a, 0.5, axis, out, overwrite_input, "midpoint", keepdims)


def msort(a):
    return sort(a, axis=0)
