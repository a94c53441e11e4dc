"""Array creation. Sizes are always static; values may be traced (array of tracers)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind, current_trace
from ._util import astype, broadcast_to, operand, py_scalar_like, static_shape


def _check_host_array(a: np.ndarray, what: str) -> np.ndarray:
    if a.dtype.kind in "OSUV":
        raise TypeError(f"{what} has dtype {a.dtype} (object or string data); transpile arrays "
                        "hold booleans, integers or floats")
    if a.dtype not in dtypes.SUPPORTED:
        raise TypeError(f"{what} has dtype {a.dtype}, which transpile does not support")
    return a


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
    dt = None if dtype is None else dtypes.canonicalize(dtype)
    host = np.array(object, dtype=dt, copy=copy) if copy else np.asarray(object, dtype=dt)
    if host.dtype == np.float16:
        host = host.astype(np.float32)
    return _check_host_array(host, "array()")


def asarray(a, dtype=None):
    return array(a, dtype=dtype, copy=False)


def _stack_nested(obj, dtype):
    from ._shape import stack
    items = [_stack_nested(o, None) if isinstance(o, (list, tuple)) else operand(o) for o in obj]
    avals = [aval_of(i) for i in items]
    dt = dtypes.canonicalize(dtype) if dtype is not None else dtypes.result_type(
        [a.dtype for a in avals], [False] * len(avals))
    return stack([astype(i, dt) for i in items])


def full(shape, fill_value, dtype=None):
    shape = static_shape(shape)
    if isinstance(fill_value, Tracer) or (not np.isscalar(fill_value)
                                          and np.ndim(fill_value) > 0):
        value = operand(fill_value)
        value = value if dtype is None else astype(value, dtype)
        return broadcast_to(value, shape)
    dt = dtypes.canonicalize(dtype) if dtype is not None else \
        dtypes.canonicalize(np.asarray(fill_value).dtype)
    if current_trace() is None:
        return np.full(shape, fill_value, dtype=dt)
    return bind(P.broadcast_in_dim, py_scalar_like(fill_value, dt), shape=shape,
                broadcast_dimensions=())


def zeros(shape, dtype=float):
    return full(shape, 0, dtypes.canonicalize(dtype))


def ones(shape, dtype=float):
    return full(shape, 1, dtypes.canonicalize(dtype))


def empty(shape, dtype=float):
    return zeros(shape, dtype)


def _like(x, dtype, shape):
    aval = aval_of(operand(x))
    return (aval.dtype if dtype is None else dtype), (aval.shape if shape is None else shape)


def zeros_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return zeros(sh, dt)


def ones_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return ones(sh, dt)


def empty_like(a, dtype=None, shape=None):
    return zeros_like(a, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape)
    return full(sh, fill_value, dt)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values. Bounds are static, so the result is a constant (as NumPy's)."""
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Tracer):
            raise TypeError(f"arange: '{name}' is traced, but the length of the result must be "
                            f"known while tracing; pass a Python number (mark it static)")
    args = [a for a in (start, stop, step) if a is not None]
    dt = None if dtype is None else dtypes.canonicalize(dtype)
    return _check_host_array(np.arange(*args, dtype=dt), "arange()")


def eye(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    dt = dtypes.canonicalize(dtype)
    if current_trace() is None:
        return np.eye(N, M, k, dtype=dt)
    shape = static_shape((N, M))
    rows = bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=0)
    cols = bind(P.iota, dtype=dtypes.int64, shape=shape, dimension=1)
    from ._elementwise import add, equal
    return astype(equal(add(rows, k), cols), dt)


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


