"""Dtype introspection with jax.numpy's names: `dtype`, `finfo`, `iinfo`, `issubdtype`,
`result_type`, `promote_types`, `can_cast`, `isdtype`, and NumPy's abstract scalar types
(`floating`, `integer`, ...) that `issubdtype` tests against.

Each accepts what JAX's does: a dtype, a dtype name, a scalar type (`tnp.float32`, `np.int8`,
`float`), an array, a traced value. Promotion is the one transpile's operations apply: NumPy 2
/ NEP 50 by default (`promote_types(int32, float32)` is float64), JAX's lattice under JAX's
dtype rules (float32 there).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes, dtypes_jax
from ..core import Tracer, aval_of, is_python_scalar
from ._scalar_types import _ScalarMeta

# The abstract scalar types are NumPy's own, as in JAX (`jnp.floating is np.floating`).
generic, number, inexact, floating, complexfloating = (np.generic, np.number, np.inexact,
                                                       np.floating, np.complexfloating)
integer, signedinteger, unsignedinteger = np.integer, np.signedinteger, np.unsignedinteger

dtype = np.dtype


def _dtype_of(x, what: str) -> np.dtype:
    """The dtype `x` names or holds; a Python scalar *value* gives its default dtype."""
    if isinstance(x, Tracer) or isinstance(x, (np.ndarray, np.generic)) or is_python_scalar(x):
        return aval_of(x).dtype
    try:
        return dtypes.canonicalize(x, what=what)
    except dtypes.DTypeError:
        raise TypeError(f"{what}: {x!r} is neither a dtype nor an array; pass e.g. "
                        f"tnp.float32, 'int8' or an array") from None


def _numpy_type(x):
    """NumPy's scalar type for a transpile scalar type; anything else unchanged."""
    return x.dtype.type if isinstance(x, _ScalarMeta) else x


def _is_bfloat16(x) -> bool:
    try:
        return dtypes.is_bfloat16(np.dtype(_numpy_type(x)))
    except TypeError:
        return False


def finfo(dtype_or_array):
    """Machine limits of a floating (or complex: its parts') dtype, NumPy's `finfo`."""
    dt = _dtype_of(dtype_or_array, "finfo")
    if not dtypes.is_inexact(dt):
        raise ValueError(f"finfo: {dt} is not a floating-point dtype; use tnp.iinfo for "
                         "integer dtypes")
    if dtypes.is_bfloat16(dt):             # NumPy has no finfo for it; ml_dtypes (loaded) does
        import ml_dtypes
        return ml_dtypes.finfo(dt)
    return np.finfo(dt)


def iinfo(int_type):
    """Machine limits of an integer dtype, NumPy's `iinfo`."""
    dt = _dtype_of(int_type, "iinfo")
    if not dtypes.is_int(dt):
        raise ValueError(f"iinfo: {dt} is not an integer dtype; use tnp.finfo for "
                         "floating-point dtypes")
    return np.iinfo(dt)


def issubdtype(arg1, arg2) -> bool:
    """Whether `arg1` is `arg2` or below it in NumPy's type hierarchy
    (`issubdtype(tnp.float32, tnp.floating)`)."""
    if _is_bfloat16(arg1):     # NumPy files it under void; JAX, as here, under floating
        return _numpy_type(arg2) in (np.floating, np.inexact, np.number, np.generic) or \
            _is_bfloat16(arg2)
    return bool(np.issubdtype(_numpy_type(arg1), _numpy_type(arg2)))


def isdtype(dtype, kind) -> bool:
    """The array API's `isdtype`: `kind` is a dtype, one of 'bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric', or a
    tuple of those."""
    kinds = tuple(_numpy_type(k) for k in kind) if isinstance(kind, tuple) else \
        _numpy_type(kind)
    if isinstance(kinds, type) and issubclass(kinds, np.generic):
        kinds = np.dtype(kinds)
    if isinstance(kinds, tuple):
        kinds = tuple(np.dtype(k) if isinstance(k, type) else k for k in kinds)
    dt = _dtype_of(dtype, "isdtype")
    if dtypes.is_bfloat16(dt):     # NumPy refuses dtypes it does not know (ml_dtypes')
        return any(_bfloat16_is(k) for k in (kinds if isinstance(kinds, tuple) else (kinds,)))
    return bool(np.isdtype(dt, kinds))


# The array API's kinds that bfloat16 (a real floating dtype, as in JAX) belongs to.
_BFLOAT16_KINDS = ("real floating", "numeric")


def _bfloat16_is(kind) -> bool:
    if isinstance(kind, str):
        return kind in _BFLOAT16_KINDS
    return _is_bfloat16(kind)


def promote_types(a, b) -> np.dtype:
    """The dtype transpile's operations give when they join two strongly typed operands of
    these dtypes: NumPy's promotion, or JAX's lattice under JAX's rules (there
    `promote_types(float16, bfloat16)` is float32, which NumPy refuses)."""
    a, b = _dtype_of(a, "promote_types"), _dtype_of(b, "promote_types")
    if dtypes.config.jax_rules():
        return dtypes_jax.join(a, b)
    return dtypes.canonicalize(np.promote_types(a, b))


def can_cast(from_, to, casting="safe") -> bool:
    """NumPy's `can_cast` between dtypes (or an array's dtype and a dtype)."""
    return bool(np.can_cast(_dtype_of(from_, "can_cast"), _dtype_of(to, "can_cast"),
                            casting=casting))


def _weak(x) -> bool:
    """Python scalars and weakly typed traced values promote as Python scalars (NEP 50)."""
    if is_python_scalar(x):
        return type(x) is not bool
    return isinstance(x, Tracer) and aval_of(x).weak_type


def result_type(*args) -> np.dtype:
    """The dtype an operation on `args` (arrays, scalars, dtypes) gives: NEP 50, as
    transpile's operators promote (Python scalars are weak)."""
    if not args:
        raise ValueError("result_type: at least one array or dtype is required")
    found = [_dtype_of(x, "result_type") for x in args]
    return dtypes.result_type(found, [_weak(x) for x in args])


__all__ = ["can_cast", "complexfloating", "dtype", "finfo", "floating", "generic", "iinfo",
           "inexact", "integer", "isdtype", "issubdtype", "number", "promote_types",
           "result_type", "signedinteger", "unsignedinteger"]
