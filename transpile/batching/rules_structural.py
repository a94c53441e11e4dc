"""Batching the primitives that rearrange arrays: broadcast, reshape, transpose, slice, rev,
concatenate. Most keep the batch axis in front and shift their axis parameters by one."""
from __future__ import annotations

from .. import primitives as P
from ..core import bind
from .moves import all_to_front, example_axis, moveaxis
from .table import register

@register("broadcast_in_dim")
def broadcast_in_dim_batching(size, values, dims, *, shape, broadcast_dimensions):
    x = moveaxis(values[0], dims[0], 0)
    return bind(P.broadcast_in_dim, x, shape=(size,) + tuple(shape),
                broadcast_dimensions=(0,) + tuple(d + 1 for d in broadcast_dimensions)), 0

@register("reshape")
def reshape_batching(size, values, dims, *, new_sizes):
    x = moveaxis(values[0], dims[0], 0)
    return bind(P.reshape, x, new_sizes=(size,) + tuple(new_sizes)), 0

@register("transpose")
def transpose_batching(size, values, dims, *, permutation):
    x = moveaxis(values[0], dims[0], 0)
    return bind(P.transpose, x, permutation=(0,) + tuple(p + 1 for p in permutation)), 0

def _inserted(seq, position: int, value) -> tuple:
    return tuple(seq[:position]) + (value,) + tuple(seq[position:])


@register("slice")
def slice_batching(size, values, dims, *, start_indices, limit_indices, strides):
    d = dims[0]      # the batch axis stays where it is, taken whole
    return bind(P.slice_p, values[0], start_indices=_inserted(start_indices, d, 0),
                limit_indices=_inserted(limit_indices, d, size),
                strides=_inserted(strides, d, 1)), d

@register("rev")
def rev_batching(size, values, dims, *, dimensions):
    d = dims[0]
    return bind(P.rev, values[0], dimensions=tuple(example_axis(a, d) for a in dimensions)), d

@register("concatenate")
def concatenate_batching(size, values, dims, *, dimension):
    return bind(P.concatenate, *all_to_front(values, dims, size), dimension=dimension + 1), 0



@register("iota")
def iota_batching(size, values, dims, *, dtype, shape, dimension):
    """iota has no operands, so it is never batched; replayed as it is for completeness."""
    return bind(P.iota, dtype=dtype, shape=shape, dimension=dimension), None
