"""The fuzzer under JAX's dtype rules (transpile.config's transpile_dtype_rules="jax"): the
reference is still NumPy, computed at the dtypes JAX's rules give.

Which dtype an op gives under JAX's rules is transpile's own answer (traced, so weak Python
scalars are seen as such); that answer is itself checked against JAX's recorded dtypes by
tests/test_jax_dtype_rules.py. Given it, NumPy computes the value: elementwise ops on
operands converted to the dtype JAX computes in (the result's, or for predicates the
operands' join), other ops in NumPy's own dtypes with the result converted (exact for the
integer ops, within the fuzzer's tolerances for float sums). Without x64, 64-bit arrays are
first narrowed to 32 bits, as transpile (and JAX) store them.

A result that JAX types weakly (where(c, False, 4), positive of a Python-int argument,
int16 * 1.5) keeps its weak type, as transpile's tracing reports it (checked against JAX by
tests/test_jax_dtype_rules.py), so the ops that consume it promote as in JAX: a 0-d one is
a Python scalar of its kind, the fuzzer's mark of a weak value (clip(uint32, it, ...) stays
uint32: seed 960069, x32; kron(int8, it) is int8: seed 970075, x64), one with axes a
values.WeakArray, traced as a weak array (stack(uint8, 1.0 / (u + 0.0), float32) is float32:
seed 1200133, x64).
"""
from __future__ import annotations

import contextlib
import dataclasses

import numpy as np

import transpile as tp
from transpile import dtypes
from transpile.eager_array import as_weak

from . import generate, ops_contexts
from .ops import OPS
from .values import WeakArray, is_pyscalar

_ELEMENTWISE = ("unary", "binary")
# Products JAX computes after promoting both operands (a Python float becomes the array's
# float32 first, so 0 * 1e300 is NaN as in JAX).
# Operands converted to the result dtype before NumPy computes: products, and the region-math
# ops (JAX takes cos of int32 in float32, so the int is rounded to float32 first; computing
# in float64 and rounding after differs completely for large ints).
# clip too: JAX promotes x and its bounds to one dtype first (without x64 a uint32 x and an
# int32 bound meet in int32, so x wraps: seed 850336).
_OPERAND_DTYPE_OPS = ("bitwise_count",)
_CAST_OPERANDS = ("scalar_product", "matmul", "cond_math", "scan_math", "fori_math",
                  "while_math", "clip")
def _jax_floor_divide(params, x, y):
    """NumPy's floor_divide with JAX's integer division by zero: -1 (x == 0) or -2 signed,
    the maximum unsigned."""
    q = np.floor_divide(x, y)
    dt = np.asarray(q).dtype
    if dt.kind not in "iu":
        return q
    by_zero = np.iinfo(dt).max if dt.kind == "u" else np.where(np.asarray(x) != 0, -2, -1)
    out = np.where(np.asarray(y) == 0, np.asarray(by_zero).astype(dt), q).astype(dt)
    return out if np.ndim(out) else out[()]


def _jax_round(params, x):
    """JAX refuses round of booleans (ValueError) and of integers with negative decimals
    (NotImplementedError). Raised here as TypeError, the generator's mark of an error that
    types alone decide (transpile must raise too, whatever the class)."""
    kind = np.asarray(x).dtype.kind if not is_pyscalar(x) else None
    if kind == "b" or (kind in ("i", "u") and params["decimals"] < 0):
        raise TypeError(f"JAX refuses round of {np.asarray(x).dtype} with decimals "
                        f"{params['decimals']}")
    return OPS["round"].ref(params, x)


# What JAX computes where NumPy refuses (positive of booleans) or answers otherwise.
_JAX_ACCEPTS = {"positive": lambda params, x: np.positive(x) if np.asarray(x).dtype != np.bool_
                else x, "floor_divide": _jax_floor_divide, "round": _jax_round}


class _NumPyAsJax:
    """NumPy's namespace with _JAX_ACCEPTS's answers, for the ops that call those functions
    inside one node (const_chain's `then`)."""

    def __getattr__(self, name):
        if name in _JAX_ACCEPTS:
            return lambda *xs: _JAX_ACCEPTS[name](None, *xs)
        return getattr(np, name)


def _narrowed_params(params):
    """An op's `dtype=` as JAX makes it: without x64 a 64-bit dtype asked for by name is
    its 32-bit one (ones(5, uint64) is uint32, with JAX's warning)."""
    if not params.get("dtype"):
        return params
    return {**params, "dtype": dtypes.canonicalize(np.dtype(params["dtype"])).name}


_JAX_ACCEPTS["const_chain"] = lambda params, *xs: ops_contexts.const_chain(
    _NumPyAsJax(), _narrowed_params(params), *xs)
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
# Ops that keep a Python int exact (docs/semantics.md: JAX wraps it; clip compares too).
_EXACT_INTS = _COMPARISONS + ("clip",)


def _narrowed(x):
    if isinstance(x, np.ndarray) or isinstance(x, np.generic):
        dt = dtypes.canonicalize(x.dtype)
        narrow = x if dt == x.dtype else np.asarray(x).astype(dt)
        return narrow.view(WeakArray) if isinstance(x, WeakArray) else narrow
    return x


def _is_weak(x) -> bool:
    return is_pyscalar(x) or isinstance(x, WeakArray)


def _traced_operand(x):
    """An array operand as tracing must see it: a weak one as transpile's weakly typed array."""
    return as_weak(np.asarray(x)) if isinstance(x, WeakArray) else x


def _jax_dtype(op, params, args):
    """(result dtype, operands' join, weakly typed?) under JAX's rules, or None where tracing
    refuses."""
    arrays = [_traced_operand(a) for a in args if not is_pyscalar(a)]

    def traced(*given):
        it = iter(given)
        return op.tp(params, *(next(it) if not is_pyscalar(a) else a for a in args))
    try:
        out = tp.eval_shape(traced, *arrays)
    except Exception:                 # noqa: BLE001 - the check itself reports refusals
        return None
    if not hasattr(out, "dtype"):
        return None
    weak = bool(getattr(out, "weak_type", False))
    if op.family not in _ELEMENTWISE:
        return np.dtype(out.dtype), None, weak
    join = dtypes.result_type([np.asarray(a).dtype if not is_pyscalar(a)
                               else dtypes.default_for_python_type(type(a)) for a in args],
                              [_is_weak(a) for a in args])
    return np.dtype(out.dtype), join, weak


def _with_jax_weakness(value, typing):
    """value as weak as JAX makes it. Where JAX's result is weakly typed: a 0-d one as a
    Python scalar, one with axes as a WeakArray; where it is not, a 0-d array of the result
    dtype (jnp.sum(5) is a strong int32) or a plain array. Booleans promote alike either way
    and are left as they are (and a weak complex 0-d value: Python complex is not one of the
    fuzzer's scalars)."""
    if isinstance(value, WeakArray):
        value = np.asarray(value)   # NumPy passes the class on; JAX's rules decide weakness
    if typing is None or not isinstance(value, (np.ndarray, np.generic, int, float)):
        return value
    out_dt, _, weak = typing
    if out_dt.kind not in "iufc" or np.asarray(value).dtype == np.bool_:
        return value
    if np.ndim(value):
        return value.view(WeakArray) if weak else value
    if weak and out_dt.kind != "c":
        return _as(np.asarray(value), out_dt).item()
    return _as(np.asarray(value), out_dt) if is_pyscalar(value) else value


def _as(x, dt):
    """x at dtype dt. As in JAX, a Python int outside the default int raises OverflowError;
    others wrap into dt (int8 + 300 is 45)."""
    if type(x) is int:
        info = np.iinfo(dtypes.default_int())
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python int {x} too large to convert to {info.dtype}")
    with np.errstate(all="ignore"):
        return np.asarray(x).astype(dt) if not is_pyscalar(x) else np.asarray(x).astype(dt)[()]


def jax_reference(op):
    """op's reference under JAX's rules. Ops outside the elementwise families run NumPy on
    their operands as they are, so where NumPy refuses a Python int that JAX wraps into its
    partner's dtype (clip(uint8, None, -7), a cond on such a literal) the reference raises
    and transpile does not: known.JAX_MODE_WRAPS lists that class."""
    numpy_ref = _JAX_ACCEPTS.get(op.name, op.ref)

    def ref(params, *args):
        args = [_narrowed(a) for a in args]
        typing = _jax_dtype(op, params, args)
        return _with_jax_weakness(value_at_jax_dtype(params, args, typing), typing)

    def value_at_jax_dtype(params, args, typing):
        for a in args:
            if type(a) is int:
                _as(a, dtypes.default_int())     # beyond the default int: JAX raises
        if type(params.get("lit")) is int:          # so does a literal inside cond's branches,
            _as(params["lit"], dtypes.default_int())   # both traced (seed 820022, x32)
        _check_fill(params, args)
        if all(is_pyscalar(a) for a in args) and args and (
                typing is None or op.family not in _ELEMENTWISE):
            if op.name == "const_chain" and typing is not None:
                return _const_chain_of_python_scalars(numpy_ref, params, args, typing[0])
            return _python_scalars_at_jax_precision(numpy_ref, params, args)
        if typing is None:
            return numpy_ref(params, *args)
        out_dt, join, _ = typing
        if op.family in _ELEMENTWISE or op.name in _CAST_OPERANDS:
            # Predicates and bit counts compute in their operands' dtype, not the result's
            # (jnp.bitwise_count(int8(-2)) counts |-2|, not uint8 254: seed 520077, x64).
            own = out_dt == np.bool_ or op.name in _OPERAND_DTYPE_OPS
            compute = join if own and join is not None else out_dt
            # Comparisons keep a Python int exact, as NumPy (transpile's README: JAX wraps it)
            args = [a if (type(a) is int and op.name in _EXACT_INTS) or a is None
                    else _as(a, compute) for a in args]
        scalars = bool(args) and all(is_pyscalar(a) for a in args)
        with np.errstate(all="ignore"):
            value = numpy_ref(params, *args)
        if is_pyscalar(value) and out_dt == dtypes.default_for_python_type(type(value)):
            return value
        value = _as(np.asarray(value), out_dt)
        return value.item() if scalars and np.ndim(value) == 0 else value
    return ref


def _check_fill(params, args):
    """full/full_like of a Python int that the (narrowed) integer dtype cannot hold raises
    OverflowError, in JAX as in transpile's JAX mode (NumPy, at the unnarrowed dtype, may
    not)."""
    fill, how = params.get("fill"), params.get("how")
    if type(fill) is not int or how not in ("full", "full_like"):
        return
    dt = params.get("dtype") or (np.asarray(args[0]).dtype if args else None)
    if dt is None or np.dtype(dt).kind not in "iu":
        return
    info = np.iinfo(dtypes.canonicalize(dt))
    if not info.min <= fill <= info.max:
        raise OverflowError(f"Python int {fill} out of bounds for {info.dtype}")


def _const_chain_of_python_scalars(numpy_ref, params, args, out_dt):
    """A constant chain meeting Python scalars only: JAX keeps them weak, so an int takes the
    constant's integer dtype, wrapping (uint8 zeros | -3 is 253, uint8: seed 510148, x32;
    minimum(uint32 zeros, -5) is 0: seed 630005, x64)."""
    dt = np.dtype(_narrowed_params(params)["dtype"])
    args = [_as(a, dt) if type(a) is int and dt.kind in "iu" else a for a in args]
    with np.errstate(all="ignore"):
        value = numpy_ref(params, *args)
    return _as(np.asarray(value), out_dt) if isinstance(value, np.ndarray) else value


def _python_scalars_at_jax_precision(numpy_ref, params, args):
    """Python scalars only: NumPy at their JAX dtypes (float32/int32 without x64), given back
    as a Python scalar, as the generator keeps such values."""
    typed = [_as(a, dtypes.default_for_python_type(type(a))) for a in args]
    with np.errstate(all="ignore"):
        try:
            value = numpy_ref(params, *typed)
        except Exception:             # noqa: BLE001 - NumPy refuses it typed: keep Python's
            return numpy_ref(params, *args)
    if np.ndim(value) or not isinstance(value, (np.generic, bool, int, float, complex)) \
            or isinstance(value, np.ndarray):
        return _narrowed(np.asarray(value)) if isinstance(value, np.ndarray) else value
    item = np.asarray(value).item()
    return item


_NUMPY_REFS = {name: op.ref for name, op in OPS.items()}


@contextlib.contextmanager
def jax_rules(x64: bool = False):
    """Run the fuzzer under JAX's dtype rules for a `with` block: transpile's setting, and
    every op's reference computed at JAX's dtypes."""
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=x64):
        for name, op in OPS.items():
            OPS[name] = dataclasses.replace(op, ref=jax_reference(op))
        numpy_range = generate.PYTHON_INT_ARGUMENTS
        if not x64:
            generate.PYTHON_INT_ARGUMENTS = (-2**31, 2**31)
        try:
            yield
        finally:
            generate.PYTHON_INT_ARGUMENTS = numpy_range
            for name, op in OPS.items():
                OPS[name] = dataclasses.replace(op, ref=_NUMPY_REFS[name])
