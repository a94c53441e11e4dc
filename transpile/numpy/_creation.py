"""Array creation. Sizes are always static; values may be traced (array of tracers)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind, current_trace, register_list_converter
from ..eager_array import as_weak
from ..base.operands import (astype, broadcast_to, check_fits_default_int, operand,
                             py_scalar_like, static_shape, weak_like)


def _check_host_array(a: np.ndarray, what: str) -> np.ndarray:
    if a.dtype.kind in "OSUV" and not dtypes.is_bfloat16(a.dtype):
        raise TypeError(f"{what} has dtype {a.dtype} (object or string data); transpile arrays "
                        "hold booleans, integers or floats")
    if a.dtype not in dtypes.SUPPORTED:
        raise TypeError(f"{what} has dtype {a.dtype}, which transpile does not support")
    return a


def _canonical_host(values: np.ndarray) -> np.ndarray:
    """Host values in the dtype the rules in force store them in: unchanged under NumPy's
    rules; under JAX's without x64, int64/float64 become int32/float32 (as jnp.array does)."""
    dt = dtypes.canonicalize(values.dtype, what="array dtype")
    return values if dt == values.dtype else values.astype(dt)


def _contains_tracer(obj) -> bool:
    if isinstance(obj, Tracer):
        return True
    return isinstance(obj, (list, tuple)) and any(_contains_tracer(o) for o in obj)


def array(object, dtype=None, copy=True):
    """An array from nested lists of numbers or (traced) arrays, as numpy.array."""
    if isinstance(object, Tracer):
        return object if dtype is None else astype(object, dtype)
    if _contains_tracer(object):
        return _stack_nested(object, dtype)
    dt = None if dtype is None else dtypes.requested(dtype, "array")
    if dt is None and dtypes.config.jax_rules():
        check_fits_default_int(object)      # JAX's OverflowError, where NumPy would wrap
        if isinstance(object, (list, tuple)):
            dt = _jax_list_dtype(object)
        elif type(object) is int:
            dt = _jax_int_dtype(object)
    host = np.array(object, dtype=dt, copy=copy) if copy else np.asarray(object, dtype=dt)
    host = _canonical_host(_check_host_array(host, "array()"))
    return as_weak(host) if dtype is None and _weak_under_jax(object) else host


def _weak_under_jax(obj) -> bool:
    """JAX's jnp.array/asarray of a Python number (not a bool) or of a weakly typed array,
    with no dtype, is weakly typed: jnp.asarray(1.0) * float32_array is float32."""
    if not dtypes.config.jax_rules():
        return False
    return type(obj) in (int, float, complex) or bool(getattr(obj, "weak_type", False))


register_list_converter(array)


def _jax_int_dtype(value: int) -> np.dtype:
    """JAX's dtype for a Python int: the default int, which must hold it (NumPy would pick
    uint64 or object for a larger one)."""
    dt = dtypes.default_int()
    info = np.iinfo(dt)
    if not info.min <= value <= info.max:
        raise OverflowError(f"Python int {value} too large to convert to {dt.name}; pass "
                            "dtype='uint64' (values up to 2**64-1) or a float")
    return dt


def _jax_list_dtype(obj):
    """JAX's dtype for a nested list: its elements promoted by JAX's rules, Python numbers
    weakly (``[0, float16(1)]`` is float16, NumPy says float64); None for Python numbers
    alone (NumPy's answer is then JAX's). Raises JAX's errors for None and for Python ints
    beyond int64."""
    leaves, weaks, typed = [], [], False
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, (list, tuple)):
            stack.extend(o)
        elif o is None:
            raise ValueError("None is not a valid value for jnp.array")
        elif type(o) in (bool, int, float, complex):
            if type(o) is int and not -2**63 <= o < 2**64:
                raise OverflowError(f"Python int too large to convert to int64: {o}")
            leaves.append(np.asarray(o).dtype if type(o) is not int else np.dtype(np.int64))
            weaks.append(type(o) is not bool)
        elif hasattr(o, "dtype"):
            leaves.append(np.dtype(o.dtype))
            weaks.append(False)
            typed = True
        else:
            return None
    return dtypes.result_type(leaves, weaks) if typed else None


def asarray(a, dtype=None):
    return array(a, dtype=dtype, copy=False)


def _stack_nested(obj, dtype):
    from ._shape import stack
    items = [_stack_nested(o, None) if isinstance(o, (list, tuple)) else operand(o) for o in obj]
    avals = [aval_of(i) for i in items]
    # JAX promotes a list's weak elements weakly (jnp.array([x, 0]) of an int16 x is int16);
    # NumPy's array() of a list treats every element as typed.
    weaks = [a.weak_type for a in avals] if dtypes.config.jax_rules() else [False] * len(avals)
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.result_type(
        [a.dtype for a in avals], weaks)
    return stack([astype(i, dt) for i in items])


def full(shape, fill_value, dtype=None):
    shape = static_shape(shape)
    if isinstance(fill_value, Tracer) or (not np.isscalar(fill_value)
                                          and np.ndim(fill_value) > 0):
        value = operand(fill_value)
        value = value if dtype is None else astype(value, dtype)
        return broadcast_to(value, shape)
    dt = dtypes.requested(dtype, "full") if dtype is not None else \
        dtypes.canonicalize(np.asarray(fill_value).dtype)
    # JAX's full of a Python number with no dtype is weakly typed (full(3, 2.0) * x keeps x's
    # float32), eager or traced; NumPy's is strong.
    weak = dtype is None and dtypes.config.jax_rules() and type(fill_value) in (int, float,
                                                                                 complex)
    if current_trace() is None:
        filled = np.full(shape, fill_value, dtype=dt)
        return as_weak(filled) if weak else filled
    return bind(P.broadcast_in_dim, fill_value if weak else py_scalar_like(fill_value, dt),
                shape=shape, broadcast_dimensions=())


def _shape_hint(name, shape, dtype):
    """JAX's hint for `zeros(2, 3)` (the shape's second number taken as the dtype)."""
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        raise TypeError(f"Cannot interpret '{dtype}' as a data type.\n\nDid you accidentally "
                        f"write `jax.numpy.{name}({shape}, {dtype})` when you meant "
                        f"`jax.numpy.{name}(({shape}, {dtype}))`, i.e. with a single tuple "
                        "argument for the shape?")


def zeros(shape, dtype=float):
    _shape_hint("zeros", shape, dtype)
    return full(shape, 0, dtypes.requested(dtype, "zeros"))


def ones(shape, dtype=float):
    _shape_hint("ones", shape, dtype)
    return full(shape, 1, dtypes.requested(dtype, "ones"))


def empty(shape, dtype=float):
    _shape_hint("empty", shape, dtype)
    return zeros(shape, dtype)


def _is_spec(x) -> bool:
    """Any object with a shape and a dtype (jax.ShapeDtypeStruct) describes a *_like result,
    as in JAX."""
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (Tracer, np.ndarray))


def _like(x, dtype, shape):
    aval = x if _is_spec(x) else aval_of(operand(x))
    return (aval.dtype if dtype is None else dtype), (aval.shape if shape is None else shape)


def _weak_as(out, a, dtype):
    """JAX's *_like of a weakly typed value, given no dtype, is weakly typed too (of a shape
    and dtype spec: strong)."""
    if dtype is None and dtypes.config.jax_rules() and not _is_spec(a):
        return weak_like(out, operand(a))
    return out


def zeros_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return _weak_as(zeros(sh, dt), a, dtype)


def ones_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return _weak_as(ones(sh, dt), a, dtype)


def empty_like(a, dtype=None, shape=None):
    return zeros_like(a, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return _weak_as(full(sh, fill_value, dt), a, dtype)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values. Bounds are static (they fix the length); under jit the result
    is traced, as in JAX, so that `.at` and traced indexing work on it."""
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Tracer):
            raise TypeError(f"arange: '{name}' is traced, but the length of the result must be "
                            f"known while tracing; pass a Python number (mark it static)")
    args = [a for a in (start, stop, step) if a is not None]
    if any(np.iscomplexobj(a) for a in args):
        # NumPy takes the length from the real parts only; JAX 0.10 refuses, and so do we.
        raise ValueError("arange: complex start/stop/step are not supported (as in JAX "
                         "0.10): use tnp.arange(n) * step + start with a complex step")
    dt = None if dtype is None else dtypes.requested(dtype, "arange")
    values = _canonical_host(_check_host_array(np.arange(*args, dtype=dt), "arange()"))
    if values.size < 2:
        return _traced_sequence(values, None)
    first, delta = values[0], values[1] - values[0]      # NumPy's fill: first + i * delta
    return _traced_sequence(values, lambda m, i: i.astype(values.dtype) * delta + first)


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    for name, v in (("start", start), ("stop", stop), ("num", num)):
        if isinstance(v, Tracer):
            raise TypeError(f"linspace: '{name}' is traced; pass a Python number instead")
    dt = None if dtype is None else dtypes.requested(dtype, "linspace")
    values = _canonical_host(np.linspace(start, stop, num=num, endpoint=endpoint, dtype=dt))
    div = (num - 1) if endpoint else num
    if values.ndim != 1 or div <= 0:
        return _traced_sequence(values, None)
    step = (np.float64(stop) - np.float64(start)) / div

    def formula(m, i):                     # NumPy's: i * step + start, the end point exact
        y = i.astype(np.float64) * step + np.float64(start)
        if endpoint:
            y = m.where(i == num - 1, np.float64(stop), y)
        return (m.floor(y) if values.dtype.kind in "iu" else y).astype(values.dtype)
    return _traced_sequence(values, formula)


def _traced_sequence(values: np.ndarray, formula):
    """NumPy's `values` eagerly; under jit a traced array equal to them: `formula(m, i)` (m is
    numpy or transpile.numpy) of an iota where it reproduces NumPy's values bit for bit
    (checked here), else the values as a constant."""
    trace = current_trace()
    if trace is None:
        return values
    if formula is not None and dtypes.config.x64():
        # (Without 64 bits, JAX's rules narrow the formula's float64 steps: keep the values.)
        from .. import numpy as tnp
        with np.errstate(all="ignore"):
            expected = np.asarray(formula(np, np.arange(values.size)), dtype=values.dtype)
        if expected.tobytes() == values.tobytes():
            iota = bind(P.iota, dtype=dtypes.int64, shape=values.shape, dimension=0)
            return formula(tnp, iota)
    return trace.constant(values)


def eye(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    dt = dtypes.requested(dtype, "eye")
    if current_trace() is None:
        return np.eye(N, M, k, dtype=dt)
    shape = static_shape((N, M))
    rows = bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=0)
    cols = bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=1)
    from ._elementwise import add, equal
    if not isinstance(k, Tracer):      # beyond the matrix: no ones, and no int64 overflow
        from ._matrices import clamped_offset
        k = clamped_offset(k, *shape)
    return astype(equal(add(rows, k), cols), dt)


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


