"""The dtype lattice: which dtypes exist, how they print, and how they promote.

Promotion is NumPy 2's (NEP 50) unless ``transpile.config`` selects JAX's rules
(``transpile_dtype_rules="jax"``), which dtypes_jax.py holds; every function here that
decides a dtype asks ``config`` which. For NumPy's rules, rather than re-deriving NumPy's
tables we ask NumPy itself: ``ufunc.resolve_dtypes`` returns the loop a ufunc would pick for
given operand dtypes, with Python scalar *types* standing in for weakly typed
values. That keeps us bit-for-bit aligned with NumPy's result dtypes.
"""
from __future__ import annotations

import functools

import numpy as np

from . import dtypes_jax
from .config import config
from .dtypes_half import bfloat16_or_none, is_bfloat16, is_half, require_bfloat16  # noqa: F401

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)


def kind(dtype) -> str:
    """NumPy's kind letter, with 'f' for bfloat16 (whose NumPy kind is 'V')."""
    dt = np.dtype(dtype)
    return "f" if is_bfloat16(dt) else dt.kind


class _DtypeSet(tuple):
    """The supported dtypes; `in` also admits bfloat16 once ml_dtypes is loaded."""

    def __contains__(self, dtype) -> bool:
        return tuple.__contains__(self, dtype) or is_bfloat16(dtype)


SUPPORTED = _DtypeSet((bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                       float16, float32, float64, complex64, complex128))
_SUPPORTED_SET = frozenset(SUPPORTED)   # np.dtype objects (a string or type hashes apart)
SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
INTEGER = SIGNED + UNSIGNED
FLOATING = _DtypeSet((float16, float32, float64))
COMPLEX = (complex64, complex128)
# The real dtype of each complex one's parts (and of its .real, .imag, abs, angle).
COMPLEX_PART = {complex64: float32, complex128: float64}

# The dtype a weakly typed Python scalar takes when nothing stronger is around (NumPy's
# rules; default_for_python_type answers for the rules in force).
DEFAULT_FOR_PYTHON_TYPE = {bool: bool_, int: int64, float: float64, complex: complex128}


def default_for_python_type(t: type) -> np.dtype:
    """The dtype a Python scalar of type t takes alone: int64/float64 under NumPy's rules,
    JAX's int_/float_ (int32/float32 unless x64 is on) under JAX's."""
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return dtypes_jax.default_for_python_type(t)
    return DEFAULT_FOR_PYTHON_TYPE[t]


def default_float() -> np.dtype:
    """The float a computation on integers gives (mean of ints, linspace): float64, or JAX's
    float_ under JAX's rules."""
    return default_for_python_type(float)


def float_for_integers(dtype) -> np.dtype:
    """The float mean/var/std of an integer or bool array computes in (inexact dtypes are
    their own): float64 under NumPy's rules; JAX's to_inexact_dtype under JAX's (float32 for
    up to 32-bit integers even with x64 on, float64 for 64-bit ones)."""
    dt = np.dtype(dtype)
    if is_inexact(dt):
        return dt
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return dtypes_jax.to_inexact(dt, False)[0]
    return float64


def default_int() -> np.dtype:
    """The integer dtype of indices and counts (arange, argmax): int64, or JAX's int_."""
    return default_for_python_type(int)



class DtypeTable(dict):
    """A table keyed by dtype whose bfloat16 entry (given apart, as the key exists only once
    ml_dtypes is loaded) answers for ml_dtypes' bfloat16."""

    def __init__(self, entries, bfloat16=None):
        super().__init__(entries)
        self.bfloat16 = bfloat16

    def __missing__(self, dtype):
        if self.bfloat16 is not None and is_bfloat16(dtype):
            return self.bfloat16
        raise KeyError(dtype)

    def __contains__(self, dtype) -> bool:
        return dict.__contains__(self, dtype) or (self.bfloat16 is not None
                                                  and is_bfloat16(dtype))

    def get(self, dtype, default=None):
        return self[dtype] if dtype in self else default


SHORT_NAME = DtypeTable({bool_: "bool", int8: "i8", int16: "i16", int32: "i32", int64: "i64",
                         uint8: "u8", uint16: "u16", uint32: "u32", uint64: "u64",
                         float16: "f16", float32: "f32", float64: "f64", complex64: "c64",
                         complex128: "c128"}, bfloat16="bf16")


class DTypeError(TypeError):
    """A dtype transpile cannot represent, or an op/dtype pairing NumPy rejects."""


def canonicalize(dtype, *, what: str = "dtype") -> np.dtype:
    """The supported ``np.dtype`` for anything NumPy accepts as a dtype, or a clear error."""
    # The common case, under NumPy's rules. Only a real np.dtype may be returned as it is:
    # tnp.float32 and friends compare and hash equal to their dtypes but are classes.
    if not config._token and isinstance(dtype, np.dtype) and dtype in _SUPPORTED_SET:
        return dtype
    if dtype is bool or dtype is int or dtype is float or dtype is complex:
        return default_for_python_type(dtype)
    try:
        dt = np.dtype(dtype)
    except TypeError as err:
        raise DTypeError(f"{what} {dtype!r} is not a dtype: {err}") from None
    if not dt.isnative:          # byte-swapped data is converted on the way in
        dt = dt.newbyteorder("=")
    if dt not in SUPPORTED:
        raise DTypeError(
            f"{what} {dt} is not supported by transpile; supported dtypes are "
            + ", ".join(str(d) for d in SUPPORTED) + ", bfloat16 (ml_dtypes)")
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return dtypes_jax.canonical(dt)       # int64 -> int32 etc. unless x64 is on
    return dt


def requested(dtype, where: str) -> np.dtype:
    """A dtype the caller asked for by name (`zeros(3, dtype=...)`): canonicalize's answer,
    with JAX's UserWarning when JAX's rules without x64 narrow it (float64 -> float32)."""
    dt = canonicalize(dtype)
    python_type = any(dtype is t for t in (bool, int, float, complex))   # the defaults
    if config.jax_rules() and not python_type:
        asked = np.dtype(dtype)
        if asked != dt and asked.isnative:
            import warnings
            warnings.warn(
                f"Explicitly requested dtype {asked} in {where} is not available without 64-bit "
                f"mode, and is truncated to {dt}, as in JAX; enable it with "
                "transpile.config.update('jax_enable_x64', True) or JAX_ENABLE_X64=1",
                UserWarning, stacklevel=3)
    return dt


def short_name(dtype: np.dtype) -> str:
    return SHORT_NAME[np.dtype(dtype)]


def python_scalar_type(dtype: np.dtype) -> type:
    """The Python type whose NEP 50 'weak' behaviour a weakly typed value of `dtype` has."""
    if dtype == bool_:
        return bool
    return {"f": float, "c": complex}.get(kind(dtype), int)


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
    """(compute dtypes of the inputs, result dtype) NumPy uses for this ufunc (JAX's choice
    under JAX's rules)."""
    if ufunc_name == "signbit" and np.dtype(dtypes[0]).kind in "iub":
        # NumPy's signbit loops are floating (float16 for int8 and bool), JAX's is x < 0; an
        # integer's sign needs no conversion (the C rule compares it with zero) and the
        # answer is the same either way.
        return (np.dtype(dtypes[0]),), bool_
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return _jax_ufunc_loop(ufunc_name, tuple(map(np.dtype, dtypes)), tuple(map(bool, weaks)))
    return _numpy_ufunc_loop(ufunc_name, dtypes, weaks)


def _numpy_ufunc_loop(ufunc_name: str, dtypes, weaks):
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
    """NumPy's ``result_type`` with weak operands treated as Python scalars (NEP 50), or
    JAX's promotion under JAX's rules."""
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return dtypes_jax.promote(dtypes, weaks)[0]
    all_weak = all(weaks)
    operands = [_operand_key(d, w)(0) if w and not all_weak else d for d, w in zip(dtypes, weaks)]
    dt = np.result_type(*operands)
    return canonicalize(dt)


def is_float(dtype) -> bool:
    dt = np.dtype(dtype)
    return dt.kind == "f" or is_bfloat16(dt)


def is_complex(dtype) -> bool:
    return np.dtype(dtype).kind == "c"


def is_inexact(dtype) -> bool:
    """Floating or complex: the dtypes NaN and inf live in."""
    dt = np.dtype(dtype)
    return dt.kind in "fc" or is_bfloat16(dt)


def is_int(dtype) -> bool:
    return np.dtype(dtype).kind in "iu"


def promote(dtypes, weaks) -> tuple[np.dtype, bool]:
    """(result dtype, whether weakly typed) of combining operands: under NumPy's rules weak
    only when every operand is; under JAX's, when the lattice's join is a weak node (an int
    array times a Python float is a weak float)."""
    if config._token:            # JAX's rules (config.jax_rules(), read cheaply)
        return dtypes_jax.promote(dtypes, weaks)
    return result_type(dtypes, weaks), all(weaks)


def ufunc_result_weak(ufunc_name: str, dtypes, weaks, out: np.dtype) -> bool:
    """Whether the ufunc's result is weakly typed. NumPy's rules: when every operand is, never
    for a boolean result. JAX's: when the operands' join is weak, predicates included (a
    Python float compared with an int array is a weak bool), except where JAX computes
    through a strong constant (log2, log10) or a strong conversion (see _jax_strong_result)."""
    if not config.jax_rules():
        return out != bool_ and all(weaks)
    common, weak = dtypes_jax.promote(dtypes, weaks)
    return weak and not _jax_strong_result(ufunc_name, common, dtypes, weaks)


def _jax_strong_result(ufunc_name: str, common: np.dtype, dtypes, weaks) -> bool:
    """JAX's ufuncs whose result is strongly typed even for weak operands, as its
    implementations make them: log2 and log10 divide by a strong log(2)/log(10); rint of an
    integer converts it to a strong float first; power with an integer (or boolean) exponent
    or result runs JAX's integer power; isinf (and isfinite of an integer) answers with a
    strong constant; bool arithmetic that yields integers converts first."""
    if ufunc_name in ("log2", "log10", "isinf"):
        return True
    if ufunc_name in ("rint", "isfinite") and common.kind in "iub":
        return True
    if ufunc_name == "power" and (common.kind in "iub" or (
            weaks[0] and np.dtype(dtypes[1]).kind in "iu")):
        return True
    return common == bool_ and ufunc_name in _JAX_BOOL_TO_INT


# -- JAX's rules for ufuncs ---------------------------------------------------------------------

# Ufuncs JAX computes in floating point whatever the operands (promote_dtypes_inexact).
JAX_INEXACT_UFUNCS = frozenset({
    "true_divide", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign",
    "nextafter", "rint", "heaviside", "reciprocal", "fabs", "deg2rad", "rad2deg", "spacing"})


def _jax_compute_dtype(ufunc_name: str, dtypes, weaks) -> np.dtype:
    common, weak = dtypes_jax.promote(dtypes, weaks)
    if ufunc_name in JAX_INEXACT_UFUNCS and ufunc_name != "rint":
        common, weak = dtypes_jax.to_inexact(common, weak)
    return common


# Integer-valued ufuncs JAX computes on booleans in its default int (NumPy: int8 or refused).
_JAX_BOOL_TO_INT = frozenset({"power", "floor_divide", "remainder", "left_shift",
                              "right_shift", "square"})


@functools.lru_cache(maxsize=4096)
def _jax_ufunc_loop_cached(ufunc_name, dtypes, weaks, x64):
    compute = _jax_compute_dtype(ufunc_name, dtypes, weaks)
    if compute == bool_ and ufunc_name in _JAX_BOOL_TO_INT:
        compute = int32          # JAX's int32 even with x64 on
    elif ufunc_name == "rint" and compute.kind in "iub":
        compute = dtypes_jax.default_dtype("f")    # rint converts integers to float_
    if is_bfloat16(compute):      # NumPy's float16 loops: ml_dtypes registers only some
        ins, out = _numpy_ufunc_loop(ufunc_name, (float16,) * len(dtypes), (False,) * len(dtypes))
        ins, out = tuple(compute if d == float16 else d for d in ins), \
            compute if out == float16 else out
        return ins, out
    ins, out = _numpy_ufunc_loop(ufunc_name, (compute,) * len(dtypes), (False,) * len(dtypes))
    return ins, dtypes_jax.canonical(out)


def _jax_ufunc_loop(ufunc_name: str, dtypes, weaks):
    return _jax_ufunc_loop_cached(ufunc_name, dtypes, weaks, config.x64())
