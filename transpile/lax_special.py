"""jax.lax's special functions (erf, erfc, erf_inv, lgamma, digamma) and
bitcast_convert_type.

As in JAX, the special functions take float32 or float64 operands only (an integer is a
TypeError); `transpile.scipy.special` wraps them with SciPy's promotion of integers to float.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from . import primitives as P
from .core import aval_of, bind
from .numpy import _elementwise as E
from .base.operands import astype, operand


def _special(name: str):
    def fn(x):
        return bind(P.get(name), operand(x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name}, as jax.lax.{name} (float operands only)."
    return fn


erf, erfc, erf_inv, lgamma, digamma = (_special(n) for n in ("erf", "erfc", "erf_inv",
                                                            "lgamma", "digamma"))


def bitcast_convert_type(operand_, new_dtype):
    """Reinterpret the bits of each element as `new_dtype`. To a narrower type, each
    element becomes a trailing axis of the narrow ones it holds (the lowest bits first, as
    memory holds them on a little-endian machine); to a wider type, the trailing axis
    (of that many narrow elements) is joined into one."""
    x, new = operand(operand_), dtypes.canonicalize(new_dtype)
    old = aval_of(x).dtype
    if old == new:       # the same bits: the value itself, strongly typed (JAX's)
        return astype(x, new)
    if old.itemsize == new.itemsize:
        return bind(P.bitcast_convert_type, x, new_dtype=new)
    if dtypes.is_complex(old) or dtypes.is_complex(new) or old == dtypes.bool_ \
            or new == dtypes.bool_:
        raise TypeError(f"bitcast_convert_type: cannot change the width from {old} to {new}; "
                        "between widths only integer and float types are reinterpreted")
    if old.itemsize > new.itemsize:
        return _split_bits(x, old, new)
    return _join_bits(x, old, new)


def _unsigned(dtype):
    return np.dtype(f"uint{8 * dtype.itemsize}")


def _split_bits(x, old, new):
    wide, narrow = _unsigned(old), _unsigned(new)
    bits = bind(P.bitcast_convert_type, x, new_dtype=wide)
    width = 8 * new.itemsize
    # converting to the narrow unsigned type keeps the low bits (modular, as in C)
    pieces = [astype(E.right_shift(bits, wide.type(width * i)), narrow)
              for i in range(old.itemsize // new.itemsize)]
    from .numpy._shape import stack
    return bind(P.bitcast_convert_type, stack(pieces, axis=-1), new_dtype=new)


def _join_bits(x, old, new):
    shape, ratio = aval_of(x).shape, new.itemsize // old.itemsize
    if not shape or shape[-1] != ratio:
        raise ValueError(f"Attempting to convert array of shape {shape} from {old} of size "
                         f"{8 * old.itemsize} bits to {new} of size {8 * new.itemsize}, bits "
                         f"but {shape[-1] if shape else 1} * {8 * old.itemsize} != "
                         f"{8 * new.itemsize}: the last axis must hold {ratio} elements")
    wide, narrow = _unsigned(new), _unsigned(old)
    bits = bind(P.bitcast_convert_type, x, new_dtype=narrow)
    joined = None
    for i in range(ratio):
        part = E.left_shift(astype(bits[..., i], wide), wide.type(8 * old.itemsize * i))
        joined = part if joined is None else E.bitwise_or(joined, part)
    return bind(P.bitcast_convert_type, joined, new_dtype=new)


__all__ = ["bitcast_convert_type", "digamma", "erf", "erf_inv", "erfc", "lgamma"]
