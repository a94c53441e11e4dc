"""Arrays grown, shrunk or refilled at static positions: `delete`, `insert`, `compress`,
`extract`, `resize`, `trim_zeros`, and JAX's out-of-place `put` and `place`.

The positions must be known while tracing (they fix the result's shape), so they are worked
out with NumPy and applied as static gathers; `compress`/`extract` also take a traced
condition together with JAX's `size=`.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ._manipulation import take_static
from ._shape import concatenate, moveaxis
from ..base.operands import astype, broadcast_to, normalize_axis, operand, reshape, shape_of


def _static(value, what, fix):
    if isinstance(value, Tracer):
        raise TypeError(f"{what} must be static (it fixes the result's shape); {fix}")
    return np.asarray(value)


def _flattened_or_axis(arr, axis):
    arr = operand(arr)
    if axis is None:
        return reshape(arr, (-1,)), 0
    return arr, normalize_axis(axis, len(shape_of(arr)))


def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """arr without the entries at `obj` (an index, a slice or indices) along `axis`."""
    a, ax = _flattened_or_axis(arr, axis)
    n = shape_of(a)[ax]
    if isinstance(obj, Tracer) and assume_unique_indices:
        return _delete_traced_unique(a, obj, ax)
    if isinstance(obj, slice):
        drop = np.arange(n)[obj]
    else:
        drop = _static(obj, "delete: 'obj'", "pass NumPy indices or a slice, or traced "
                       "distinct integer indices with assume_unique_indices=True")
        if drop.dtype == np.bool_:
            if drop.shape != (n,):
                raise ValueError(f"delete: a boolean 'obj' needs shape ({n},), got {drop.shape}")
            drop = np.flatnonzero(drop)
        elif drop.size and not np.issubdtype(drop.dtype, np.integer):
            raise ValueError(f"delete: 'obj' must hold integers, got {drop.dtype}")
        drop = drop.astype(np.int64).ravel()
        if ((drop < -n) | (drop >= n)).any():
            bad = drop[(drop < -n) | (drop >= n)][0]
            raise IndexError(f"delete: index {bad} is out of bounds for axis {ax} with size {n}")
    keep = np.ones(n, dtype=bool)
    keep[drop % max(n, 1)] = False
    return take_static(a, np.flatnonzero(keep), ax)


def _delete_traced_unique(a, obj, ax):
    """delete with traced indices the caller promises distinct and in range (JAX's
    assume_unique_indices=True): their number fixes the result's length; the kept positions
    are found at run time."""
    from ._at import IndexUpdateRef
    from ._indexing import take
    from ._sorting import nonzero
    n = shape_of(a)[ax]
    drop = reshape(operand(obj), (-1,))
    if not dtypes.is_int(aval_of(drop).dtype):
        raise ValueError(f"delete: 'obj' must hold integers, got {aval_of(drop).dtype}")
    drop = E.where(E.less(drop, 0), E.add(drop, n), drop)
    keep = IndexUpdateRef(broadcast_to(operand(True), (n,)), (drop,)).set(False)
    positions, = nonzero(keep, size=n - shape_of(drop)[0], fill_value=0)
    return take(a, positions, axis=ax, mode="clip")


def _insert_at_traced(a, index, values, ax):
    """insert with one traced scalar index (JAX's): the values' block placed before position
    `index` (negative counts from the end; clipped to [0, n]), by one gather from
    [a, values] whose source positions depend on the index at run time."""
    from ._indexing import take
    from ..core import bind
    from .. import primitives as P
    n = shape_of(a)[ax]
    values = astype(operand(values), aval_of(a).dtype)
    values = reshape(values, (1,) * (len(shape_of(a)) - len(shape_of(values))) +
                     shape_of(values))
    values = moveaxis(values, 0, ax) if shape_of(values) else values
    block = list(shape_of(a))
    block[ax] = shape_of(values)[ax]
    values = broadcast_to(values, tuple(block))
    k = block[ax]
    p = E.clip(E.where(E.less(index, 0), E.add(index, n), index), 0, n)
    j = bind(P.iota, dtype=dtypes.int64, shape=(n + k,), dimension=0)
    source = E.where(E.less(j, p), j,
                     E.where(E.less(j, E.add(p, k)), E.add(E.subtract(j, p), n),
                             E.subtract(j, k)))
    return take(concatenate([a, values], axis=ax), source, axis=ax, mode="clip")


def insert(arr, obj, values, axis=None):
    """arr with `values` inserted before the positions `obj` along `axis` (NumPy's rules: a
    scalar index takes the values as a block, a sequence one value per index). A traced
    scalar index is allowed, as in JAX."""
    a, ax = _flattened_or_axis(arr, axis)
    n = shape_of(a)[ax]
    if isinstance(obj, Tracer) and not shape_of(obj):
        if not dtypes.is_int(aval_of(obj).dtype):
            raise ValueError(f"insert: index array must be integer typed; got "
                             f"{aval_of(obj).dtype}")
        return _insert_at_traced(a, obj, values, ax)
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n))
    else:
        indices = _static(obj, "insert: 'obj'", "pass NumPy indices or a slice")
        if indices.ndim > 1:
            raise ValueError(f"insert: obj must be a slice, a one-dimensional array, or a "
                             f"scalar; got shape {indices.shape}")
        if indices.size == 0:
            indices = indices.astype(np.int64)
        elif not np.issubdtype(indices.dtype, np.integer):
            raise ValueError(f"insert: index array must be integer typed; got {indices.dtype}")
    values = astype(operand(values), aval_of(a).dtype)
    values = reshape(values, (1,) * (len(shape_of(a)) - len(shape_of(values))) +
                     shape_of(values))
    if indices.size == 1:
        if indices.ndim == 0:
            values = moveaxis(values, 0, ax)
        indices = np.full(shape_of(values)[ax], indices.ravel()[0])
    n_insert = np.broadcast_shapes(indices.shape, (shape_of(values)[ax],))[0]
    indices = np.broadcast_to(indices, (n_insert,)).astype(np.int64)
    indices = np.clip(np.where(indices < 0, indices + n, indices), 0, n)
    block_shape = list(shape_of(a))
    block_shape[ax] = n_insert
    values = broadcast_to(values, tuple(block_shape))
    # Where each inserted value lands: its index plus the number inserted before it.
    placed = indices.copy()
    placed[np.argsort(indices, kind="stable")] += np.arange(n_insert)
    order = np.empty(n + n_insert, dtype=np.int64)
    is_value = np.zeros(n + n_insert, dtype=bool)
    is_value[placed] = True
    order[placed] = n + np.arange(n_insert)
    order[~is_value] = np.arange(n)
    return take_static(concatenate([a, values], axis=ax), order, ax)


def compress(condition, a, axis=None, *, size=None, fill_value=0, out=None):
    """The slices of `a` along `axis` where the 1-d `condition` holds. A traced condition
    needs `size=` (the result's length; missing entries take fill_value), as in JAX."""
    if out is not None:
        raise NotImplementedError("compress: 'out' is not supported; use the returned value")
    arr, ax = _flattened_or_axis(a, axis)
    n = shape_of(arr)[ax]
    if isinstance(condition, Tracer) or size is not None:
        return _compress_sized(operand(condition), arr, ax, size, fill_value)
    cond = np.asarray(condition).astype(bool)
    if cond.ndim != 1:
        raise ValueError(f"condition must be a 1D array, got shape {cond.shape}")
    if cond[n:].any():
        raise ValueError("condition contains entries that are out of bounds")
    return take_static(arr, np.flatnonzero(cond[:n]), ax)


def _compress_sized(condition, arr, ax, size, fill_value):
    from ._indexing import take
    from ._sorting import nonzero
    if size is None:
        raise TypeError("compress: a traced condition needs size= (the result's length), as "
                        "in JAX: tnp.compress(cond, a, size=k, fill_value=v)")
    n = shape_of(arr)[ax]
    if len(shape_of(condition)) != 1:
        raise ValueError(f"condition must be a 1D array, got shape {shape_of(condition)}")
    if not 0 <= size <= n:
        raise ValueError(f"size must be positive and not greater than the size of the array "
                         f"axis; got size={size} for a.shape[axis]={n}")
    cond = E.not_equal(condition[:n], 0)
    picked = nonzero(cond, size=size, fill_value=n)[0]        # n: out of range, filled
    return take(arr, picked, axis=ax, mode="fill", fill_value=fill_value)


def extract(condition, arr, *, size=None, fill_value=0):
    """The elements of `arr` where `condition` holds, flattened (compress of the ravels)."""
    cond = operand(condition)
    return compress(reshape(cond, (-1,)) if isinstance(cond, Tracer) else
                    np.asarray(cond).ravel(), reshape(operand(arr), (-1,)), size=size,
                    fill_value=fill_value)


def resize(a, new_shape):
    """`a` flattened, repeated as often as needed and cut to `new_shape` (zeros when a is
    empty, as JAX)."""
    from ._creation import zeros
    from ._manipulation import tile
    new_shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else \
        tuple(int(d) for d in new_shape)
    if any(d < 0 for d in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    flat = reshape(operand(a), (-1,))
    size, new_size = shape_of(flat)[0], math.prod(new_shape)
    if size == 0 or new_size == 0:
        return zeros(new_shape, dtype=aval_of(flat).dtype)
    return reshape(tile(flat, -(-new_size // size))[:new_size], new_shape)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros; the values must be
    concrete (they fix the result's shape), as in JAX."""
    if isinstance(filt, Tracer):
        raise TypeError("trim_zeros: 'filt' must be concrete (its zeros fix the result's "
                        "shape); call it outside jit")
    values = np.asarray(filt)
    axes = range(values.ndim) if axis is None else \
        [normalize_axis(x, values.ndim) for x in np.atleast_1d(axis)]
    key = [slice(None)] * values.ndim
    for ax in axes:
        mask = values.any(axis=tuple(i for i in range(values.ndim) if i != ax))
        if not mask.any():
            key[ax] = slice(0, 0)
            continue
        start = int(mask.argmax()) if "f" in trim.lower() else None
        stop = values.shape[ax] - int(mask[::-1].argmax()) if "b" in trim.lower() else None
        key[ax] = slice(start, stop)
    from ._creation import asarray           # a Python number too: indexed as an array
    return asarray(filt)[tuple(key)]


def _no_inplace(inplace, name):
    if inplace:
        raise ValueError(f"{name}: arrays are immutable, so the update cannot happen in place; "
                         f"pass inplace=False and use the returned array")


def put(a, ind, v, mode=None, *, inplace=True):
    """a with the flat positions `ind` set to `v` (cycled), returned (inplace=False); an
    empty `v` leaves `a` as it is."""
    _no_inplace(inplace, "put")
    a = operand(a)
    flat = reshape(a, (-1,))
    ind = reshape(operand(ind), (-1,))
    v = reshape(operand(v), (-1,))
    k = shape_of(ind)[0]
    if shape_of(v)[0] == 0:         # nothing to write (NumPy and JAX return `a` unchanged)
        return a
    if k and shape_of(v)[0] != k:
        v = take_static(v, np.arange(k) % shape_of(v)[0], 0)
    n = shape_of(flat)[0]
    if mode in (None, "fill", "drop"):
        at_mode = None
    elif mode == "clip":
        ind, at_mode = E.clip(ind, 0, n - 1), None
    elif mode == "wrap":
        ind, at_mode = E.remainder(ind, n), None
    else:
        raise ValueError(f"put: mode must be one of 'fill', 'clip', 'wrap' or None, "
                         f"got {mode!r}")
    from ._at import IndexUpdateRef
    return reshape(IndexUpdateRef(flat, (ind,)).set(v, mode=at_mode), shape_of(a))


def place(arr, mask, vals, *, inplace=True):
    """arr with the entries where `mask` holds replaced, in order, by `vals` (cycled)."""
    _no_inplace(inplace, "place")
    arr = operand(arr)
    flat = reshape(arr, (-1,))
    if isinstance(mask, Tracer):
        return reshape(_place_traced(flat, mask, vals), shape_of(arr))
    positions = np.flatnonzero(_static(mask, "place: 'mask'", "pass a NumPy boolean array"))
    vals = reshape(operand(vals), (-1,))
    if positions.size == 0:
        return arr
    if shape_of(vals)[0] == 0:
        raise ValueError("place: cannot place values from an empty 'vals' into a non-empty "
                         "mask")
    vals = take_static(vals, np.arange(positions.size) % shape_of(vals)[0], 0)
    from ._at import IndexUpdateRef
    return reshape(IndexUpdateRef(flat, (positions,)).set(vals), shape_of(arr))


def _place_traced(flat, mask, vals):
    """place with a traced mask (JAX's): the i-th selected entry takes vals[i % len(vals)],
    i counted by a running sum of the mask."""
    from ._cumulative import cumsum
    from ._indexing import take
    mask = reshape(E.not_equal(operand(mask), 0), (-1,))
    vals = astype(reshape(operand(vals), (-1,)), aval_of(flat).dtype)
    if shape_of(vals)[0] == 0:        # nothing to place with: JAX leaves the array as it is
        return flat
    order = E.subtract(cumsum(astype(mask, dtypes.int64)), 1)
    chosen = take(vals, E.remainder(E.maximum(order, 0), shape_of(vals)[0]), mode="clip")
    return E.where(mask, chosen, flat)
