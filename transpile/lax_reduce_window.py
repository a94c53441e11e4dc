"""jax.lax.reduce_window for the reductions pooling layers use (max, min, add, mul).

No primitive of its own: the operand is padded with the initial value, and each offset in
the window contributes one strided slice of it, combined elementwise. Fusion turns the
slices into one loop over the output that reads every window's elements from the padded
input (a 3 x 3 max pool is one pass with nine loads per output), which is the direct
kernel; there is nothing for a helper to add.
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from .core import aval_of
from .lax_conv import padtype_to_pads
from . import numpy as tnp
from .numpy import _elementwise as E
from .numpy._manipulation import pad
from .base.operands import astype, operand

from .lax_ops import mul as _lax_mul  # noqa: E402

__all__ = ["reduce_window"]

# The binary functions reduce_window recognises, by identity, and the value each ignores.
_COMBINERS = {E.maximum: ("max", -np.inf), E.minimum: ("min", np.inf), E.add: ("add", 0),
              E.multiply: ("mul", 1), operator.add: ("add", 0), operator.mul: ("mul", 1),
              max: ("max", -np.inf), min: ("min", np.inf),
              tnp.maximum: ("max", -np.inf), tnp.minimum: ("min", np.inf),
              tnp.add: ("add", 0), tnp.multiply: ("mul", 1)}
_COMBINERS[_lax_mul] = ("mul", 1)      # lax.mul: multiply with JAX's out_dtype=


def _identity_of(kind, dtype):
    """The identity of the combination in the operand's dtype (min/max of an integer type
    are its limits)."""
    neutral = dict((k, v) for k, v in _COMBINERS.values())[kind]
    if np.issubdtype(dtype, np.integer) and kind in ("max", "min"):
        info = np.iinfo(dtype)
        return info.min if kind == "max" else info.max
    if dtype == np.bool_ and kind in ("max", "min"):
        return kind == "min"
    return neutral


def _combine(kind):
    return {"max": E.maximum, "min": E.minimum, "add": E.add, "mul": E.multiply}[kind]


def _per_axis(values, ndim, what, default=1):
    if values is None:
        return (default,) * ndim
    values = tuple(operator.index(v) for v in values)
    if len(values) != ndim or any(v < 1 for v in values):
        raise ValueError(f"reduce_window: {what} needs {ndim} positive integers (one per "
                         f"axis of the operand), got {values}")
    return values


def reduce_window(operand_, init_value, computation, window_dimensions, window_strides,
                  padding, base_dilation=None, window_dilation=None):
    x = operand(operand_)
    dtype, ndim = aval_of(x).dtype, aval_of(x).ndim
    # (transpile.lax's eager wrapper of lax.mul keeps the function as __wrapped__)
    kind = _COMBINERS.get(getattr(computation, "__wrapped__", computation), (None,))[0]
    if kind is None:
        raise NotImplementedError(
            f"reduce_window: computation {getattr(computation, '__name__', computation)!r} "
            "is not supported; use lax.max, lax.min, lax.add or lax.mul")
    window = _per_axis(window_dimensions, ndim, "window_dimensions")
    strides = _per_axis(window_strides, ndim, "window_strides")
    dilation = _per_axis(window_dilation, ndim, "window_dilation")
    if any(d != 1 for d in _per_axis(base_dilation, ndim, "base_dilation")):
        raise NotImplementedError("reduce_window: base_dilation other than 1 is not "
                                  "supported")
    effective = [(w - 1) * d + 1 for w, d in zip(window, dilation)]
    if isinstance(padding, str):
        padding = padtype_to_pads(aval_of(x).shape, effective, strides, padding)
    padding = [(operator.index(lo), operator.index(hi)) for lo, hi in padding]
    if len(padding) != ndim:
        raise ValueError(f"reduce_window: padding needs {ndim} (low, high) pairs, got "
                         f"{padding}")
    padded = _pad_with(x, padding, init_value, dtype)
    sizes = aval_of(padded).shape
    out_shape = [max(0, (s - e) // st + 1) for s, e, st in zip(sizes, effective, strides)]
    if 0 in out_shape:
        return np.zeros(out_shape, dtype)
    result = None
    for offset in itertools.product(*(range(w) for w in window)):
        index = tuple(slice(o * d, o * d + (n - 1) * st + 1, st)
                      for o, d, n, st in zip(offset, dilation, out_shape, strides))
        piece = padded[index]
        result = piece if result is None else _combine(kind)(result, piece)
    if not _is_identity(init_value, kind, dtype):
        result = _combine(kind)(result, astype(operand(init_value), dtype))
    return astype(result, dtype)


def _is_identity(value, kind, dtype) -> bool:
    if hasattr(value, "aval"):
        return False
    return bool(np.asarray(value, dtype) == np.asarray(_identity_of(kind, dtype), dtype))


def _pad_with(x, padding, init_value, dtype):
    """Pad (or, for negative widths, crop) with the initial value, in the operand's dtype."""
    crop = tuple(slice(-min(lo, 0), aval_of(x).shape[i] + min(hi, 0))
                 for i, (lo, hi) in enumerate(padding))
    if any(lo < 0 or hi < 0 for lo, hi in padding):
        x = x[crop]
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if not any(lo or hi for lo, hi in widths):
        return x
    fill = init_value if hasattr(init_value, "aval") else np.asarray(init_value, dtype)
    return pad(x, widths, constant_values=fill)


