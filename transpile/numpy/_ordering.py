"""Orderings beyond sort: `lexsort` (several keys, the last primary), and `partition` /
`argpartition`, answered by a full (stable) sort along the axis, which is one of the
arrangements a partition may return."""
from __future__ import annotations

from .. import dtypes
from ..core import aval_of
from ..base.operands import astype, normalize_axis, operand, shape_of


def lexsort(keys, axis=-1):
    """Positions that sort by keys[-1], ties broken by keys[-2], and so on."""
    from ._indexing import take_along_axis
    from ._sorting import argsort
    keys = [operand(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if len({shape_of(k) for k in keys}) > 1:
        raise ValueError("all keys need to be the same shape")
    if len(shape_of(keys[0])) == 0:
        return astype(0, dtypes.default_int())
    ax = normalize_axis(axis, len(shape_of(keys[0])))
    order = argsort(keys[0], axis=ax, stable=True)
    for key in keys[1:]:
        step = argsort(take_along_axis(key, order, axis=ax), axis=ax, stable=True)
        order = take_along_axis(order, step, axis=ax)
    return order


def _checked(a, kth, axis, name):
    a = operand(a)
    if dtypes.is_complex(aval_of(a).dtype):
        raise NotImplementedError(f"{name} for complex dtype is not implemented.")
    ax = normalize_axis(axis, len(shape_of(a)))
    normalize_axis(kth, shape_of(a)[ax], what="kth")     # in range, as NumPy checks
    return a, ax


def partition(a, kth, axis=-1):
    """a rearranged so the kth element is in its sorted place, smaller ones before it and
    larger ones after (here: fully sorted along the axis)."""
    from ._sorting import sort
    a, ax = _checked(a, kth, axis, "partition")
    return sort(a, axis=ax)


def argpartition(a, kth, axis=-1):
    """The positions that partition a (here: those that sort it, stably)."""
    from ._sorting import argsort
    a, ax = _checked(a, kth, axis, "argpartition")
    return argsort(a, axis=ax, stable=True)
