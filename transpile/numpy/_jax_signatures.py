"""The public signatures of jax.numpy (and NumPy) for functions whose implementations take
fewer arguments: `device=` and `out_sharding=` (one CPU or GPU device here: accepted, and
only None or a device is meaningful), `out=` (arrays are immutable: only None), `copy=` and
`order=` where they cannot change values, `dtype=` on the joining functions, `ndmin=`, and
JAX's argument order for `take`.

Each wrapper checks its extra arguments and calls the implementation; `transpile.numpy`
exports the wrappers.
"""
from __future__ import annotations

from . import _creation as C
from . import _cumulative as CU
from . import _elementwise as E
from . import _indexing as IX
from . import _manipulation as MA
from . import _matrices as MX
from . import _shape as SH
from . import _statistics as ST
from .. import dtypes
from ..base import operands as U
from ..core import aval_of


def _no_out(out, name):
    if out is not None:
        raise TypeError(f"{name}: 'out' is not supported (arrays are immutable); use the "
                        f"returned value")


def _order(order, name, allowed=("C", "F", "A", "K", None)):
    if order not in allowed:
        raise ValueError(f"{name}: order must be one of {allowed}, got {order!r}")


def _default(dtype):
    return float if dtype is None else dtype


# --- creation ---------------------------------------------------------------------------------

def array(object, dtype=None, copy=True, order="K", ndmin=0, *, device=None,  # noqa: A002
          out_sharding=None):
    _order(order, "array")
    out = C.array(object, dtype=dtype, copy=copy)
    ndim = len(aval_of(out).shape)
    if ndmin > ndim:
        out = U.reshape(out, (1,) * (ndmin - ndim) + aval_of(out).shape)
    return out


def asarray(a, dtype=None, order=None, *, copy=None, device=None, out_sharding=None):
    _order(order, "asarray")
    return C.asarray(a, dtype=dtype)


def astype(x, dtype, /, *, copy=False, device=None):
    return U.astype(x, dtype)


def zeros(shape, dtype=None, *, device=None, out_sharding=None):
    return C.zeros(shape, _default(dtype))


def ones(shape, dtype=None, *, device=None, out_sharding=None):
    return C.ones(shape, _default(dtype))


def empty(shape, dtype=None, *, device=None, out_sharding=None):
    return C.empty(shape, _default(dtype))


def full(shape, fill_value, dtype=None, *, device=None, out_sharding=None):
    return C.full(shape, fill_value, dtype)


def zeros_like(a, dtype=None, shape=None, *, device=None, out_sharding=None):
    return C.zeros_like(a, dtype, shape)


def ones_like(a, dtype=None, shape=None, *, device=None, out_sharding=None):
    return C.ones_like(a, dtype, shape)


def empty_like(prototype, dtype=None, shape=None, *, device=None, out_sharding=None):
    return C.empty_like(prototype, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None, *, device=None, out_sharding=None):
    return C.full_like(a, fill_value, dtype, shape)


def arange(start, stop=None, step=None, dtype=None, *, device=None, out_sharding=None):
    return C.arange(start, stop, step, dtype)


def eye(N, M=None, k=0, dtype=None, *, device=None):
    return C.eye(N, M, k, _default(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    from ._ranges import linspace as linspace_
    return linspace_(start, stop, num, endpoint, retstep, dtype, axis)


# --- joining, with dtype= -----------------------------------------------------------------------

def _cast_all(arrays, dtype):
    return list(arrays) if dtype is None else [U.astype(a, dtype) for a in arrays]


def concatenate(arrays, axis=0, dtype=None):
    return SH.concatenate(_cast_all(arrays, dtype), axis)


def stack(arrays, axis=0, out=None, dtype=None):
    _no_out(out, "stack")
    return SH.stack(_cast_all(arrays, dtype), axis)


def hstack(tup, dtype=None):
    return MA.hstack(_cast_all(tup, dtype))


def vstack(tup, dtype=None):
    return MA.vstack(_cast_all(tup, dtype))


def dstack(tup, dtype=None):
    return MA.dstack(_cast_all(tup, dtype))


# --- shapes -------------------------------------------------------------------------------------

def ravel(a, order="C", *, out_sharding=None):
    _order(order, "ravel", ("C", "F", "A", "K"))
    a = U.operand(a)
    if order == "F":
        return SH.ravel(SH.transpose(a))
    return SH.ravel(a)


def reshape(a, shape, order="C", *, copy=None, out_sharding=None):
    return U.reshape(a, shape, order)


def broadcast_to(array, shape, *, out_sharding=None):
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    x = U.operand(array)
    if dtypes.config.jax_rules():                # JAX's checks, in its words
        old = U.shape_of(x)
        if len(old) > len(shape):
            raise ValueError(f"Cannot broadcast to shape with fewer dimensions: "
                             f"arr_shape={old} shape={shape}")
        if any(o not in (1, n) for o, n in zip(old[::-1], shape[::-1])):
            raise ValueError(f"Incompatible shapes for broadcasting: {old} and requested "
                             f"shape {shape}")
    # a scalar of the requested shape () is returned as an array, as by NumPy and JAX
    return C.asarray(U.broadcast_to(x, shape))


def flip(m, axis=None):
    return SH.flip(m, axis)


# --- out= ---------------------------------------------------------------------------------------

def round(a, decimals=0, out=None):   # noqa: A001 (NumPy's name)
    _no_out(out, "round")
    return E.round(a, decimals)


around = round


def cumsum(a, axis=None, dtype=None, out=None):
    _no_out(out, "cumsum")
    return CU.cumsum(a, axis, dtype)


def cumprod(a, axis=None, dtype=None, out=None):
    _no_out(out, "cumprod")
    return CU.cumprod(a, axis, dtype)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    _no_out(out, "trace")
    return MX.trace(a, offset, axis1, axis2, dtype)


def outer(a, b, out=None):
    _no_out(out, "outer")
    return MX.outer(a, b)


def ptp(a, axis=None, out=None, keepdims=False):
    _no_out(out, "ptp")
    return ST.ptp(a, axis, keepdims)


# --- indexing -----------------------------------------------------------------------------------

def take(a, indices, axis=None, out=None, mode=None, unique_indices=False,
         indices_are_sorted=False, fill_value=None):
    """JAX's (and NumPy's) argument order: out before mode. The index hints change nothing
    here."""
    _no_out(out, "take")
    return IX.take(a, indices, axis=axis, mode=mode, fill_value=fill_value)


def take_along_axis(arr, indices, axis=-1, mode=None, fill_value=None, *,
                    wrap_negative_indices=None):
    """With wrap_negative_indices=False, negative indices are out of range (filled or
    clamped per mode) instead of counting from the end."""
    if wrap_negative_indices is False:
        indices = U.operand(indices)
        n = aval_of(U.operand(arr)).shape[axis] if axis is not None else \
            aval_of(U.reshape(U.operand(arr), (-1,))).shape[0]
        if mode == "clip":
            indices = E.maximum(indices, 0)
        else:
            indices = E.where(E.less(indices, 0), n, indices)   # past the end: filled
    return IX.take_along_axis(arr, indices, axis, mode=mode, fill_value=fill_value)
