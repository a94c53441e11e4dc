"""Index-building helpers: the index arrays of grids, triangles and diagonals (static: their
shapes decide them, so they are NumPy's arrays made into constants), unravel_index on traced
indices with JAX's out-of-bounds rule, fill_diagonal and isin."""
from __future__ import annotations

import math

import numpy as np

from ..core import Tracer
from . import _elementwise as E
from ._at import IndexUpdateRef
from ._creation import asarray, zeros
from ._manipulation import tile
from ._reductions import any as _any
from ._shape import expand_dims, ravel
from ..base.operands import operand, shape_of


def _static(what, **values):
    for name, v in values.items():
        if isinstance(v, Tracer):
            raise TypeError(f"{what}: '{name}' is traced, but it decides the result's shape; "
                            f"pass a Python int")


def indices(dimensions, dtype=int, sparse=False):
    _static("indices", dimensions=dimensions)
    grids = np.indices(tuple(dimensions), dtype=dtype, sparse=sparse)
    return tuple(asarray(g) for g in grids) if sparse else asarray(grids)


def triu_indices(n, k=0, m=None):
    _static("triu_indices", n=n, k=k, m=m)
    return tuple(asarray(i) for i in np.triu_indices(n, k, m))


def tril_indices(n, k=0, m=None):
    _static("tril_indices", n=n, k=k, m=m)
    return tuple(asarray(i) for i in np.tril_indices(n, k, m))


def triu_indices_from(arr, k=0):
    rows, cols = shape_of(operand(arr))[-2:]
    return triu_indices(rows, k, cols)


def tril_indices_from(arr, k=0):
    rows, cols = shape_of(operand(arr))[-2:]
    return tril_indices(rows, k, cols)


def diag_indices(n, ndim=2):
    _static("diag_indices", n=n, ndim=ndim)
    return tuple(asarray(i) for i in np.diag_indices(n, ndim))


def diag_indices_from(arr):
    shape = shape_of(operand(arr))
    if len(shape) < 2 or len(set(shape)) != 1:
        raise ValueError(f"diag_indices_from: the array must be at least 2-d with all "
                         f"dimensions equal, got shape {shape}")
    return diag_indices(shape[0], len(shape))


def unravel_index(indices, shape):
    """Coordinates of flat `indices` in `shape`. As JAX (unlike NumPy): indices in
    [-size, -1] count from the end and any others are clipped into range, never an error."""
    remaining = operand(indices)
    # The dims may be traced (only their number fixes the result's structure), as in JAX.
    shape = list(shape) if isinstance(shape, (tuple, list)) or np.ndim(shape) else [shape]
    coords = [None] * len(shape)
    for i in reversed(range(len(shape))):
        remaining, coords[i] = E.floor_divide(remaining, shape[i]), E.remainder(remaining,
                                                                              shape[i])
    beyond_end = E.greater(remaining, 0)
    before_start = E.less(remaining, -1)
    return tuple(E.where(beyond_end, s - 1, E.where(before_start, 0, c))
                 for s, c in zip(shape, coords))


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """`a` with its main diagonal set to `val` (repeated as needed), returned: JAX arrays are
    immutable, so `inplace=False` is required, as in JAX. `wrap` is ignored, as in JAX."""
    if inplace:
        raise ValueError("fill_diagonal: arrays are immutable under transpile (as in JAX); "
                         "write x = tnp.fill_diagonal(x, val, inplace=False)")
    del wrap
    a = operand(a)
    shape = shape_of(a)
    if len(shape) < 2 or (len(shape) > 2 and len(set(shape)) != 1):
        raise ValueError(f"fill_diagonal: the array must be 2-d, or n-d with all dimensions "
                         f"equal, got shape {shape}")
    n = min(shape)
    val = operand(val)
    if shape_of(val):
        flat = ravel(val)
        val = tile(flat, -(-n // shape_of(flat)[0]))[:n]   # NumPy's cyclic reuse of `val`
    return IndexUpdateRef(a, diag_indices(n, len(shape))).set(val)


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    """Whether each element of `element` is in `test_elements` (any shape)."""
    del assume_unique, method
    element, tests = operand(element), ravel(operand(test_elements))
    if math.prod(shape_of(tests)) == 0:
        found = zeros(shape_of(element), dtype=bool)
    else:
        found = _any(E.equal(expand_dims(element, -1), tests), axis=-1)
    return E.logical_not(found) if invert else found
