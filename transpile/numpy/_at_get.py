"""`x.at[idx].get(mode=..., fill_value=...)`, as JAX's: mode None (and "promise_in_bounds")
reads as `x[idx]` does (traced indices clamp), "clip" clamps every index into range, and
"fill" (or "drop") gives `fill_value` wherever an index is out of range: NaN for inexact
dtypes, the most negative value for signed integers, the largest for unsigned ones and True
for booleans unless `fill_value` says otherwise.

Out-of-range integer and integer-array indices are made safe (0 under "fill", clamped under
"clip") before the ordinary read, and under "fill" the in-range test of every index, broadcast
as NumPy's advanced indexing broadcasts them and placed where their dimensions land in the
result, selects between the read and the fill value.
"""
from __future__ import annotations

import numpy as np

from ..core import aval_of
from . import _elementwise as E
from ._indexing import _default_fill
from ._shape import _expand_ellipsis, getitem
from ..base.operands import astype, broadcast_operands, operand, reshape, shape_of

_MODES = (None, "promise_in_bounds", "clip", "fill", "drop")


def _is_advanced(k) -> bool:
    return not isinstance(k, slice) and k is not None and k is not Ellipsis


def indexed_get(x, index: tuple, mode, fill_value):
    if mode not in _MODES:
        raise ValueError(f"x.at[...].get: mode must be one of {_MODES[1:]} or None, got {mode!r}")
    if mode in (None, "promise_in_bounds"):
        return getitem(x, index)
    x = operand(x)
    key = _expand_ellipsis(index, len(shape_of(x)))
    if any(k is None for k in key):
        raise NotImplementedError("x.at[...].get(mode=...) with None (newaxis) in the index: "
                                  "index first, then add the axis with tnp.expand_dims")
    if any(isinstance(k, (bool, np.bool_)) or (_is_advanced(k) and not isinstance(k, int)
                                                and aval_of(operand(k)).dtype == np.bool_)
           for k in key):
        raise NotImplementedError("x.at[...].get(mode=...) with a boolean index: use "
                                  "tnp.where(mask, size=...) to turn it into integer indices")
    safe, valid = [], []
    for dim, k in enumerate(key):
        if not _is_advanced(k):
            safe.append(k)
            continue
        n = shape_of(x)[dim]
        k = operand(k)
        inside = E.logical_and(E.greater_equal(k, -n), E.less(k, n))
        if mode == "clip":
            wrapped = E.where(E.less(k, 0), E.add(k, n), k)
            safe.append(E.clip(wrapped, 0, max(n - 1, 0)))
        else:
            safe.append(E.where(inside, k, 0))
            valid.append(inside)
    got = getitem(x, tuple(safe))
    if mode == "clip" or not valid:
        return got
    return E.where(_placed(valid, key, len(shape_of(got))), got,
                   astype(_default_fill(aval_of(x).dtype, fill_value), aval_of(got).dtype))


def _placed(valid, key, ndim):
    """The combined in-range mask, with its (broadcast) dimensions where NumPy's advanced
    indexing puts them in the result and size-1 dimensions for the sliced axes."""
    combined = broadcast_operands("x.at[...].get", valid)
    mask = combined[0]
    for v in combined[1:]:
        mask = E.logical_and(mask, v)
    mask_shape = shape_of(mask)
    positions = [i for i, k in enumerate(key) if _is_advanced(k)]
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    # slices before the advanced block keep their dimensions in front of it when adjacent
    before = sum(1 for k in key[:positions[0]] if isinstance(k, slice)) if adjacent else 0
    after = ndim - before - len(mask_shape)
    return reshape(mask, (1,) * before + mask_shape + (1,) * after)


__all__ = ["indexed_get"]
