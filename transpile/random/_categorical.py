"""`random.categorical`: draws from softmax(logits) by the Gumbel-max trick, as JAX draws them
(the same Gumbel noise for the same key, so the same samples)."""
from __future__ import annotations

import math

import numpy as np

from .. import lax_sorting
from ..numpy._creation import asarray
from ..numpy._elementwise import add
from ..numpy._reductions import argmax
from ..numpy._shape import expand_dims, moveaxis
from ..base.operands import reshape
from ._samplers import gumbel
from ._threefry import check_key


def _shapes(logits_shape, axis, shape):
    batch_shape = tuple(np.delete(np.array(logits_shape, dtype=np.int64), axis).tolist())
    shape = batch_shape if shape is None else tuple(int(d) for d in np.atleast_1d(shape))
    if shape[len(shape) - len(batch_shape):] != batch_shape:
        raise ValueError(f"categorical: shape {shape} must end with the logits' batch shape "
                         f"{batch_shape} (logits {logits_shape} without axis {axis})")
    return shape, batch_shape, shape[:len(shape) - len(batch_shape)]


def categorical(key, logits, axis=-1, shape=None, replace=True, mode=None):
    """Sample indices along `axis` of `logits` (unnormalised log-probabilities); `shape`
    prepends sample dimensions to the batch shape. `replace=False` draws distinct indices."""
    key = check_key(key, "categorical")
    if mode not in (None, "low"):
        raise NotImplementedError(f"categorical: mode={mode!r} (JAX's high-precision Gumbel "
                                  f"noise) is not supported; leave mode=None")
    logits = asarray(logits)
    ndim = len(logits.shape)
    axis = axis - ndim if axis >= 0 else axis
    shape, batch_shape, prefix = _shapes(logits.shape, axis, shape)
    if replace:
        noise_shape = list(shape[len(prefix):])
        noise_shape.insert(axis % ndim, logits.shape[axis])
        noise = gumbel(key, (*prefix, *noise_shape), logits.dtype)
        return argmax(add(noise, expand_dims(logits, tuple(range(len(prefix))))), axis=axis)
    perturbed = add(logits, gumbel(key, logits.shape, logits.dtype))
    k = math.prod(prefix)
    if k > logits.shape[axis]:
        raise ValueError(f"categorical: {k} samples without replacement exceed the "
                         f"{logits.shape[axis]} categories")
    _, indices = lax_sorting.top_k(moveaxis(perturbed, axis, -1), k)
    return reshape(moveaxis(indices, -1, 0), shape)
