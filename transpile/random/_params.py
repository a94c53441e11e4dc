"""Argument checks shared by the distribution samplers, worded as JAX's: the result dtype
(float or integer, JAX's default when None) and the result shape, which the parameters'
shapes must broadcast to."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from ..numpy import _elementwise as E
from ..numpy._creation import asarray
from ..base.operands import astype, broadcast_to, static_shape
from ._samplers import F32, I32, _default


def float_dtype(dtype, what: str):
    dt = _default(F32, "f") if dtype is None or dtype is float else dtypes.canonicalize(dtype)
    if not dtypes.is_float(dt):
        raise ValueError(f"random.{what}: the dtype argument must be a float dtype, got {dt}")
    return dt


def int_dtype(dtype, what: str):
    dt = _default(I32, "i") if dtype is None or dtype is int else dtypes.canonicalize(dtype)
    if not dtypes.is_int(dt):
        raise ValueError(f"random.{what}: the dtype argument must be an integer dtype, "
                         f"got {dt}")
    return dt


def param(x, dt):
    """A distribution parameter (number, list or array) converted to dtype `dt`."""
    return astype(asarray(x), dt)


def reciprocal(x):
    """1 / x as JAX computes it: in Python (double, then weak) for a Python number, else as an
    array operation in x's dtype."""
    return 1 / x if isinstance(x, (int, float)) else E.divide(1, asarray(x))


def result_shape(what: str, shape, **params):
    """`shape` (None: the parameters' broadcast shape), checked to be what the parameters
    broadcast to; a mismatch names the parameters and their shapes."""
    shapes = {name: aval_of(asarray(p)).shape for name, p in params.items()}
    try:
        joint = np.broadcast_shapes(*shapes.values())
    except ValueError:
        raise ValueError(f"random.{what}: the parameter shapes {_listed(shapes)} do not "
                         f"broadcast together") from None
    if shape is None:
        return joint
    shape = static_shape(shape, "shape")
    try:
        full = np.broadcast_shapes(shape, joint)
    except ValueError:
        full = None
    if full != shape:
        raise ValueError(f"random.{what}: the parameter shapes {_listed(shapes)} must "
                         f"broadcast to the shape argument {shape}; pass shape=None or a "
                         f"shape they broadcast to")
    return shape


def _listed(shapes) -> str:
    return ", ".join(f"{name} {s}" for name, s in shapes.items())


def params_at(dt, shape, *params):
    """The parameters converted to `dt` and broadcast to `shape`."""
    return [broadcast_to(param(p, dt), shape) for p in params]
