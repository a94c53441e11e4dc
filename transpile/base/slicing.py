"""Dynamic slicing: windows and updates at traced start indices, as `jax.lax` has them.

A negative start counts from the end of its axis, then the window is clamped to fit (JAX's
rules, `allow_negative_indices=True`); float starts are cast to int64.
`transpile.numpy`'s indexing and `.at` updates build on these; `transpile.lax` re-exports them.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind
from .operands import astype, elementwise, operand, reshape


def _index_operands(start_indices, shape, allow_negative_indices=True):
    """Start indices as integer operands. A negative start counts once from the end of its
    axis where `allow_negative_indices` says so (JAX's default since 0.4.31: start -3 of 10
    is 7, not 0); the primitive then clamps the window into the array."""
    starts = [operand(s) for s in start_indices]
    starts = [s if dtypes.is_int(aval_of(s).dtype) else astype(s, dtypes.int64) for s in starts]
    flags = list(allow_negative_indices) if isinstance(allow_negative_indices, (list, tuple)) \
        else [allow_negative_indices] * len(starts)
    if len(flags) != len(starts):
        raise ValueError(f"allow_negative_indices has {len(flags)} entries for {len(starts)} "
                         "start indices: give one bool, or one per axis")
    return [_from_end(s, n) if wrap and len(starts) == len(shape) else s
            for s, n, wrap in zip(starts, shape, flags)]


def check_same_index_type(start_indices, op: str):
    """JAX's `lax.dynamic_slice`/`dynamic_update_slice` refuse starts of different integer
    types (Python ints, being weakly typed, go with any); `transpile.numpy`'s indexing
    promotes them instead, so only the `lax` entry points call this."""
    typed = {np.dtype(aval_of(s).dtype) for s in map(operand, start_indices)
             if not aval_of(s).weak_type and dtypes.is_int(aval_of(s).dtype)}
    if len(typed) > 1:
        names = ", ".join(sorted(str(t) for t in typed))
        raise TypeError(f"index arguments to {op} must be integers of the same type, got "
                        f"{names}; convert the starts to one type, e.g. with "
                        ".astype(np.int32)")


def _from_end(start, size):
    if np.dtype(aval_of(start).dtype).kind == "u":
        return start
    if not isinstance(start, Tracer):
        if int(start) >= 0:
            return start
        return start + size if type(start) is int else \
            np.asarray(int(start) + size, dtype=aval_of(start).dtype)
    return bind(P.select, elementwise("lt", start, 0), elementwise("add", start, size), start)


def dynamic_slice(x, start_indices, slice_sizes, *, allow_negative_indices=True):
    """x[start:start+size] per axis, as in JAX: a negative start counts from the end, then
    the window is clamped to fit."""
    x = operand(x)
    starts = _index_operands(start_indices, aval_of(x).shape, allow_negative_indices)
    return bind(P.dynamic_slice, x, *starts, slice_sizes=tuple(int(n) for n in slice_sizes))


def dynamic_update_slice(x, update, start_indices, *, allow_negative_indices=True):
    """x with update written at start, as in JAX: a negative start counts from the end, then
    the window is clamped to fit."""
    x = operand(x)
    update = astype(operand(update), aval_of(x).dtype)
    starts = _index_operands(start_indices, aval_of(x).shape, allow_negative_indices)
    return bind(P.dynamic_update_slice, x, update, *starts)


def dynamic_index_in_dim(x, index, axis=0, keepdims=True):
    x = operand(x)
    shape = aval_of(x).shape
    starts = [0] * len(shape)
    starts[axis] = index
    sizes = list(shape)
    sizes[axis] = 1
    out = dynamic_slice(x, starts, sizes)
    if keepdims:
        return out
    return reshape(out, tuple(d for i, d in enumerate(shape) if i != axis))


def dynamic_slice_in_dim(operand_, start_index, slice_size, axis=0):
    x = operand(operand_)
    shape = aval_of(x).shape
    starts, sizes = [0] * len(shape), list(shape)
    starts[axis], sizes[axis] = start_index, int(slice_size)
    return dynamic_slice(x, starts, sizes)


def dynamic_update_slice_in_dim(operand_, update, start_index, axis):
    x = operand(operand_)
    starts = [0] * len(aval_of(x).shape)
    starts[axis] = start_index
    return dynamic_update_slice(x, update, starts)


def dynamic_update_index_in_dim(operand_, update, index, axis):
    x, update = operand(operand_), operand(update)
    if len(aval_of(update).shape) == len(aval_of(x).shape) - 1:
        shape = list(aval_of(update).shape)
        shape.insert(axis, 1)
        update = reshape(update, tuple(shape))
    return dynamic_update_slice_in_dim(x, update, index, axis)
