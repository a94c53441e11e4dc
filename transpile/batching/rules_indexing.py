"""Batching dynamic slices and updates, gather and scatter.

With the same positions for every batch member, the primitive applies with one more axis
(a full-length window over the batch). With positions that differ per member, the operand is
flattened and each member's positions are offset into its own part (flat_index.py).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from .flat_index import as_int64, member_offsets_into, window_indices
from .moves import example_shape, moveaxis, reshape, to_front
from .table import register

ADD, MAX, MIN, LT, GE, AND = (P.get(name) for name in ("add", "max", "min", "lt", "ge", "and"))


def _zero_like_starts(starts):
    dtype = aval_of(starts[0]).dtype if starts else dtypes.int64
    return np.asarray(0, dtype=dtype)[()]


@register("dynamic_slice")
def dynamic_slice_batching(size, values, dims, *, slice_sizes):
    operand, starts, od, start_dims = values[0], values[1:], dims[0], dims[1:]
    shape = example_shape(operand, od)
    if all(d is None for d in start_dims):
        new_starts = list(starts[:od]) + [_zero_like_starts(starts)] + list(starts[od:])
        sizes = tuple(slice_sizes[:od]) + (size,) + tuple(slice_sizes[od:])
        return bind(P.dynamic_slice, operand, *new_starts, slice_sizes=sizes), od
    batched = od is not None
    flat = reshape(moveaxis(operand, od, 0) if batched else operand,
                   ((size if batched else 1) * math.prod(shape),))
    idx = window_indices(size, starts, start_dims, shape, slice_sizes, batched)
    return bind(P.gather, flat, idx, axis=0), 0


@register("dynamic_update_slice")
def dynamic_update_slice_batching(size, values, dims):
    (operand, update), starts = values[:2], values[2:]
    (od, ud), start_dims = dims[:2], dims[2:]
    operand, update = to_front(operand, od, size), to_front(update, ud, size)
    if all(d is None for d in start_dims):
        new_starts = [_zero_like_starts(starts)] + list(starts)
        return bind(P.dynamic_update_slice, operand, update, *new_starts), 0
    shape, window = aval_of(operand).shape[1:], aval_of(update).shape[1:]
    idx = window_indices(size, starts, start_dims, shape, window, True)
    return bind(P.scatter, operand, idx, update, mode="set"), 0


@register("gather")
def gather_batching(size, values, dims, *, axis):
    (operand, indices), (od, idim) = values, dims
    if idim is None:
        out = bind(P.gather, operand, indices, axis=axis if axis < od else axis + 1)
        return out, od if od <= axis else od - 1 + aval_of(indices).ndim
    if od is None:
        return bind(P.gather, operand, indices, axis=axis), axis + idim
    return _gather_per_member(size, moveaxis(operand, od, 0), moveaxis(indices, idim, 0), axis)


def _gather_per_member(size, operand, indices, axis):
    """Both batched: operand (B, *S), indices (B, *I) -> (B, *S[:axis], *I, *S[axis+1:])."""
    shape = aval_of(operand).shape[1:]
    n, rest = shape[axis], shape[:axis] + shape[axis + 1:]
    rows = reshape(moveaxis(operand, axis + 1, 1), (size * n,) + rest)
    idx = as_int64(indices)
    idx = bind(P.select, bind(LT, idx, np.int64(0)), bind(ADD, idx, np.int64(n)), idx)
    idx = bind(MIN, bind(MAX, idx, np.int64(0)), np.int64(max(n - 1, 0)))
    out = bind(P.gather, rows, member_offsets_into(idx, size, n), axis=0)
    k = aval_of(indices).ndim - 1
    perm = ((0,) + tuple(1 + k + j for j in range(axis)) + tuple(1 + i for i in range(k))
            + tuple(1 + k + j for j in range(axis, len(rest))))
    return bind(P.transpose, out, permutation=perm), 0


@register("scatter")
def scatter_batching(size, values, dims, *, mode):
    (operand, indices, updates), (od, idim, ud) = values, dims
    operand = to_front(operand, od, size)
    member_size = math.prod(aval_of(operand).shape[1:])
    idx = as_int64(to_front(indices, idim, size))
    inside = bind(AND,
                  bind(GE, idx, np.int64(0)), bind(LT, idx, np.int64(member_size)))
    # A position out of a member's range is dropped, as scatter drops it: -1 keeps it out.
    idx = bind(P.select, inside, member_offsets_into(idx, size, member_size), np.int64(-1))
    return bind(P.scatter, operand, idx, to_front(updates, ud, size), mode=mode), 0
