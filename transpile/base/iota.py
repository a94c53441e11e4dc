"""Index arrays: `lax.iota` and `lax.broadcasted_iota` (eagerly a NumPy array, under a trace
the `iota` primitive). `transpile.numpy`'s index builders use them; `transpile.lax`
re-exports them."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import bind, current_trace


def iota(dtype, size):
    return broadcasted_iota(dtype, (int(size),), 0)


def broadcasted_iota(dtype, shape, dimension):
    shape = tuple(int(d) for d in shape)
    dt = dtypes.canonicalize(dtype)
    if current_trace() is None:
        index = np.arange(shape[dimension], dtype=dt)
        placed = [1] * len(shape)
        placed[dimension] = shape[dimension]
        return np.broadcast_to(index.reshape(placed), shape).copy()
    return bind(P.iota, dtype=dt, shape=shape, dimension=int(dimension))
