"""jax.lax's sorting: `sort` (one operand, or several sorted together by their first
`num_keys`) and `top_k`, with JAX's signatures and order.

JAX's order is NumPy's: NaN after every number (whatever its sign bit), -0.0 and 0.0 tie, and
a stable sort keeps tied elements in input order. Both are built on the stable sort/argsort
primitives (runtime/include/tp_sort.h, O(n log n) per row): several operands are sorted by
a permutation from stable argsorts of the keys, last key first, so that earlier keys win.
"""
from __future__ import annotations

import operator

import numpy as np

from . import dtypes
from .core import aval_of
from .lax_special import bitcast_convert_type
from .numpy import _elementwise as E
from .numpy import _sorting as S
from .numpy._indexing import take_along_axis
from .base.operands import astype, normalize_axis, operand, shape_of


def sort(operand_, dimension=-1, is_stable=True, num_keys=1):
    """Sorts along `dimension`; a sequence of operands (same shape) is sorted together by
    its first `num_keys` arrays, lexicographically, and returned as a tuple."""
    if not isinstance(operand_, (list, tuple)):
        if num_keys != 1:
            raise ValueError(f"lax.sort: num_keys={num_keys} needs a sequence of at least "
                             f"{num_keys} operands")
        return S.sort(operand_, axis=dimension)
    arrays = [operand(a) for a in operand_]
    num_keys = operator.index(num_keys)
    if not 1 <= num_keys <= len(arrays):
        raise ValueError(f"lax.sort: num_keys={num_keys} must be between 1 and the number of "
                         f"operands ({len(arrays)})")
    shapes = {shape_of(a) for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"lax.sort: all operands need one shape, got shapes "
                         f"{[shape_of(a) for a in arrays]}")
    if not shape_of(arrays[0]):
        raise ValueError("lax.sort: operands need at least one dimension, got shape ()")
    axis = normalize_axis(dimension, len(shape_of(arrays[0])))
    order = _lexicographic_order(arrays[:num_keys], axis)
    return tuple(take_along_axis(a, order, axis) for a in arrays)


def _lexicographic_order(keys, axis):
    """Positions that sort by keys[0], ties broken by keys[1], ...: stable argsorts applied
    from the last key to the first, each on the order found so far."""
    order = S.argsort(keys[-1], axis=axis)
    for key in reversed(keys[:-1]):
        step = S.argsort(take_along_axis(key, order, axis), axis=axis)
        order = take_along_axis(order, step, axis)
    return order


def top_k(operand_, k, *, axis=-1):
    """The k largest values along `axis` (the last by default), largest first, and their
    int32 positions; ties keep the smaller position first and NaN counts as largest."""
    x = operand(operand_)
    if not shape_of(x):
        raise ValueError("lax.top_k: needs an operand of at least one dimension, got shape ()")
    ax = normalize_axis(axis, len(shape_of(x)))
    n, k = shape_of(x)[ax], operator.index(k)
    int32_max = np.iinfo(np.int32).max
    if n > int32_max + 1:
        raise ValueError(f"top_k returns int32 indices, which will overflow for array "
                         f"dimensions larger than the maximum int32 ({int32_max}). Got "
                         f"operand.shape={shape_of(x)}; take top_k of slices of the axis")
    if not 0 <= k <= n:
        raise ValueError(f"lax.top_k: k={k} must be between 0 and the axis length {n} "
                         f"(operand shape {shape_of(x)})")
    if n > np.iinfo(np.int32).max:
        raise ValueError(f"top_k returns int32 indices, which will overflow for an axis of "
                         f"length {n}; split the axis into chunks of at most 2**31 - 1")
    order = S.argsort(_total_order_key(x), axis=ax, descending=True)
    first = order[(slice(None),) * ax + (slice(0, k),)]
    return take_along_axis(x, first, ax), astype(first, dtypes.int32)


def _total_order_key(x):
    """top_k compares floats in IEEE total order (unlike sort): -NaN < -inf < ... < -0.0 <
    0.0 < ... < inf < NaN. The bits as a signed integer give that order once the magnitude
    bits of negative values are flipped."""
    dt = aval_of(x).dtype
    if not dtypes.is_float(dt):
        return x
    bits = bitcast_convert_type(x, np.dtype(f"int{dt.itemsize * 8}"))
    magnitude = np.iinfo(aval_of(bits).dtype).max
    return E.where(E.less(bits, 0), E.bitwise_xor(bits, magnitude), bits)


__all__ = ["sort", "top_k"]
