"""`transpile.scipy.ndimage`: jax.scipy.ndimage's `map_coordinates` (orders 0 and 1, as in
JAX 0.10), the interpolation dm_pix's affine transforms and rotations are built on.

Each output value sums, over the 2**ndim (order 1) or 1 (order 0) grid points around its
coordinate, weight * input[index]; the boundary mode maps an index outside the array back
into it, and 'constant' mode takes `cval` for points outside instead. The modes are JAX's,
which differ from SciPy's of the same name: JAX's 'wrap' and 'constant' are SciPy's
'grid-wrap' and 'grid-constant'.
"""
from __future__ import annotations

import functools
import itertools
import operator

from .. import dtypes
from ..core import aval_of
from ..lax_ops import round as _round_half_away
from ..base.operands import astype, operand
from .. import numpy as _tnp

__all__ = ["map_coordinates"]


def _mirror(index, size):
    """A triangular wave of half-period size - 1: ... 2 1 [0 1 2 .. size-1] size-2 ..."""
    if size == 1:
        return _tnp.zeros_like(index)
    s = size - 1
    return _tnp.abs((index + s) % (2 * s) - s)


def _reflect(index, size):
    """Mirrored about the array's edges, the edge repeated: ... 1 0 [0 1 .. size-1] size-1 .."""
    return _tnp.floor_divide(_mirror(2 * index + 1, 2 * size + 1) - 1, 2)


# mode: index (int32, any value) -> index inside [0, size) for the modes that have one
_INDEX_MAPS = {
    # 'constant' reads the nearest point and replaces it by cval (the read must stay inside
    # the array: eager indexing raises where a traced read would clamp)
    "constant": lambda index, size: _tnp.clip(index, 0, size - 1),
    "nearest": lambda index, size: _tnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _nearest_points(coordinate):
    """Order 0: the nearest grid point, halves rounded away from zero (lax.round)."""
    index = coordinate if dtypes.is_int(aval_of(coordinate).dtype) else \
        _round_half_away(coordinate)
    return [(astype(index, _tnp.int32), None)]


def _linear_points(coordinate):
    """Order 1: the grid points below and above, weighted by the distance to the other."""
    lower = _tnp.floor(coordinate)
    upper_weight = coordinate - lower
    index = astype(lower, _tnp.int32)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


_ORDERS = {0: _nearest_points, 1: _linear_points}


def map_coordinates(input, coordinates, order, mode="constant", cval=0.0,  # noqa: A002
                    prefilter=True):
    """Values of `input` at `coordinates` (one array per axis of `input`, all of one shape),
    interpolated with splines of `order` 0 (nearest) or 1 (linear), as
    jax.scipy.ndimage.map_coordinates. `prefilter` only matters for orders above 1, which
    JAX 0.10 does not have either."""
    image = operand(input, "map_coordinates: input")
    shape = aval_of(image).shape
    if len(coordinates) != len(shape):
        raise ValueError("coordinates must be a sequence of length input.ndim, but "
                         f"{len(coordinates)} != {len(shape)}")
    if mode not in _INDEX_MAPS:
        raise NotImplementedError(
            f"map_coordinates: mode {mode!r} is not supported; use one of "
            f"{sorted(_INDEX_MAPS)} (JAX's 'wrap' and 'constant' are SciPy's 'grid-wrap' and "
            "'grid-constant')")
    if int(order) not in _ORDERS:
        raise NotImplementedError(f"map_coordinates: order {order} is not supported; use "
                                  "order 0 (nearest) or 1 (linear), as JAX")
    coords = [operand(c, "map_coordinates: coordinates") for c in coordinates]
    fill = astype(operand(cval), aval_of(image).dtype)
    per_axis = [[(_INDEX_MAPS[mode](index, size), _inside(index, size, mode), weight)
                 for index, weight in _ORDERS[int(order)](c)]
                for c, size in zip(coords, shape)]
    terms = []
    for corner in itertools.product(*per_axis):
        indices, inside, weights = zip(*corner)
        value = image[tuple(indices)]
        if mode == "constant":
            value = _tnp.where(functools.reduce(operator.and_, inside), value, fill)
        weights = [w for w in weights if w is not None]
        terms.append(functools.reduce(operator.mul, weights) * value if weights else value)
    result = functools.reduce(operator.add, terms)
    if dtypes.is_int(aval_of(image).dtype):
        result = _round_half_away(result)
    return astype(result, aval_of(image).dtype)


def _inside(index, size, mode):
    return (index >= 0) & (index < size) if mode == "constant" else None
