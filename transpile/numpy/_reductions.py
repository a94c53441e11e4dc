"""Reductions with NumPy's axis/keepdims conventions and result dtypes."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._util import as_bool, astype, normalize_axes, normalize_axis, operand, reshape


def _keep(result, shape, axes, keepdims):
    if not keepdims:
        return result
    kept = tuple(1 if i in axes else d for i, d in enumerate(shape))
    return reshape(result, kept)


def _reduce(prim, x, axis, keepdims):
    shape = aval_of(x).shape
    axes = normalize_axes(axis, len(shape))
    out = bind(prim, x, axes=axes) if axes else x
    return _keep(out, shape, axes, keepdims)


def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy sums small integers (and booleans) in the platform integer."""
    return np.sum(np.zeros(0, dt)).dtype


def sum(a, axis=None, dtype=None, keepdims=False):
    a = operand(a)
    dt = dtypes.canonicalize(dtype) if dtype is not None else _sum_dtype(aval_of(a).dtype)
    return _reduce(P.reduce_sum, astype(a, dt), axis, keepdims)


def prod(a, axis=None, dtype=None, keepdims=False):
    a = operand(a)
    dt = dtypes.canonicalize(dtype) if dtype is not None else _sum_dtype(aval_of(a).dtype)
    return _reduce(P.reduce_prod, astype(a, dt), axis, keepdims)


def mean(a, axis=None, dtype=None, keepdims=False):
    a = operand(a)
    aval = aval_of(a)
    if dtype is not None:
        dt = dtypes.canonicalize(dtype)
    else:
        dt = aval.dtype if dtypes.is_float(aval.dtype) else dtypes.float64
    axes = normalize_axes(axis, aval.ndim)
    count = math.prod(aval.shape[i] for i in axes)
    total = sum(astype(a, dt), axis=axis, keepdims=keepdims)
    from ._elementwise import divide
    return divide(total, float(count))   # count 0 gives NaN, as NumPy


def max(a, axis=None, keepdims=False):
    return _reduce(P.reduce_max, operand(a), axis, keepdims)


def min(a, axis=None, keepdims=False):
    return _reduce(P.reduce_min, operand(a), axis, keepdims)


amax, amin = max, min


def all(a, axis=None, keepdims=False):
    return _reduce(P.reduce_and, as_bool(a), axis, keepdims)


def any(a, axis=None, keepdims=False):
    return _reduce(P.reduce_or, as_bool(a), axis, keepdims)


def _arg_reduce(prim, a, axis, keepdims):
    a = operand(a)
    shape = aval_of(a).shape
    if axis is None:
        flat = reshape(a, (-1,)) if len(shape) != 1 else a
        out = bind(prim, flat, axis=0, index_dtype=dtypes.int64)
        return reshape(out, (1,) * len(shape)) if keepdims else out
    ax = normalize_axis(axis, len(shape))
    out = bind(prim, a, axis=ax, index_dtype=dtypes.int64)
    return _keep(out, shape, (ax,), keepdims)


def argmax(a, axis=None, keepdims=False):
    return _arg_reduce(P.argmax, a, axis, keepdims)


def argmin(a, axis=None, keepdims=False):
    return _arg_reduce(P.argmin, a, axis, keepdims)
