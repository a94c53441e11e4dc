"""Flat-position arithmetic for batched indexing.

When the positions an indexing primitive reads or writes differ per batch member, the batched
operand is viewed as one flat vector and every member's positions are offset by
`member * member_size`: one gather or scatter then serves the whole batch. All arithmetic is
in int64, on primitives, so it is recorded like any other computation.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from .moves import convert, to_front

ADD, MUL, MAX, MIN = (P.get(name) for name in ("add", "mul", "max", "min"))


def as_int64(x):
    return convert(x, dtypes.int64)


def lane_offsets(size: int, stride: int):
    """[0, stride, 2*stride, ...]: where each batch member starts in the flat vector."""
    lanes = bind(P.iota, dtype=dtypes.int64, shape=(size,), dimension=0)
    return bind(MUL, lanes, np.int64(stride))


def spread(x, shape, dims):
    """`x` broadcast to `shape`, its axes landing on `dims`."""
    if aval_of(x).shape == tuple(shape):
        return x
    return bind(P.broadcast_in_dim, x, shape=tuple(shape), broadcast_dimensions=tuple(dims))


def clamped_start(start, dim_size: int, window: int):
    """A start index clamped so that the window fits: min(max(s, 0), size - window)."""
    s = bind(MAX, as_int64(start), np.int64(0))
    return bind(MIN, s, np.int64(dim_size - window))


def window_positions(shape, window):
    """Flat positions (row-major in `shape`) of a window of size `window` at the origin."""
    strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
    total = np.int64(0)
    for k, stride in enumerate(strides):
        along = bind(P.iota, dtype=dtypes.int64, shape=tuple(window), dimension=k)
        total = bind(ADD, total, bind(MUL, along, np.int64(stride)))
    return spread(total, tuple(window), range(len(window))), strides


def window_indices(size, starts, start_dims, shape, window, batched_operand: bool):
    """(size, *window) flat positions of each member's window into the batched, flattened
    operand (members at `size * prod(shape)` apart when the operand is batched)."""
    grid, strides = window_positions(shape, window)
    offset = (lane_offsets(size, math.prod(shape)) if batched_operand
              else spread(np.int64(0), (size,), ()))
    for start, d, n, dim_size, stride in zip(starts, start_dims, window, shape, strides):
        s = clamped_start(start, dim_size, n)
        s = to_front(s, d, size) if d is not None else s
        offset = bind(ADD, offset, bind(MUL, s, np.int64(stride)))
    full = (size,) + tuple(window)
    return bind(ADD, spread(offset, full, (0,)), spread(grid, full, range(1, len(full))))


def member_offsets_into(indices, size: int, member_size: int):
    """Batched (size, *I) positions shifted to each member's part of a flat batched vector."""
    shape = aval_of(indices).shape
    return bind(ADD, indices, spread(lane_offsets(size, member_size), shape, (0,)))
