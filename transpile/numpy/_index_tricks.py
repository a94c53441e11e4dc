"""Index construction: `ix_`, `ravel_multi_index`, `mask_indices`, the index-expression
helpers `s_`/`index_exp`, and the concatenating indexers `r_`/`c_`."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ..base.operands import astype, operand, reshape, shape_of


def ix_(*args):
    """Open-mesh index arrays: the k-th of n 1-d sequences reshaped to length 1 on every
    axis but the k-th."""
    out = []
    for k, a in enumerate(args):
        a = operand(a)
        if len(shape_of(a)) != 1:
            raise ValueError(f"Arguments to ix_ must be 1-dimensional, got shape "
                             f"{shape_of(a)}")
        if aval_of(a).dtype == dtypes.bool_:
            raise TypeError("Boolean arguments to ix_ are not supported (their true entries "
                            "fix the shape); pass tnp.nonzero(mask)[0]")
        shape = [1] * len(args)
        shape[k] = shape_of(a)[0]
        out.append(reshape(a, tuple(shape)))
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C", *, dtype=None):
    """Flat positions of the coordinate arrays in an array of shape `dims`."""
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"ravel_multi_index: {len(multi_index)} index arrays for "
                         f"{len(dims)} dimensions")
    indices = [operand(i) for i in multi_index]
    from ._dtype_api import result_type
    if dtype is not None:
        dt = dtypes.canonicalize(dtype)
    else:   # NumPy's intp; JAX's: the indices' own promoted dtype (int8 stays int8)
        dt = result_type(*indices) if dtypes.config.jax_rules() else result_type(int, *indices)
    if not dtypes.is_int(dt):
        raise ValueError(f"dtype={dt} is not an integer type.")
    for i in indices:
        if not dtypes.is_int(aval_of(i).dtype):
            raise TypeError("only int indices permitted")
    if mode == "raise":
        if any(isinstance(i, Tracer) for i in indices):
            raise TypeError("ravel_multi_index: mode='raise' needs concrete indices (it "
                            "checks them); under jit use mode='wrap' or mode='clip'")
        if any(((np.asarray(i) < 0) | (np.asarray(i) >= d)).any()
               for i, d in zip(indices, dims)):
            raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        indices = [E.clip(i, 0, d - 1) for i, d in zip(indices, dims)]
    elif mode == "wrap":
        indices = [E.remainder(i, d) for i, d in zip(indices, dims)]
    elif mode != "ignore":      # JAX's: the caller promises in-range indices
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip' or "
                         "'ignore'")
    if order == "F":
        indices, dims = indices[::-1], dims[::-1]
    elif order != "C":
        raise ValueError(f"invalid order={order!r}. Expected 'C' or 'F'")
    result = astype(0, dt)
    stride = 1
    for i, d in zip(indices[::-1], dims[::-1]):
        result = E.add(result, E.multiply(astype(i, dt), stride))
        stride *= d
    return result


def mask_indices(n, mask_func, k=0, *, size=None):
    """The indices where mask_func(ones((n, n)), k) is non-zero (e.g. tnp.triu)."""
    from ._creation import ones
    from ._sorting import nonzero
    return nonzero(mask_func(ones((n, n), dtype=dtypes.default_int()), k), size=size)


class _IndexExpression:
    """s_[...] and index_exp[...]: the index itself (a tuple for index_exp)."""

    def __init__(self, as_tuple: bool):
        self.as_tuple = as_tuple

    def __getitem__(self, item):
        if self.as_tuple and not isinstance(item, tuple):
            return (item,)
        return item


s_ = _IndexExpression(as_tuple=False)
index_exp = _IndexExpression(as_tuple=True)


def _grid_from_slice(s):
    from ._creation import arange
    from ._ranges import linspace
    start, stop, step = s.start or 0, s.stop, s.step or 1
    for part in (start, stop, step):
        if isinstance(part, Tracer):
            raise TypeError("r_/c_: slice bounds must be static")
    if isinstance(step, complex) or np.iscomplexobj(step):
        return linspace(start, stop, int(abs(step)))
    return arange(start, stop, step)


class _AxisConcatenator:
    """NumPy's r_/c_: slices become ranges, everything is made at least `ndmin`-d and
    joined along `axis`; a leading string directive ('axis,ndmin,trans1d', 'r', 'c')
    overrides the defaults."""

    def __init__(self, axis, ndmin, trans1d):
        self.defaults = (axis, ndmin, trans1d)

    def __getitem__(self, key):
        from ._creation import array
        from ._shape import concatenate, expand_dims, transpose
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.defaults
        matrix = -1
        if key and isinstance(key[0], str):
            axis, ndmin, trans1d, matrix = self._directive(key[0], axis, ndmin, trans1d)
            key = key[1:]
        parts = []
        for item in key:
            if isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            if isinstance(item, slice):
                part, item_ndim = _grid_from_slice(item), 0
            else:
                part = operand(item) if isinstance(item, Tracer) else array(item)
                item_ndim = len(shape_of(part))
            if len(shape_of(part)) < ndmin:
                part = reshape(part, (1,) * (ndmin - len(shape_of(part))) + shape_of(part))
            if trans1d != -1 and ndmin - item_ndim > 0:
                order = tuple(range(ndmin))
                shifts = ndmin - abs(ndmin + trans1d + 1) % ndmin
                part = transpose(part, order[shifts:] + order[:shifts])
            parts.append(part)
        result = concatenate(parts, axis=axis)
        if matrix != -1 and len(shape_of(result)) == 1:
            result = expand_dims(result, matrix)
        return result

    @staticmethod
    def _directive(text, axis, ndmin, trans1d):
        if text == "r":
            return axis, ndmin, trans1d, 0
        if text == "c":
            return axis, ndmin, trans1d, 1
        fields = text.split(",")
        values = [axis, ndmin, trans1d]
        try:
            for i, field in enumerate(fields[:3]):
                values[i] = int(field)
        except ValueError:
            raise ValueError(f"could not understand directive {text!r}") from None
        return values[0], values[1], values[2], -1

    def __len__(self):
        return 0


r_ = _AxisConcatenator(0, 1, -1)
c_ = _AxisConcatenator(-1, 2, 0)
