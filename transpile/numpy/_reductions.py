"""Reductions with NumPy's axis/keepdims conventions and result dtypes."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind, current_trace
from ..base.operands import (as_bool, astype, broadcast_to, normalize_axes, normalize_axis, operand,
                             reshape)


def reduction_operand(a, name: str):
    """`a` as an operand of the reduction `name`. Under jit a list or tuple is refused, as
    jax.numpy refuses it (with JAX's message: a Python list of traced values is not an array
    to reduce; tnp.asarray or tnp.stack makes one). Eagerly NumPy's conversion applies."""
    if isinstance(a, (list, tuple)) and current_trace() is not None:
        raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(a)} at "
                        f"position 0.")
    return operand(a)


def _keep(result, shape, axes, keepdims):
    if not keepdims:
        return result
    kept = tuple(1 if i in axes else d for i, d in enumerate(shape))
    return reshape(result, kept)


def _reduce(prim, x, axis, keepdims):
    shape = aval_of(x).shape
    axes = normalize_axes(axis, len(shape))
    out = bind(prim, x, axes=axes) if axes else x
    return _keep(out, shape, axes, keepdims)


def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy sums small integers (and booleans) in the platform integer."""
    return np.sum(np.zeros(0, dt)).dtype


def _masked(a, where, fill):
    """`where=`: the elements outside the mask count as the reduction's identity."""
    if where is None or where is True:
        return a
    from ._elementwise import where as select
    return select(broadcast_to(as_bool(where), aval_of(a).shape), a, fill)


def check_where(where, name: str) -> None:
    """JAX's check: a `where=` mask is boolean (NumPy refuses other dtypes too, as a cast)."""
    if where is None or isinstance(where, (bool, np.bool_)):
        return
    dt = getattr(where, "dtype", None)
    dt = np.asarray(where).dtype if dt is None else np.dtype(dt)
    if dt != np.bool_:
        raise ValueError(f"jnp.{name}: where must be None or a boolean array, got dtype {dt}; "
                         "compare it, e.g. where=mask != 0")


def check_initial(initial) -> None:
    if initial is not None and np.ndim(initial) != 0:
        raise ValueError(f"initial value must be a scalar. Got array of shape "
                         f"{np.shape(initial)}")


def _with_initial(result, initial, combine):
    if initial is None:
        return result
    return astype(combine(result, initial), aval_of(result).dtype)


def _no_out(out, name):
    if out is not None:
        raise TypeError(f"{name}: out= is not supported (arrays are immutable); use the "
                        f"returned value")


def _accumulator(a, dtype, promote_integers):
    """NumPy's (and JAX's default) accumulator dtype; with promote_integers=False, JAX's
    choice of the integer operand's own dtype."""
    if dtype is not None:
        return dtypes.canonicalize(dtype)
    dt = aval_of(a).dtype
    if not promote_integers and dtypes.is_int(dt):
        return dt
    return _sum_dtype(dt)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None, where=None, *, out=None,
        promote_integers=True):
    from ._elementwise import add
    _no_out(out, "sum")
    check_where(where, "sum")
    check_initial(initial)
    a = reduction_operand(a, "sum")
    dt = _accumulator(a, dtype, promote_integers)
    a = _masked(astype(a, dt), where, False if dt == dtypes.bool_ else 0)
    return _with_initial(_reduce(P.reduce_sum, a, axis, keepdims), initial, add)


def prod(a, axis=None, dtype=None, keepdims=False, initial=None, where=None, *, out=None,
         promote_integers=True):
    from ._elementwise import multiply
    _no_out(out, "prod")
    check_where(where, "prod")
    check_initial(initial)
    a = reduction_operand(a, "prod")
    dt = _accumulator(a, dtype, promote_integers)
    a = _masked(astype(a, dt), where, True if dt == dtypes.bool_ else 1)
    return _with_initial(_reduce(P.reduce_prod, a, axis, keepdims), initial, multiply)


def mean(a, axis=None, dtype=None, keepdims=False, *, where=None, out=None):
    _no_out(out, "mean")
    check_where(where, "mean")
    a = reduction_operand(a, "mean")
    aval = aval_of(a)
    if dtype is not None:
        dt = dtypes.canonicalize(dtype)
    else:
        dt = dtypes.float_for_integers(aval.dtype)
    if dtype is None and dtypes.is_half(dt):      # NumPy and JAX: in float32, rounded once
        return astype(mean(astype(a, dtypes.float32), axis, None, keepdims, where=where), dt)
    from ._elementwise import divide
    total = sum(astype(a, dt), axis=axis, keepdims=keepdims, where=where)
    if where is not None and where is not True:
        # The mask converted, not ones selected by it: an array of ones would be a constant
        # as large as `a`, read from memory on every call (azimint_naive: 3.2 MB a ring).
        mask = astype(broadcast_to(as_bool(where), aval.shape), dt)
        count = sum(mask, axis=axis, keepdims=keepdims)
        return divide(total, count)      # an empty selection gives NaN, as NumPy
    axes = normalize_axes(axis, aval.ndim)
    count = math.prod(aval.shape[i] for i in axes)
    result = divide(total, float(count))   # count 0 gives NaN, as NumPy
    # An integer dtype= asks for the mean in that dtype (NumPy divides into it unsafely,
    # JAX converts the quotient): truncated towards zero.
    return result if aval_of(result).dtype == dt else astype(result, dt)


def _extreme(prim, combine_name, a, axis, keepdims, initial, where):
    from . import _elementwise as E
    name = "maximum" if prim is P.reduce_max else "minimum"
    a = reduction_operand(a, "max" if prim is P.reduce_max else "min")
    if where is not None and where is not True:
        if initial is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                             "use a where mask one has to specify 'initial'")
        a = _masked(a, where, astype(initial, aval_of(a).dtype))
    combine = getattr(E, combine_name)
    shape = aval_of(a).shape
    if initial is not None and 0 in [shape[d] for d in normalize_axes(axis, len(shape))]:
        from ._creation import full
        axes = normalize_axes(axis, len(shape))
        out = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdims else \
            tuple(n for d, n in enumerate(shape) if d not in axes)
        return full(out, initial, aval_of(a).dtype)
    return _with_initial(_reduce(prim, a, axis, keepdims), initial, combine)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    if out is not None:
        raise TypeError("max: out= is not supported (arrays are immutable)")
    check_where(where, "max")
    check_initial(initial)
    return _extreme(P.reduce_max, "maximum", a, axis, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    if out is not None:
        raise TypeError("min: out= is not supported (arrays are immutable)")
    check_where(where, "min")
    check_initial(initial)
    return _extreme(P.reduce_min, "minimum", a, axis, keepdims, initial, where)


amax, amin = max, min


def all(a, axis=None, keepdims=False, *, where=None):
    check_where(where, "all")
    a = reduction_operand(a, "all")
    return _reduce(P.reduce_and, _masked(as_bool(a), where, True), axis, keepdims)


def any(a, axis=None, keepdims=False, *, where=None):
    check_where(where, "any")
    a = reduction_operand(a, "any")
    return _reduce(P.reduce_or, _masked(as_bool(a), where, False), axis, keepdims)


def _arg_reduce(prim, a, axis, keepdims):
    a = reduction_operand(a, "argmax" if prim is P.argmax else "argmin")
    shape = aval_of(a).shape
    if axis is None:
        flat = reshape(a, (-1,)) if len(shape) != 1 else a
        out = bind(prim, flat, axis=0, index_dtype=dtypes.int64)
        return reshape(out, (1,) * len(shape)) if keepdims else out
    ax = normalize_axis(axis, len(shape))
    out = bind(prim, a, axis=ax, index_dtype=dtypes.int64)
    return _keep(out, shape, (ax,), keepdims)


def argmax(a, axis=None, keepdims=False):
    return _arg_reduce(P.argmax, a, axis, keepdims)


def argmin(a, axis=None, keepdims=False):
    return _arg_reduce(P.argmin, a, axis, keepdims)
