"""Rearrangements of whole axes and blocks: `rot90`, `rollaxis`, `unstack`, `block`,
`sort_complex`. Each is a composition of flips, transposes, slices and concatenations."""
from __future__ import annotations

import numpy as np

from ..core import aval_of
from ._shape import concatenate, flip, moveaxis, transpose
from ..base.operands import astype, normalize_axis, operand, shape_of


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of `axes` (from the first towards the
    second)."""
    m = operand(m)
    ndim = len(shape_of(m))
    if ndim < 2:
        raise ValueError(f"rot90 requires its first argument to have ndim at least two, but "
                         f"got first argument of shape {shape_of(m)}, which has ndim {ndim}")
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    ax1, ax2 = normalize_axis(axes[0], ndim), normalize_axis(axes[1], ndim)
    if ax1 == ax2:
        raise ValueError("Axes must be different")
    k = int(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, ax1), ax2)
    perm = list(range(ndim))
    perm[ax1], perm[ax2] = perm[ax2], perm[ax1]
    if k == 1:
        return transpose(flip(m, ax2), perm)
    return flip(transpose(m, perm), ax2)


def rollaxis(a, axis, start=0):
    """The old spelling of moveaxis: `axis` moved to lie before position `start`."""
    a = operand(a)
    ndim = len(shape_of(a))
    axis = normalize_axis(axis, ndim)
    start = int(start)
    if not -ndim <= start <= ndim:
        raise ValueError(f"start={start} must satisfy {-ndim}<=start<={ndim}")
    if start < 0:
        start += ndim
    if start > axis:
        start -= 1
    return moveaxis(a, axis, start)


def unstack(x, /, *, axis=0):
    """The slices of x along `axis`, as a tuple."""
    x = operand(x)
    if len(shape_of(x)) == 0:
        raise ValueError("Unstack requires arrays with rank > 0, however a scalar array was "
                         "passed.")
    ax = normalize_axis(axis, len(shape_of(x)))
    moved = moveaxis(x, ax, 0)
    return tuple(moved[i] for i in range(shape_of(x)[ax]))


def block(arrays):
    """An array assembled from nested lists of blocks: the innermost lists join along the
    last axis, each level out along the axis before it (NumPy's block)."""
    nested, depth = _block_depth(arrays)
    leaves = _leaves(nested)
    ndim = max([depth] + [len(shape_of(operand(x))) for x in leaves])
    from ._dtype_api import result_type
    common = result_type(*leaves) if leaves else None
    return _assemble(nested, depth, ndim, common)


def _block_depth(arrays):
    if isinstance(arrays, tuple):
        raise TypeError("block: arrays must be nested lists, not tuples")
    if not isinstance(arrays, list):
        return arrays, 0
    if not arrays:
        raise ValueError("block: lists cannot be empty")
    depths = {_block_depth(a)[1] for a in arrays}
    if len(depths) != 1:
        raise ValueError("block: list depths are mismatched")
    return arrays, depths.pop() + 1


def _leaves(nested):
    if isinstance(nested, list):
        return [leaf for item in nested for leaf in _leaves(item)]
    return [nested]


def _assemble(nested, depth, ndim, common):
    if not isinstance(nested, list):
        x = astype(operand(nested), common)
        return x.reshape((1,) * (ndim - len(shape_of(x))) + shape_of(x)) \
            if len(shape_of(x)) < ndim else x
    parts = [_assemble(item, depth - 1, ndim, common) for item in nested]
    return concatenate(parts, axis=ndim - depth)


def sort_complex(a):
    """a sorted (real part first, then imaginary) and made complex, as NumPy's."""
    from ._sorting import sort
    from .. import dtypes
    a = operand(a)
    out = sort(a, axis=-1)          # complex values: lexicographic, NaNs last (NumPy's order)
    dt = aval_of(out).dtype
    if not dtypes.is_complex(dt):
        if dtypes.config.jax_rules():
            from ._dtype_api import result_type
            dt = result_type(dt, np.complex64)
        else:   # NumPy's: complex64 for (u)int8/16, complex128 otherwise (float32 too)
            dt = np.dtype(np.complex64 if dt.char in "bhBH" else np.complex128)
    return astype(out, dt)
