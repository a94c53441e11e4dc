"""Matrix construction and products built on the existing primitives.

Triangles and diagonals are index comparisons (iota) or strided views of the flattened
matrix, so they fuse; products reshape to the one batched-matmul primitive.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind, current_trace
from . import _elementwise as E
from ._matmul import dot, matmul, scaled
from ._preferred import takes_precision
from ._shape import transpose
from ..base.operands import (astype, broadcast_to, normalize_axis, operand, reshape, static_shape,
                             strong_operand)


def _index_grid(n: int, m: int):
    """(row, col) index arrays of an n x m matrix: iota under a trace, NumPy otherwise."""
    if current_trace() is None:
        return np.arange(n)[:, None], np.arange(m)[None, :]
    shape = static_shape((n, m))
    return (bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=0),
            bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=1))


def tri(N, M=None, k=0, dtype=float):
    """Ones at and below the k-th diagonal. `k` may be traced (JAX's); a Python int beyond
    the matrix is clamped to its edge first, which changes nothing but keeps it in range."""
    M = N if M is None else M
    N, M = static_shape((N, M), "tri's N and M")
    rows, cols = _index_grid(N, M)
    k = clamped_offset(k, N, M) if not isinstance(k, Tracer) else k
    return astype(E.less_equal(cols, E.add(rows, k)), dtypes.canonicalize(dtype))


def clamped_offset(k, n, m) -> int:
    """A diagonal offset as a Python int moved into [-n-1, m+1]: offsets beyond the matrix
    select the same (no) elements, and 2**100 would not fit the index arithmetic."""
    return max(-n - 1, min(m + 1, int(k)))


def _triangle(m, k, lower: bool):
    m = operand(m)
    shape = aval_of(m).shape
    if len(shape) < 2:
        raise ValueError(f"{'tril' if lower else 'triu'}: input must be at least 2-d, "
                         f"got shape {shape}")
    mask = tri(shape[-2], shape[-1], k if lower else k - 1, dtype=bool)
    keep = mask if lower else E.logical_not(mask)
    return E.where(keep, m, astype(0, aval_of(m).dtype))   # a strong zero keeps m's dtype


def tril(m, k=0):
    return _triangle(m, int(k), lower=True)


def triu(m, k=0):
    return _triangle(m, int(k), lower=False)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal as a strided view of the two axes flattened together."""
    a = operand(a)
    ndim = len(aval_of(a).shape)
    if ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    i, j = normalize_axis(axis1, ndim, "axis1"), normalize_axis(axis2, ndim, "axis2")
    if i == j:
        raise ValueError("axis1 and axis2 can not be same (JAX's words; they must differ)")
    a = _to_last_two(a, i, j)
    shape = aval_of(a).shape
    n, m, offset = shape[-2], shape[-1], int(offset)
    length = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    flat = reshape(a, shape[:-2] + (n * m,))
    start = offset if offset >= 0 else -offset * m
    if length == 0:
        return flat[..., 0:0]
    return flat[..., start:start + (length - 1) * (m + 1) + 1:m + 1]


def _to_last_two(a, i, j):
    ndim = len(aval_of(a).shape)
    order = [d for d in range(ndim) if d not in (i, j)] + [i, j]
    return transpose(a, order) if order != list(range(ndim)) else a


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    from ._reductions import sum
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def diag(v, k=0):
    v = operand(v)
    shape = aval_of(v).shape
    if len(shape) == 2:
        return diagonal(v, k)
    if len(shape) != 1:
        raise ValueError(f"diag: input must be 1-d or 2-d, got shape {shape}")
    k = int(k)
    n = shape[0] + abs(k)
    rows, cols = _index_grid(n, n)
    from ._manipulation import pad
    padded = pad(v, (0, abs(k)))
    # (r, c) holds v[r] when k >= 0 (c = r + k) and v[c] when k < 0 (r = c - k).
    values = reshape(padded, (n, 1)) if k >= 0 else reshape(padded, (1, n))
    on_diagonal = E.equal(E.subtract(cols, rows), k)
    return E.where(on_diagonal, broadcast_to(values, (n, n)), astype(0, aval_of(v).dtype))


def diagflat(v, k=0):
    return diag(reshape(operand(v), (-1,)), k)


def outer(a, b):
    a, b = reshape(strong_operand(a), (-1, 1)), reshape(strong_operand(b), (1, -1))
    return E.multiply(a, b)


@takes_precision
def tensordot(a, b, axes=2):
    a, b = strong_operand(a), strong_operand(b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    jax_errors = dtypes.config.jax_rules()      # JAX raises TypeError, in its words
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > min(len(sa), len(sb)):
            if jax_errors:
                raise TypeError(f"Number of tensordot axes (axes {n}) exceeds input ranks "
                                f"({len(sa)} and {len(sb)})")
            raise ValueError(f"tensordot: axes={n} is out of range for shapes {sa} and {sb}")
        axes_a, axes_b = list(range(len(sa) - n, len(sa))), list(range(n))
    else:
        if jax_errors:
            _check_tensordot_axes_jax(axes)
        axes_a, axes_b = ([axes[0]] if isinstance(axes[0], int) else list(axes[0]),
                          [axes[1]] if isinstance(axes[1], int) else list(axes[1]))
        axes_a = [normalize_axis(x, len(sa)) for x in axes_a]
        axes_b = [normalize_axis(x, len(sb)) for x in axes_b]
    if [sa[i] for i in axes_a] != [sb[i] for i in axes_b]:
        raise ValueError(f"tensordot: shape mismatch for sum over axes {axes_a} of {sa} and "
                         f"{axes_b} of {sb}")
    free_a = [i for i in range(len(sa)) if i not in axes_a]
    free_b = [i for i in range(len(sb)) if i not in axes_b]
    k = math.prod(sa[i] for i in axes_a)
    a2 = reshape(_permute(a, free_a + axes_a), (math.prod(sa[i] for i in free_a), k))
    b2 = reshape(_permute(b, axes_b + free_b), (k, math.prod(sb[i] for i in free_b)))
    out = dot(a2, b2)
    return reshape(out, tuple(sa[i] for i in free_a) + tuple(sb[i] for i in free_b))


def _check_tensordot_axes_jax(axes):
    """JAX's TypeErrors for a malformed pair of axes lists."""
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise TypeError("tensordot axes argument must be an int, a pair of ints, or a pair "
                        f"of lists/tuples of ints, got {axes}.")
    ax1, ax2 = axes
    if isinstance(ax1, (int, np.integer)) and isinstance(ax2, (int, np.integer)):
        return
    if isinstance(ax1, (list, tuple)) and isinstance(ax2, (list, tuple)):
        if len(ax1) != len(ax2):
            raise TypeError("tensordot requires axes lists to have equal length, got "
                            f"{ax1} and {ax2}.")
        return
    raise TypeError("tensordot requires both axes lists to be either ints, tuples or lists, "
                    f"got {ax1} and {ax2}")


def _permute(x, order):
    return transpose(x, order) if order != list(range(len(order))) else x


@takes_precision
def inner(a, b):
    a, b = strong_operand(a), strong_operand(b)
    if not aval_of(a).shape or not aval_of(b).shape:
        return scaled(a, b)
    return tensordot(a, b, axes=([-1], [-1]))


def kron(a, b):
    a, b = strong_operand(a), strong_operand(b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    nd = max(len(sa), len(sb))
    sa, sb = (1,) * (nd - len(sa)) + sa, (1,) * (nd - len(sb)) + sb
    spread_a = reshape(a, tuple(v for s in sa for v in (s, 1)))
    spread_b = reshape(b, tuple(v for s in sb for v in (1, s)))
    return reshape(E.multiply(spread_a, spread_b), tuple(x * y for x, y in zip(sa, sb)))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    arrays = [reshape(operand(x), (-1,)) for x in xi]
    nd = len(arrays)
    shapes = [[1] * nd for _ in arrays]
    for i, x in enumerate(arrays):
        shapes[i][i] = aval_of(x).shape[0]
    if indexing == "xy" and nd > 1:
        for s in shapes:
            s[0], s[1] = s[1], s[0]
    out = [reshape(x, tuple(s)) for x, s in zip(arrays, shapes)]
    if sparse:
        return out
    full = np.broadcast_shapes(*(tuple(s) for s in shapes))
    return [broadcast_to(x, full) for x in out]


__all__ = ["tri", "tril", "triu", "diagonal", "trace", "diag", "diagflat", "outer",
           "tensordot", "inner", "kron", "meshgrid", "matmul"]
