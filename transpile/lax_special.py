"""jax.lax's special functions (erf, erfc, erf_inv, lgamma, digamma) and
bitcast_convert_type.

As in JAX, the special functions take float32 or float64 operands only (an integer is a
TypeError); `transpile.scipy.special` wraps them with SciPy's promotion of integers to float.
"""
from __future__ import annotations

from . import dtypes
from . import primitives as P
from .core import aval_of, bind
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
    """Reinterpret the bits of each element as `new_dtype` (of the same width)."""
    x, dt = operand(operand_), dtypes.canonicalize(new_dtype)
    if aval_of(x).dtype == dt:       # the same bits: the value itself, strongly typed (JAX's)
        return astype(x, dt)
    return bind(P.bitcast_convert_type, x, new_dtype=dt)


__all__ = ["bitcast_convert_type", "digamma", "erf", "erf_inv", "erfc", "lgamma"]
