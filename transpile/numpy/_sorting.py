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
from ._shape import expand_dims, flip, moveaxis
from ..base.operands import (astype, broadcast_to, is_weak, normalize_axis, operand, reshape,
                             shape_of)


def _along_last(fn, a, axis):
    a = operand(a)
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    if not shape_of(a):
        raise ValueError("sorting needs an array of at least one dimension (axis=None flattens)")
    ax = normalize_axis(axis, len(shape_of(a)))
    last = len(shape_of(a)) - 1
    return moveaxis(fn(moveaxis(a, ax, last)), last, ax)


def _bind_sort(prim, x):
    """The sort primitive, except that an empty input's result is a constant: the helper
    would be handed buffers nobody wrote (and gcc warns about reading them); complex values
    are ordered by sorting their parts (the runtime sorts real keys only)."""
    if not aval_of(x).size:
        return x if prim is P.sort else np.zeros(shape_of(x), np.int64)
    if dtypes.is_complex(aval_of(x).dtype):
        order = complex_order(x)
        if prim is P.argsort:
            return order
        from ._indexing import take_along_axis
        return take_along_axis(x, order, axis=-1)
    return bind(prim, x)


def complex_order(z):
    """The stable order (positions along the last axis) of complex values: lexicographic,
    the real part first, NaN above every number in each part (JAX's order); under NumPy's
    rules NaNs go last in NumPy's classes R + Rj, R + nanj, nan + Rj, nan + nanj. Stable
    sorts of real keys, the least significant first."""
    from ._complex import imag, real
    from ._indexing import take_along_axis
    re, im = real(z), imag(z)
    keys = [re]
    if not dtypes.config.jax_rules():
        keys.append(E.add(E.multiply(astype(E.isnan(re), dtypes.int8), 2),
                          astype(E.isnan(im), dtypes.int8)))
    order = _bind_sort(P.argsort, im)
    for key in keys:
        step = _bind_sort(P.argsort, take_along_axis(key, order, axis=-1))
        order = take_along_axis(order, step, axis=-1)
    return order


def sort(a, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    if order is not None:
        raise TypeError("sort: 'order' (structured arrays) is not supported")
    if not descending:          # stable=False may be served by a stable sort
        return _along_last(lambda x: _bind_sort(P.sort, x), a, axis)
    # Descending and stable: sort the reversed row ascending, then reverse the result.
    return _along_last(lambda x: flip(_bind_sort(P.sort, flip(x, -1)), -1), a, axis)


def argsort(a, axis=-1, kind=None, order=None, *, stable=True, descending=False, dtype=None):
    """NumPy's and JAX's argsort; `dtype` (JAX's) is the integer dtype of the positions
    (default: the default int)."""
    if order is not None:
        raise TypeError("argsort: 'order' (structured arrays) is not supported")
    if dtype is not None:
        if not dtypes.is_int(dtypes.canonicalize(dtype)):
            raise ValueError(f"argsort: dtype must be an integer dtype, got {dtype}")
        return astype(argsort(a, axis, kind, stable=stable, descending=descending), dtype)
    if not descending:
        return _along_last(lambda x: _positions(_bind_sort(P.argsort, x)), a, axis)

    def descending_order(x):
        # Ties keep their input order: sort the reversed row, map positions back, reverse.
        n = shape_of(x)[-1]
        return flip(E.subtract(n - 1, _positions(_bind_sort(P.argsort, flip(x, -1)))), -1)
    return _along_last(descending_order, a, axis)


def _positions(order):
    """argsort's int64 positions (the runtime's sort writes int64) in the default int: the
    same int64 under NumPy's rules, int32 under JAX's without x64."""
    return astype(order, dtypes.default_int())


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
    # JAX's positions are int32 wherever they fit (even with x64 on): up to int32's maximum
    small = dtypes.config.jax_rules() and shape_of(a)[0] <= np.iinfo(np.int32).max
    return sum(before, axis=-1, dtype=dtypes.int32 if small else dtypes.int64)


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
           *, equal_nan=True, size=None, fill_value=None, sorted=True):  # noqa: A002
    """The sorted distinct values (see _sets.py, with the other set operations)."""
    from ._sets import unique as unique_
    return unique_(ar, return_index, return_inverse, return_counts, axis,
                   equal_nan=equal_nan, size=size, fill_value=fill_value, sorted=sorted)


# --- order statistics ---------------------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
_MEAN_OF_MIDDLE = "mean of the middle two"      # median's rule (not a user-visible method)
_INVERTED_CDF = "inverted_cdf"                    # the one method that takes weights


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    return _quantile("quantile", a, q, axis, out, method, keepdims, skip_nan=False,
                     weights=weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """quantile of the values that are not NaN (NaN where a row has none)."""
    return _quantile("nanquantile", a, q, axis, out, method, keepdims, skip_nan=True,
                     weights=weights)


def _quantile(name, a, q, axis, out, method, keepdims, skip_nan, weights=None):
    """Each reduced row is sorted once (O(n log n), NaN last); the values at the (one or
    two) order statistics around each q's virtual index are then gathered per row."""
    if out is not None:
        raise TypeError(f"{name}: 'out' is not supported; use the returned value")
    if weights is not None and method != _INVERTED_CDF:
        raise ValueError(f"{name}: only method='inverted_cdf' supports weights, as in NumPy "
                         f"and JAX; got method={method!r}")
    if method not in _METHODS + (_INVERTED_CDF,) and method != _MEAN_OF_MIDDLE:
        raise ValueError(f"{name}: method must be one of {_METHODS + (_INVERTED_CDF,)}, got "
                         f"{method!r}")
    a = operand(a)
    dt = aval_of(a).dtype
    q_arr = operand(q)
    work, out_dt = _quantile_dtypes(dt, aval_of(q_arr), is_weak(q_arr), method)
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
    if method == _INVERTED_CDF:
        w = broadcast_to(operand(1.0 if weights is None else weights), shape)
        w = transpose(w, rest + list(axes)) if rest + list(axes) != list(range(len(shape))) \
            else w
        result = _pick_inverted_cdf(astype(rows, work), reshape(w, shape_of(rows)), q_arr,
                                    out_dt, skip_nan)
        if keepdims:
            kept = [1 if d in axes else shape[d] for d in range(len(shape))]
            result = reshape(result, shape_of(q_arr) + tuple(kept))
        return result
    if shape_of(rows)[-1] == 0:                  # NumPy and JAX: NaN (NumPy also warns)
        if not dtypes.is_float(out_dt):
            raise ValueError(f"{name}: method={method!r} of an empty axis has no element to "
                             f"pick (shape {shape}, axis={axis!r})")
        result = np.full(shape_of(q_arr) + shape_of(rows)[:-1], np.nan, out_dt)
    else:
        result = _pick(sort(astype(rows, work), axis=-1), q_arr, method, out_dt, skip_nan)
    if keepdims:
        kept = [1 if d in axes else shape[d] for d in range(len(shape))]
        result = reshape(result, shape_of(q_arr) + tuple(kept))
    return result


def _quantile_dtypes(dt, q_aval, q_weak, method):
    """(dtype sorted in, result dtype), as NumPy: the methods that pick an element keep the
    data's dtype; the others interpolate in the data's float dtype, or an integer's default
    float, widened by q's dtype when q is an array (not a Python number)."""
    if method in ("lower", "higher", "nearest", _INVERTED_CDF):
        return dt, dt
    if q_weak or not dtypes.is_float(q_aval.dtype):
        out_dt = dtypes.float_for_integers(dt)
    else:
        out_dt = np.result_type(dt, q_aval.dtype)
    return (dt if dtypes.is_float(dt) else out_dt), out_dt


def _pick(s, q, method, out_dt, skip_nan):
    """Quantile q (any shape; its dims come first in the result) of each sorted row of s, as
    NumPy, rounding step for step as it does: the virtual index (count - 1) * q is computed
    in q's precision (float64 for a Python number), where count is the row's length, or with
    skip_nan its number of non-NaN values (those sort first); the weights t and 1 - t are
    formed there too and only then rounded to the result's dtype."""
    from ._indexing import take_along_axis
    from ._reductions import sum as _sum
    n, batch = shape_of(s)[-1], shape_of(s)[:-1]
    is_float = dtypes.is_float(aval_of(s).dtype)
    q_aval = aval_of(q)
    index_dt = q_aval.dtype if dtypes.is_float(q_aval.dtype) and not q_aval.weak_type \
        else dtypes.float64
    q_shape = shape_of(q)
    qs = reshape(astype(q, index_dt), (-1,))                            # (nq,)
    if skip_nan and is_float:
        count = _sum(E.logical_not(E.isnan(s)), axis=-1, keepdims=True, dtype=dtypes.int64)
    else:
        count = np.full(batch + (1,), n, np.int64)
    last = E.maximum(E.subtract(count, 1), 0)                          # (..., 1)
    virtual = E.multiply(astype(last, index_dt), qs)                   # (..., nq)
    lo_i = astype(E.floor(virtual), dtypes.int64)
    hi_i = E.minimum(E.add(lo_i, 1), last)

    def at(i):
        return take_along_axis(s, E.minimum(E.maximum(i, 0), n - 1), -1)
    lo, hi = at(lo_i), at(hi_i)
    t = E.subtract(virtual, E.floor(virtual))                          # in index_dt
    if method == "lower":
        value = lo
    elif method == "higher":
        value = E.where(E.equal(t, 0), lo, hi)
    elif method == "nearest":
        value = at(astype(E.rint(virtual), dtypes.int64))   # NumPy rounds half to even
    elif method == "midpoint":                               # NumPy: lerp with t = 0.5
        half = 0.5 if q_aval.weak_type else np.asarray(0.5, out_dt)   # NumPy's gamma
        value = E.where(E.equal(t, 0), lo, _lerp(lo, hi, half, half, True))
    elif method == _MEAN_OF_MIDDLE:                          # median: NumPy's mean of two
        value = E.where(E.equal(t, 0), lo, E.divide(E.add(lo, hi), 2))
    else:
        value = _lerp(lo, hi, astype(t, out_dt), astype(E.subtract(1, t), out_dt),
                      E.greater_equal(t, 0.5))
    if is_float:
        # quantile: a NaN anywhere in a row (it sorts last) makes the row's answer NaN;
        # nanquantile: only a row of nothing but NaN does.
        undefined = E.equal(count, 0) if skip_nan else E.isnan(s[..., -1:])
        value = E.where(undefined, np.nan, value)
    value = astype(value, out_dt)                                      # (..., nq)
    return reshape(moveaxis(value, -1, 0), q_shape + batch)


def _pick_inverted_cdf(rows, weights, q, out_dt, skip_nan):
    """NumPy's 'inverted_cdf' (with weights, its only weighted method): in each row sorted
    with its weights, the first value whose cumulative weight share reaches q. NaNs sort
    last; for nanquantile they weigh nothing, for quantile they make the answer NaN."""
    from ._cumulative import cumsum
    from ._indexing import take_along_axis
    from ._reductions import sum as _sum
    order = argsort(rows, axis=-1)
    s = take_along_axis(rows, order, -1)
    w = astype(take_along_axis(weights, order, -1), dtypes.float64)
    nan = E.isnan(s) if dtypes.is_inexact(aval_of(s).dtype) else None
    if skip_nan and nan is not None:
        w = E.where(nan, 0.0, w)
    cdf = cumsum(w, axis=-1)
    cdf = E.divide(cdf, cdf[..., -1:])                                 # (..., n)
    qs = reshape(astype(q, dtypes.float64), (-1,))                     # (nq,)
    n = shape_of(s)[-1]
    count = _sum(E.logical_not(nan), axis=-1, keepdims=True, dtype=dtypes.int64) \
        if skip_nan and nan is not None else n
    reached = E.less(expand_dims(cdf, -2), reshape(qs, (-1, 1)))        # (..., nq, n)
    index = E.minimum(_sum(reached, axis=-1, dtype=dtypes.int64), E.subtract(count, 1))
    value = take_along_axis(s, E.maximum(index, 0), -1)                # (..., nq)
    if nan is not None:
        undefined = E.equal(count, 0) if skip_nan else nan[..., -1:]
        value = E.where(undefined, np.nan, value)
    return reshape(moveaxis(astype(value, out_dt), -1, 0), shape_of(q) + shape_of(s)[:-1])


def _lerp(a, b, t, one_minus_t, upper_half):
    # NumPy's formula: from the nearer end, so the result is exact at t = 0 and t = 1.
    diff = E.subtract(b, a)
    return E.where(upper_half, E.subtract(b, E.multiply(diff, one_minus_t)),
                   E.add(a, E.multiply(diff, t)))


def _fraction(q):
    """Percentages as fractions of one (a Python number stays weak)."""
    return q / 100 if isinstance(q, (int, float)) else E.divide(operand(q), 100)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    return quantile(a, _fraction(q), axis, out, overwrite_input, method, keepdims,
                    weights=weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile(a, 0.5, axis, out, overwrite_input, _MEAN_OF_MIDDLE, keepdims)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    return nanquantile(a, _fraction(q), axis, out, overwrite_input, method, keepdims,
                       weights=weights)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nanquantile(a, 0.5, axis, out, overwrite_input, _MEAN_OF_MIDDLE, keepdims)


def msort(a):
    return sort(a, axis=0)
