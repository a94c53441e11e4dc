"""Promotion to an inexact dtype, as JAX's `promote_args_inexact` (for jax.nn, jax.scipy):
operands keep a floating or complex common dtype; integers and bools take the default float
(float64 under transpile's NumPy rules; JAX's is float32 without x64)."""
from __future__ import annotations

from .. import dtypes
from ..core import aval_of
from ._creation import asarray
from ._dtype_api import result_type
from ..base.operands import operand

DEFAULT_FLOAT = dtypes.DEFAULT_FOR_PYTHON_TYPE[float]


def as_inexact(x):
    """x as an array of a floating (or complex) dtype."""
    x = operand(x)
    return x if dtypes.is_inexact(aval_of(x).dtype) else asarray(x, dtype=DEFAULT_FLOAT)


def promote_inexact(*args):
    """The arguments as arrays of their common dtype, made floating if it is not."""
    args = [operand(a) for a in args]
    common = result_type(*args)
    if not dtypes.is_inexact(common):
        common = DEFAULT_FLOAT
    return [asarray(a, dtype=common) for a in args]
