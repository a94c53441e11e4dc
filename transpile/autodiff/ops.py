"""The primitives rules are written with, bound directly on the current trace (or run
eagerly): no NumPy-style promotion or broadcasting, so each rule says exactly which
equations it adds, with the shapes and dtypes it means."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import ShapedArray, aval_of, bind


def aval(x) -> ShapedArray:
    return aval_of(x)


def scalar(value, dtype):
    """A 0-d constant of `dtype`, strongly typed (a literal in the IR)."""
    return np.asarray(value, dtype=dtype)[()]


def full(value, like: ShapedArray):
    """An array of `like`'s shape and dtype filled with `value` (weak stays weak)."""
    if like.weak_type and like.dtype == dtypes.DEFAULT_FOR_PYTHON_TYPE.get(
            dtypes.python_scalar_type(like.dtype)):
        fill = dtypes.python_scalar_type(like.dtype)(value)
    else:
        fill = scalar(value, like.dtype)
    if like.shape == ():
        return fill
    return bind(P.broadcast_in_dim, fill, shape=like.shape, broadcast_dimensions=())


def zeros(like: ShapedArray):
    return full(0, like)


def add(x, y):
    return bind(P.get("add"), x, y)


def sub(x, y):
    return bind(P.get("sub"), x, y)


def mul(x, y):
    return bind(P.get("mul"), x, y)


def div(x, y):
    return bind(P.get("div"), x, y)


def neg(x):
    return bind(P.get("neg"), x)


def unary(name: str, x):
    return bind(P.get(name), x)


def binary(name: str, x, y):
    return bind(P.get(name), x, y)


def select(pred, on_true, on_false):
    return bind(P.select, pred, on_true, on_false)


def convert(x, dtype, weak_type=False):
    a = aval_of(x)
    if a.dtype == np.dtype(dtype) and a.weak_type == weak_type:
        return x
    return bind(P.convert_element_type, x, new_dtype=np.dtype(dtype), weak_type=weak_type)


def broadcast_in_dim(x, shape, dims):
    if aval_of(x).shape == tuple(shape):
        return x
    return bind(P.broadcast_in_dim, x, shape=tuple(shape), broadcast_dimensions=tuple(dims))


def broadcast_to(x, shape):
    """Right-aligned NumPy broadcasting of `x` to `shape`."""
    old = aval_of(x).shape
    if old == tuple(shape):
        return x
    return broadcast_in_dim(x, shape, tuple(range(len(shape) - len(old), len(shape))))


def reduce_sum(x, axes):
    axes = tuple(sorted(axes))
    if not axes:
        return x
    return bind(P.reduce_sum, x, axes=axes)


def reshape(x, shape):
    if aval_of(x).shape == tuple(shape):
        return x
    return bind(P.reshape, x, new_sizes=tuple(shape))


def transpose(x, perm):
    if tuple(perm) == tuple(range(len(perm))):
        return x
    return bind(P.transpose, x, permutation=tuple(perm))


def swap_last(x):
    """Matrix transpose of the last two axes."""
    n = aval_of(x).ndim
    return transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


def matmul(x, y):
    return bind(P.dot_general, x, y)


def slice_(x, starts, limits, strides=None):
    strides = tuple(strides) if strides is not None else (1,) * len(starts)
    return bind(P.slice_p, x, start_indices=tuple(starts), limit_indices=tuple(limits),
                strides=strides)


def concatenate(xs, dimension):
    return xs[0] if len(xs) == 1 else bind(P.concatenate, *xs, dimension=dimension)


def iota(dtype, shape, dimension):
    return bind(P.iota, dtype=np.dtype(dtype), shape=tuple(shape), dimension=dimension)


def gather(x, indices, axis):
    return bind(P.gather, x, indices, axis=axis)


def scatter(x, flat_indices, updates, mode):
    return bind(P.scatter, x, flat_indices, updates, mode=mode)


def sum_to(ct, target: ShapedArray):
    """A cotangent of a (possibly broadcast, promoted) result made to `target`'s shape and
    dtype: elementwise primitives broadcast 0-d operands implicitly and promote dtypes."""
    a = aval_of(ct)
    if a.shape != target.shape:
        if target.shape == ():
            ct = reduce_sum(ct, range(a.ndim))
        else:
            lead = a.ndim - len(target.shape)
            axes = list(range(lead)) + [lead + i for i, d in enumerate(target.shape)
                                        if d == 1 and a.shape[lead + i] != 1]
            ct = reshape(reduce_sum(ct, axes), target.shape)
    return fit_dtype(ct, target)


def fit_dtype(x, target: ShapedArray):
    """`x` converted to `target`'s dtype when it differs (cotangents and tangents keep their
    primal's dtype; a rule may compute in a promoted one)."""
    a = aval_of(x)
    if a.dtype == target.dtype:
        return x
    if dtypes.is_complex(a.dtype) and not dtypes.is_complex(target.dtype):
        x = unary("real", x)
        if aval_of(x).dtype == target.dtype:
            return x
    return convert(x, target.dtype, target.weak_type)


def fit(x, target: ShapedArray):
    """A tangent made to `target`: broadcast a 0-d value, convert a promoted dtype."""
    x = fit_dtype(x, target)
    if aval_of(x).shape != target.shape:
        x = broadcast_to(x, target.shape)
    return x


def instantiate(t, like: ShapedArray):
    """A symbolic zero (None) made into an array of zeros; other tangents fitted to `like`."""
    return zeros(like) if t is None else fit(t, like)


def exact(x, target: ShapedArray):
    """`x` with exactly `target`'s aval, weak type included: what the outputs of regions
    (cond branches, loop bodies) need to agree on."""
    x = fit(x, target)
    if aval_of(x).weak_type != target.weak_type:
        x = bind(P.convert_element_type, x, new_dtype=target.dtype, weak_type=target.weak_type)
    return x
