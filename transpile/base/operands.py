"""The bind wrappers every front-end function ends in: operand checks, axes, broadcasting,
Python-int range rules, `astype`, `reshape`, `broadcast_to` and `elementwise`."""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind, current_trace, ensure_operand, is_python_scalar
from ..errors import ConcretizationError, user_location
from ..strength import is_marked


def operand(x, what="operand"):
    x = ensure_operand(x, what)
    if dtypes.config._token:          # JAX converts every Python int to its default int first
        check_fits_default_int(x)
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype not in dtypes.SUPPORTED:
            raise TypeError(f"{what} has dtype {x.dtype}, which transpile does not support")
        if dtypes.config._token:      # JAX's rules store 64-bit data as 32-bit without x64
            dt = dtypes.canonicalize(x.dtype)
            if dt != x.dtype:
                return x.astype(dt)
    return x


def strong_operand(x, what="operand"):
    """An operand as `np.asarray` makes it: a Python scalar (or a weak value) becomes strongly
    typed. NumPy's non-ufunc functions (dot, outer, kron, einsum...) convert their operands
    so: `np.dot(uint8_array, 3)` is int64, where `uint8_array * 3` is uint8. JAX's keep
    Python scalars weak (`jnp.dot(uint8_array, 3)` is uint8), so under JAX's rules the
    operand is only checked to fit the default int."""
    if dtypes.config._token:           # JAX's rules
        check_fits_default_int(x)
        return operand(x, what)
    if type(x) in (bool, int, float):
        converted = np.asarray(x)     # NumPy's own conversion: 2**63 becomes uint64
        if converted.dtype not in dtypes.SUPPORTED:
            raise OverflowError(f"Python integer {x} fits neither int64 nor uint64 ({what} at "
                                f"{user_location()}); NumPy would make it an object array")
        return converted[()]
    x = operand(x, what)
    return astype(x, aval_of(x).dtype) if aval_of(x).weak_type else x


def shape_of(x) -> tuple[int, ...]:
    return aval_of(x).shape


def is_traced(*xs) -> bool:
    return current_trace() is not None or any(isinstance(x, Tracer) for x in xs)


def normalize_axis(axis: int, ndim: int, what="axis") -> int:
    axis = _static_int(axis, what)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what} {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def normalize_axes(axis, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {tuple(axis)}")     # JAX's words
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim),)


def _static_int(value, what: str) -> int:
    try:
        return int(value.__index__())
    except AttributeError:
        raise TypeError(f"{what} must be an int, got {type(value).__name__}") from None


class NegativeDimensionError(ValueError, TypeError):
    """A negative size in a shape: NumPy's ValueError, and JAX's TypeError, so that code
    catching either catches it."""


_SHAPE_WORDS = "Shapes must be 1D sequences of concrete values of integer type"   # JAX's


def static_shape(shape, what="shape") -> tuple[int, ...]:
    """A concrete shape tuple. An entry that is not an integer is JAX's TypeError; a traced
    one JAX's words too, as a ConcretizationError (a TypeError) naming the argument."""
    if isinstance(shape, (int, float, complex, np.generic, Tracer)) or (
            isinstance(shape, np.ndarray) and shape.ndim == 0):
        shape = (shape,)
    try:
        dims = tuple(_static_int(d, what) for d in shape)
    except ConcretizationError as e:
        raise ConcretizationError(
            f"{_SHAPE_WORDS}, got {tuple(shape)}.\nIf using `jit`, try using `static_argnums` "
            f"or applying `jit` to smaller subfunctions.\n{e}") from None
    except TypeError:
        raise TypeError(f"{_SHAPE_WORDS}, got {tuple(shape)}. Each entry of {what} must be a "
                        "Python int (or a NumPy integer scalar)") from None
    if any(d < 0 for d in dims):
        raise NegativeDimensionError(f"negative dimensions are not allowed in {what} {dims}")
    return dims


def broadcast_to(x, shape):
    x = operand(x)
    shape = tuple(shape)
    old = shape_of(x)
    if old == shape:
        return x
    if len(old) > len(shape) or any(o not in (1, n) for o, n in zip(old[::-1], shape[::-1])):
        raise ValueError(f"cannot broadcast an array of shape {old} to shape {shape} "
                         f"at {user_location()}")
    dims = tuple(range(len(shape) - len(old), len(shape)))
    return bind(P.broadcast_in_dim, x, shape=shape, broadcast_dimensions=dims)


def broadcast_operands(name: str, xs):
    shapes = [shape_of(x) for x in xs]
    try:
        out = np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"'{name}': operands could not be broadcast together with shapes "
                         + " ".join(str(s) for s in shapes) + f" at {user_location()}") from None
    return [x if shape_of(x) in (out, ()) else broadcast_to(x, out) for x in xs]


_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge"}


def check_python_ints_fit(name: str, xs):
    """NumPy 2 refuses a Python int that does not fit the array's integer dtype, except in
    comparisons, which it evaluates exactly (`uint8_array < -1` is all False)."""
    if dtypes.config._token:           # JAX's rules
        return _jax_python_ints(name, xs)
    if name in _COMPARISONS:
        return [_exact_comparison_operand(x, xs) for x in xs]
    try:
        loop, _ = dtypes.ufunc_loop(P.ELEMENTWISE_UFUNC[name], [aval_of(x).dtype for x in xs],
                                    weak_flags(xs))
    except dtypes.DTypeError:
        return xs          # the primitive's own dtype rule reports this, with context
    check_ints_fit_loop(xs, loop)
    return [beyond_int64_as(x, dt) for x, dt in zip(xs, loop)]


def check_ints_fit_loop(xs, loop):
    """Raise NumPy 2's OverflowError for a Python int operand outside its integer loop dtype."""
    for x, dt in zip(xs, loop):
        if type(x) is int and dtypes.is_int(dt):
            info = np.iinfo(dt)
            if not info.min <= x <= info.max:
                raise int_out_of_bounds(x, dt)


def _jax_python_ints(name: str, xs):
    """JAX's handling of Python int operands: one outside the default int (int32 without x64)
    raises OverflowError; others wrap into the dtype the operation computes in (int8 + 300
    is 45). Comparisons stay exact, as NumPy's (`uint8_array < -1` is False; JAX wraps -1 to
    255): transpile's own index arithmetic relies on them."""
    if not any(type(x) is int for x in xs):
        return xs
    for x in xs:
        check_fits_default_int(x)
    if name in _COMPARISONS:
        return [_jax_exact_comparison_operand(x, xs) for x in xs]
    try:
        loop, _ = dtypes.ufunc_loop(P.ELEMENTWISE_UFUNC[name], [aval_of(x).dtype for x in xs],
                                    weak_flags(xs))
    except dtypes.DTypeError:
        return xs
    return [wrapped_python_int(x, dt) if type(x) is int and dtypes.is_int(dt) else x
            for x, dt in zip(xs, loop)]


def _jax_exact_comparison_operand(x, xs):
    """A Python int beyond its strongly typed integer partner's range compares as an infinity
    of its sign: the answer NumPy's exact comparison gives, with no 64-bit dtype needed (JAX
    has none without x64), and no wrapped index bounds in transpile's own code."""
    if type(x) is not int:
        return x
    for o in xs:
        if o is not x and not is_weak(o) and dtypes.is_int(aval_of(o).dtype):
            info = np.iinfo(aval_of(o).dtype)
            if not info.min <= x <= info.max:
                return float("inf") if x > 0 else float("-inf")
    return x


def check_fits_default_int(x) -> None:
    """JAX's OverflowError for a Python int its default int (int32 without x64) cannot hold."""
    default = np.iinfo(dtypes.default_int())
    if type(x) is int and not default.min <= x <= default.max:
        raise OverflowError(
            f"Python int {x} too large to convert to {dtypes.default_int()}, JAX's default "
            f"int (at {user_location()}): under JAX's dtype rules a Python int must fit it; "
            + ("pass it as an array of a dtype that holds it (np.uint64) or as a float"
               if dtypes.config.x64() else
               "enable x64 (transpile.config.update('jax_enable_x64', True)) or pass an array"))


def wrapped_python_int(x: int, dt):
    """x as the loop dtype sees it: unchanged if it fits, else wrapped into a scalar of that
    dtype (strong, which changes no result type: its partner is strongly typed dt)."""
    info = np.iinfo(dt)
    if info.min <= x <= info.max:
        return x
    return np.asarray(x).astype(dt)[()]


def int_out_of_bounds(x: int, dt) -> OverflowError:
    """NumPy 2's error (it never wraps a Python int into a narrower array's dtype), with where
    it happened and what to do."""
    info = np.iinfo(dt)
    return OverflowError(
        f"Python integer {x} out of bounds for {dt} (range {info.min}..{info.max}) at "
        f"{user_location()}, as in NumPy 2: convert the array to a wider dtype first "
        f"(x.astype(np.int64)), or use a value in range (np.{dt}({x} % 2**{info.bits}) if "
        f"wrapping is what you want)")


_INT64 = np.iinfo(np.int64)


def beyond_int64_as(x, dt):
    """A Python int outside int64 (which a weak literal cannot hold) as the strong scalar of
    the dtype NumPy converts it to; other operands unchanged. Conversion wraps, as NumPy's
    unsafe casts (where) do; a float conversion may raise OverflowError, as in NumPy."""
    if type(x) is not int or _INT64.min <= x <= _INT64.max:
        return x
    if dtypes.is_float(dt):
        with np.errstate(over="ignore"):
            return np.asarray(float(x)).astype(dt)[()]
    if not -2**63 <= x < 2**64:
        raise int_out_of_bounds(x, dt)
    return np.asarray(x % 2**64, dtype=np.uint64).astype(dt)[()]


def _exact_comparison_operand(x, xs):
    """A Python int outside its partner's range becomes a strong int64/uint64 (or float64),
    so that NumPy's promotion compares exactly in a wider type."""
    partners = [aval_of(o).dtype for o in xs if o is not x and not is_weak(o)]
    if is_weak_int_tracer(x):
        # A Python-int jit argument: its value is unknown, so compare in int64 (exactly, also
        # against uint64) unless the partner is int64 already. A Python-int literal beyond
        # int64 becomes a uint64 (below): the argument must not take that type weakly.
        beyond = any(type(o) is int and not _INT64.min <= o <= _INT64.max for o in xs)
        if beyond or any(dtypes.is_int(dt) and dt != dtypes.int64 for dt in partners):
            return astype(x, dtypes.int64)
        return x
    if type(x) is not int:
        return x
    floats = [dt for dt in partners if dtypes.is_float(dt)]
    if floats:                       # NumPy converts the int to the float dtype
        return beyond_int64_as(x, floats[0])
    beyond_int64 = not _INT64.min <= x <= _INT64.max
    if beyond_int64 and partners and all(dt == dtypes.bool_ for dt in partners):
        # NumPy compares integers exactly whatever their range, but booleans with a Python
        # int in its int64 loop, which cannot hold it (fuzzer seed 12555)
        raise int_out_of_bounds(x, dtypes.int64)
    if not beyond_int64 and not any(dtypes.is_int(dt) and not np.iinfo(dt).min <= x <=
                                    np.iinfo(dt).max for dt in partners):
        return x
    for dt in (np.int64, np.uint64):
        if np.iinfo(dt).min <= x <= np.iinfo(dt).max:
            return dt(x)
    return float(x)


def is_weak_int_tracer(x) -> bool:
    """A weak int64 value that is not a function's result: a Python-int jit argument."""
    return isinstance(x, Tracer) and x.aval.weak_type and x.aval.dtype == dtypes.int64 and \
        not is_marked(x)


def is_weak(x) -> bool:
    """Whether NumPy treats x as weak: Python scalars and operators' results on them, but not
    the results of functions (`tnp.where(c, 2, 3)`), which are virtually strong (strength.py)."""
    return aval_of(x).weak_type and not is_marked(x)


def weak_flags(xs) -> list:
    return [is_weak(x) for x in xs]


def elementwise(name: str, *xs):
    xs = [operand(x) for x in xs]
    if len(xs) > 1:
        xs = broadcast_operands(name, xs)
        xs = check_python_ints_fit(name, xs)
    return bind(P.get(name), *xs)


def as_bool(x):
    """x != 0 unless x is already boolean."""
    x = operand(x)
    if aval_of(x).dtype == dtypes.bool_:
        return x
    return elementwise("ne", x, False if is_python_scalar(x) else 0)


def astype(x, dtype):
    x = operand(x)
    dt = dtypes.canonicalize(dtype)
    if dtypes.is_complex(aval_of(x).dtype) and not dtypes.is_complex(dt):
        warn_complex_to_real(dt)
    if is_python_scalar(x):          # a literal of the new dtype, not a conversion equation
        return np.asarray(x).astype(dt)[()]
    aval = aval_of(x)
    if aval.dtype == dt and not aval.weak_type:
        return x
    if dtypes.config.jax_rules() and dtypes.is_float(aval.dtype) and dtypes.is_int(dt):
        return _saturating_cast(x, aval.dtype, dt)
    return bind(P.convert_element_type, x, new_dtype=dt, weak_type=False)


def weak_like(out, x):
    """`out`, weakly typed where `x` is (JAX's unary operations keep their operand's weak
    type; one built from strong casts, as `lax.clz` is, needs it put back)."""
    aval = aval_of(out)
    if not aval_of(x).weak_type or aval.weak_type:
        return out
    return bind(P.convert_element_type, out, new_dtype=aval.dtype, weak_type=True)


def _saturating_cast(x, src, dt):
    """JAX's float -> int conversion: out-of-range values saturate to the integer's bounds and
    NaN becomes 0 (NumPy's and C's answer is undefined; transpile's NumPy mode gives the
    integer minimum). The bounds are powers of two, exact in every float dtype."""
    info = np.iinfo(dt)
    with np.errstate(over="ignore"):        # float16's bound may be inf: still a bound
        hi, lo = src.type(float(info.max) + 1.0), src.type(float(info.min))
    over, under = bind(P.get("ge"), x, hi), bind(P.get("lt"), x, lo)
    either = P.get("or")
    bad = bind(either, bind(P.get("is_nan"), x), bind(either, over, under))
    safe = bind(P.select, bad, src.type(0), x)
    out = bind(P.convert_element_type, safe, new_dtype=dt, weak_type=False)
    out = bind(P.select, over, dt.type(info.max), out)
    return bind(P.select, under, dt.type(info.min), out)


def warn_complex_to_real(dt) -> None:
    """Complex -> real keeps the real part; NumPy and JAX both warn, and so do we (once per
    trace under jit, as JAX does)."""
    warnings.warn(f"Casting complex values to real discards the imaginary part (to {dt})",
                  np.exceptions.ComplexWarning, stacklevel=4)


def reshape(x, shape, order="C"):
    """numpy.reshape. `order="F"` reads and writes the elements with the first index
    fastest (the reversed-axes C reshape of the transpose); "A" is refused, as in JAX (it
    depends on the memory layout, which traced arrays do not have)."""
    if order != "C":
        return _reshape_fortran(x, shape, order)
    x = operand(x)
    old = shape_of(x)
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    shape = list(static_shape(shape, "shape") if not _has_minus_one(shape) else
                 [int(d) for d in shape])
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension (-1) in a reshape")
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1]))
        size = int(np.prod(old))
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {tuple(shape)}")
        shape[shape.index(-1)] = size // known
    shape = tuple(shape)
    if shape == old:
        return x
    return bind(P.reshape, x, new_sizes=shape)


def _reshape_fortran(x, shape, order):
    if order != "F":
        raise NotImplementedError(f"reshape: order={order!r} is not supported; use order='C' "
                                  "or 'F'")
    x = operand(x)
    ndim = len(shape_of(x))
    flipped = x if ndim < 2 else bind(P.transpose, x, permutation=tuple(range(ndim))[::-1])
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    out = reshape(flipped, shape[::-1])
    n = len(shape_of(out))
    return out if n < 2 else bind(P.transpose, out, permutation=tuple(range(n))[::-1])


def _has_minus_one(shape) -> bool:
    return isinstance(shape, (tuple, list)) and any(
        isinstance(d, (int, np.integer)) and d == -1 for d in shape) or \
        (isinstance(shape, (int, np.integer)) and shape == -1)


def py_scalar_like(value, dtype):
    """A strongly typed NumPy scalar of `dtype` (not weak, unlike a Python number)."""
    return np.dtype(dtype).type(value)
