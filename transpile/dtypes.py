"""The dtype lattice: which dtypes exist, how they print, and how they promote.

Promotion is NumPy 2's (NEP 50). Rather than re-deriving NumPy's tables we ask
NumPy itself: ``ufunc.resolve_dtypes`` returns the loop a ufunc would pick for
given operand dtypes, with Python scalar *types* standing in for weakly typed
values. That keeps us bit-for-bit aligned with NumPy's result dtypes.
"""
from __future__ import annotations

import functools

import numpy as np

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float32, float64 = np.dtype(np.float32), np.dtype(np.float64)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

SUPPORTED = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
             complex64, complex128)
SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
INTEGER = SIGNED + UNSIGNED
FLOATING = (float32, float64)
COMPLEX = (complex64, complex128)
# The real dtype of each complex one's parts (and of its .real, .imag, abs, angle).
COMPLEX_PART = {complex64: float32, complex128: float64}

# The dtype a weakly typed Python scalar takes when nothing stronger is around.
DEFAULT_FOR_PYTHON_TYPE = {bool: bool_, int: int64, float: float64, complex: complex128}

SHORT_NAME = {bool_: "bool", int8: "i8", int16: "i16", int32: "i32", int64: "i64",
              uint8: "u8", uint16: "u16", uint32: "u32", uint64: "u64",
              float32: "f32", float64: "f64", complex64: "c64", complex128: "c128"}


class DTypeError(TypeError):
    """A dtype transpile cannot represent, or an op/dtype pairing NumPy rejects."""


def canonicalize(dtype, *, what: str = "dtype") -> np.dtype:
    """The supported ``np.dtype`` for anything NumPy accepts as a dtype, or a clear error."""
    if dtype is bool or dtype is int or dtype is float or dtype is complex:
        return DEFAULT_FOR_PYTHON_TYPE[dtype]
    try:
        dt = np.dtype(dtype)
    except TypeError as err:
        raise DTypeError(f"{what} {dtype!r} is not a dtype: {err}") from None
    if not dt.isnative:          # byte-swapped data is converted on the way in
        dt = dt.newbyteorder("=")
    if dt not in SUPPORTED:
        raise DTypeError(
            f"{what} {dt} is not supported by transpile; supported dtypes are "
            + ", ".join(str(d) for d in SUPPORTED))
    return dt


def short_name(dtype: np.dtype) -> str:
    return SHORT_NAME[np.dtype(dtype)]


def python_scalar_type(dtype: np.dtype) -> type:
    """The Python type whose NEP 50 'weak' behaviour a weakly typed value of `dtype` has."""
    if dtype == bool_:
        return bool
    return {"f": float, "c": complex}.get(dtype.kind, int)


def _operand_key(dtype: np.dtype, weak: bool):
    return python_scalar_type(dtype) if weak else np.dtype(dtype)


@functools.lru_cache(maxsize=4096)
def _resolve(ufunc_name: str, operands: tuple) -> tuple:
    ufunc = getattr(np._core.umath, ufunc_name)    # also ufuncs NumPy wraps (clip)
    try:
        return ufunc.resolve_dtypes(operands + (None,) * ufunc.nout)
    except (TypeError, np.exceptions.DTypePromotionError) as err:
        names = ", ".join(getattr(o, "__name__", str(o)) for o in operands)
        raise DTypeError(f"'{ufunc_name}' does not accept operands of dtype ({names}): {err}") from None


def ufunc_loop(ufunc_name: str, dtypes, weaks) -> tuple[tuple[np.dtype, ...], np.dtype]:
    """(compute dtypes of the inputs, result dtype) NumPy uses for this ufunc."""
    # With no strongly typed operand, the weak ones take their default dtypes (int64,
    # float64); NumPy would otherwise pick an object loop for two Python ints.
    all_weak = all(weaks)
    operands = tuple(np.dtype(d) if all_weak else _operand_key(d, w)
                     for d, w in zip(dtypes, weaks))
    loop = _resolve(ufunc_name, operands)
    ins, out = tuple(loop[:len(operands)]), loop[len(operands)]
    for dt in loop:
        if dt not in SUPPORTED:
            raise DTypeError(
                f"'{ufunc_name}' on ({', '.join(str(d) for d in dtypes)}) computes in {dt}, "
                f"which transpile does not support; cast first, e.g. x.astype(tnp.float32)")
    return ins, out


def result_type(dtypes, weaks) -> np.dtype:
    """NumPy's ``result_type`` with weak operands treated as Python scalars (NEP 50)."""
    all_weak = all(weaks)
    operands = [_operand_key(d, w)(0) if w and not all_weak else d for d, w in zip(dtypes, weaks)]
    dt = np.result_type(*operands)
    return canonicalize(dt)


def is_float(dtype) -> bool:
    return np.dtype(dtype).kind == "f"


def is_complex(dtype) -> bool:
    return np.dtype(dtype).kind == "c"


def is_inexact(dtype) -> bool:
    """Floating or complex: the dtypes NaN and inf live in."""
    return np.dtype(dtype).kind in "fc"


def is_int(dtype) -> bool:
    return np.dtype(dtype).kind in "iu"
