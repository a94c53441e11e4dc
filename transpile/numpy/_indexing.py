"""Integer-array ("advanced") indexing, `take` and `take_along_axis`, as JAX does them.

Everything reduces to one primitive, `gather` along a single axis, whose lowering is a
load at a data-dependent offset fused into the consumer's loop. Several index arrays
are combined into one flat index over their axes (moved together first). Under jit
out-of-range indices are clamped, as in JAX (NumPy would raise; that needs the values).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind
from . import _elementwise as E
from ..base.iota import broadcasted_iota
from ..base.operands import (astype, broadcast_operands, broadcast_to, normalize_axis, operand,
                             reshape, shape_of)


def is_array_index(k) -> bool:
    """An index entry that selects by an integer (or boolean) array, not a slice or scalar."""
    if isinstance(k, (list, tuple)):
        return True
    if isinstance(k, (np.ndarray, Tracer)):
        return np.ndim(k) > 0 if isinstance(k, np.ndarray) else k.ndim > 0
    return False


def gather(x, indices, axis: int):
    indices = operand(indices)
    if not dtypes.is_int(aval_of(indices).dtype):
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got "
                         f"{aval_of(indices).dtype}")
    return bind(P.gather, x, astype(indices, dtypes.int64), axis=axis)


def _normalized(index, n: int):
    """index counted from the end when negative, clamped into [0, n): one per axis."""
    index = astype(operand(index), dtypes.int64)
    wrapped = E.where(E.less(index, 0), E.add(index, n), index)
    return E.minimum(E.maximum(wrapped, 0), max(n - 1, 0))


def _integer_index(k):
    k = operand(k)
    if not dtypes.is_int(aval_of(k).dtype):
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got "
                         f"{aval_of(k).dtype}")
    return k


def _boolean_to_integer(k, name="index"):
    if isinstance(k, Tracer):
        raise IndexError("a traced boolean mask as an index has a data-dependent shape, which "
                         "cannot be compiled; use tnp.where(mask, x, 0) or a `size=` form")
    return list(np.nonzero(np.asarray(k)))


def advanced_getitem(x, key: tuple):
    """x[key] where key (ellipsis expanded) holds at least one integer-array entry."""
    from ._shape import getitem
    entries = []
    for k in key:
        if isinstance(k, (list, tuple)):
            k = operand(k)          # a list may hold traced integers (jit flattens it)
        if isinstance(k, (np.ndarray, Tracer)) and k.dtype == np.bool_ and np.ndim(k) > 0:
            entries.extend(_boolean_to_integer(k))
        else:
            entries.append(k)
    if any(k is Ellipsis for k in entries):
        from ._shape import _expand_ellipsis
        axes_named = sum(k is not None and k is not Ellipsis for k in entries)
        if ellipsis_between_arrays(entries) and axes_named == x.ndim:
            return _apart_across_empty_ellipsis(x, entries)
        entries = list(_expand_ellipsis(tuple(entries), x.ndim))
    if any(k is None for k in entries):
        # A None adds a length-1 axis: add it to x first and take all of it, which keeps
        # NumPy's placement of the array indices' axes (a None between them sets them apart,
        # as a slice does).
        from ._shape import expand_dims
        y, spelled = x, []
        for k in entries:
            if k is None:
                y = expand_dims(y, len(spelled))
                k = slice(None)
            spelled.append(k)
        return advanced_getitem(y, tuple(spelled))
    if len(entries) > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{len(entries)} were indexed")
    entries += [slice(None)] * (x.ndim - len(entries))
    # Integer scalars join the array indices (NumPy broadcasts them together).
    advanced = [d for d, k in enumerate(entries) if not isinstance(k, slice)]
    sliced = getitem(x, tuple(k if isinstance(k, slice) else slice(None) for k in entries))
    arrays = broadcast_operands("index", [_integer_index(entries[d]) for d in advanced])
    return _gather_axes(sliced, advanced, arrays)


def ellipsis_between_arrays(key) -> bool:
    """NumPy counts array indices separated by an ellipsis as apart (their block of axes
    comes first), even when the ellipsis stands for no axis."""
    arrays = [i for i, k in enumerate(key) if not isinstance(k, slice) and k is not Ellipsis
              and k is not None]
    return any(k is Ellipsis and arrays and arrays[0] < i < arrays[-1]
               for i, k in enumerate(key))


def _apart_across_empty_ellipsis(x, entries):
    """x[a, ..., b] where the ellipsis stands for no axis: index x with a length-1 axis
    added in its place (taken whole, which keeps a and b apart), then drop that axis."""
    from ._shape import _selection_shape, expand_dims
    at = next(i for i, k in enumerate(entries) if k is Ellipsis)
    spelled = tuple(slice(None) if k is Ellipsis else k for k in entries)
    return reshape(advanced_getitem(expand_dims(x, at), spelled),
                   _selection_shape(shape_of(x), tuple(entries)))


def _gather_axes(y, axes: list[int], arrays: list):
    shape = shape_of(y)
    flat = None
    for d, index in zip(axes, arrays):
        term = _normalized(index, shape[d])
        flat = term if flat is None else E.add(E.multiply(flat, shape[d]), term)
    adjacent = axes == list(range(axes[0], axes[0] + len(axes)))
    if len(axes) == 1:
        return gather(y, flat, axes[0])
    from ._shape import transpose
    rest = [d for d in range(len(shape)) if d not in axes]
    moved = transpose(y, axes + rest)
    merged = reshape(moved, (math.prod(shape[d] for d in axes),) + tuple(shape[d] for d in rest))
    out = gather(merged, flat, 0)
    if not adjacent:           # NumPy puts the broadcast index dims first in this case
        return out
    nb = len(shape_of(flat))
    order = list(range(nb, nb + axes[0])) + list(range(nb)) + list(range(nb + axes[0],
                                                                       len(shape_of(out))))
    return transpose(out, order)


_FILL_MODES = ("fill", None)


def take(a, indices, axis=None, mode=None, fill_value=None):
    """JAX's take: mode None/'fill' returns fill_value for out-of-range indices (NaN for
    floats, the extreme value for integers), 'clip' clamps, 'wrap' wraps around."""
    a = operand(a)
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    ax = normalize_axis(axis, len(shape_of(a)))
    n = shape_of(a)[ax]
    indices = astype(operand(indices), dtypes.int64)
    if mode == "wrap":
        return gather(a, E.remainder(indices, max(n, 1)), ax)
    if mode == "clip":      # JAX clamps to [0, n-1] first: -1 is the first element, not the last
        return gather(a, E.clip(indices, 0, max(n - 1, 0)), ax)
    if mode not in _FILL_MODES:
        raise ValueError(f"take: mode must be 'fill', 'clip' or 'wrap', got {mode!r}")
    valid = E.logical_and(E.greater_equal(indices, -n), E.less(indices, n))
    got = gather(a, indices, ax)
    valid = reshape(valid, (1,) * ax + shape_of(valid) + (1,) * (len(shape_of(got)) - ax
                                                                 - len(shape_of(valid))))
    return E.where(valid, got, astype(_default_fill(aval_of(a).dtype, fill_value),
                                      aval_of(a).dtype))


def _default_fill(dt, fill_value):
    if fill_value is not None:
        return fill_value
    if dtypes.is_inexact(dt):
        return np.nan          # NaN (+0j for complex), as JAX fills
    if dt == dtypes.bool_:
        return True
    info = np.iinfo(dt)
    # a scalar of the dtype itself: uint64's max is no Python int JAX's rules would take
    return np.dtype(dt).type(info.min if info.min < 0 else info.max)


class IndexTypeError(TypeError, IndexError):
    """Indices of a dtype that cannot index: JAX's TypeError, NumPy's IndexError."""


def take_along_axis(arr, indices, axis, mode=None, fill_value=None):
    """out[..., i, ...] = arr[..., indices[..., i, ...], ...]: a gather on the flattened array
    at flat positions made from the index and each other axis's own position."""
    arr, indices = operand(arr), operand(indices)
    if not dtypes.is_int(aval_of(indices).dtype):
        # JAX's TypeError (NumPy raises an IndexError: this class is both)
        raise IndexTypeError(f"take_along_axis indices must be of integer type, got "
                             f"{aval_of(indices).dtype}; convert them with "
                             "indices.astype(int)")
    indices = astype(indices, dtypes.int64)
    if axis is None:
        arr, axis = reshape(arr, (-1,)), 0
    shape = shape_of(arr)
    ax = normalize_axis(axis, len(shape))
    if len(shape_of(indices)) != len(shape):
        raise ValueError(f"take_along_axis: indices of shape {shape_of(indices)} and array of "
                         f"shape {shape} need the same number of dimensions")
    out_shape = tuple(np.broadcast_shapes(
        tuple(1 if d == ax else s for d, s in enumerate(shape)),
        tuple(1 if d == ax else s for d, s in enumerate(shape_of(indices)))))
    out_shape = out_shape[:ax] + (shape_of(indices)[ax],) + out_shape[ax + 1:]
    indices = broadcast_to(indices, out_shape)
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    flat = E.multiply(_normalized(indices, shape[ax]), strides[ax])
    for d, n in enumerate(out_shape):
        if d != ax and shape[d] != 1:
            flat = E.add(flat, E.multiply(broadcasted_iota(dtypes.int64, out_shape, d),
                                          strides[d]))
    got = gather(reshape(arr, (-1,)), flat, 0)
    if mode == "clip":
        return got
    n = shape[ax]
    valid = E.logical_and(E.greater_equal(indices, -n), E.less(indices, n))
    return E.where(valid, got, astype(_default_fill(aval_of(arr).dtype, fill_value),
                                      aval_of(arr).dtype))
