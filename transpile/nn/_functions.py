"""jax.nn's functions over axes: softmax, log_softmax, logmeanexp, standardize, one_hot
(logsumexp is jax.scipy.special's, re-exported by the package)."""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from .. import numpy as tnp
from ..core import Tracer, aval_of
from ..numpy._inexact import DEFAULT_FLOAT
from ..base.operands import normalize_axes, normalize_axis, operand
from ..scipy._logsumexp import logsumexp


def _axes(x, axis):
    return normalize_axes(axis, len(aval_of(x).shape))


def _shifted(x, axis, where):
    """x minus its maximum along `axis` (masked-out elements as -inf)."""
    x = operand(x)
    axes = _axes(x, axis)
    peak = tnp.max(x, axis=axes, keepdims=True, where=where,
                   initial=-np.inf if where is not None else None)
    safe = x if where is None else tnp.where(where, x, -np.inf)
    return safe - peak, axes


def softmax(x, axis=-1, where=None):
    """exp(x) / sum(exp(x)) along `axis` (an int, a tuple, or None for all); masked-out
    elements (`where` False) give 0."""
    shifted, axes = _shifted(x, axis, where)
    unnormalized = tnp.exp(shifted)
    result = unnormalized / tnp.sum(unnormalized, axis=axes, keepdims=True, where=where)
    return result if where is None else tnp.where(where, result, 0)


def log_softmax(x, axis=-1, where=None):
    """x - logsumexp(x) along `axis`; masked-out elements give -inf."""
    shifted, axes = _shifted(x, axis, where)
    result = shifted - tnp.log(tnp.sum(tnp.exp(shifted), axis=axes, keepdims=True,
                                       where=where))
    return result if where is None else tnp.where(where, result, -np.inf)


def logmeanexp(x, axis=None, where=None, keepdims=False):
    """logsumexp(x) - log(n), n the number of elements reduced (those `where` allows)."""
    x = operand(x)
    lse = logsumexp(x, axis=axis, keepdims=keepdims, where=where)
    axes = _axes(x, axis)
    if where is None:
        count = int(np.prod([aval_of(x).shape[a] for a in axes]))
        return lse - np.log(aval_of(lse).dtype.type(count))
    mask = tnp.broadcast_to(where, aval_of(x).shape)
    count = tnp.sum(mask, axis=axes, keepdims=keepdims).astype(aval_of(lse).dtype)
    return lse - tnp.log(count)


def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None, *,
                algorithm="fast"):
    """(x - mean) / sqrt(variance + epsilon), the mean and variance along `axis` unless
    given. algorithm="fast" takes the variance as mean(x^2) - mean(x)^2 (clipped at 0),
    "stable" as mean((x - mean)^2)."""
    x = operand(x)
    axes = _axes(x, axis)
    if mean is None:
        mean = tnp.mean(x, axis=axes, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = tnp.mean(tnp.square(x - mean), axis=axes, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = tnp.mean(tnp.square(x), axis=axes, keepdims=True, where=where) \
                - tnp.square(mean)
            variance = tnp.maximum(variance, 0)
        else:
            raise ValueError(f"standardize: algorithm must be 'fast' or 'stable', got "
                             f"{algorithm!r}")
    return (x - mean) * (1 / tnp.sqrt(variance + epsilon))


def one_hot(x, num_classes, *, dtype=None, axis=-1):
    """A new axis of length `num_classes` at `axis`, 1 where it equals x's index (indices
    outside [0, num_classes) give all zeros). `dtype` defaults to float64 (NumPy's default
    float; JAX's is float32 without x64)."""
    if isinstance(num_classes, Tracer):
        num_classes.__index__()           # raises ConcretizationError, naming the value
    try:
        num_classes = operator.index(num_classes)
    except TypeError:
        raise TypeError(f"one_hot: num_classes must be a static int, got "
                        f"{type(num_classes).__name__}") from None
    x = tnp.asarray(x)
    ndim = len(aval_of(x).shape)
    where_axis = normalize_axis(axis, ndim + 1, "one_hot axis")
    classes_shape = [1] * ndim
    classes_shape.insert(where_axis, num_classes)
    classes = tnp.arange(num_classes, dtype=aval_of(x).dtype).reshape(classes_shape)
    hits = tnp.expand_dims(x, where_axis) == classes
    target = DEFAULT_FLOAT if dtype is None else dtypes.canonicalize(dtype)
    return hits.astype(target)
