"""Abstract values, primitives, tracers and the trace that records them.

A `Tracer` stands for an array whose shape and dtype are known but whose values
are not. Every operation on tracers goes through `bind`, which either records an
equation into the active `Trace` or, outside any trace, runs the primitive
eagerly on NumPy so that un-jitted code works unchanged.
"""
from __future__ import annotations

import dataclasses
import math
import operator
import threading

import numpy as np

from . import dtypes
from .eager_array import EagerArray, WeakEagerArray, register_aval_of
from .errors import ConcretizationError, UnexpectedTracerError, user_location, user_subscript


@dataclasses.dataclass(frozen=True)
class ShapedArray:
    shape: tuple[int, ...]
    dtype: np.dtype
    weak_type: bool = False

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def str_short(self) -> str:
        return f"{dtypes.short_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def strong(self) -> "ShapedArray":
        return ShapedArray(self.shape, self.dtype, False)

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.dtype}[{','.join(map(str, self.shape))}]{weak})"


class Primitive:
    """A named operation. Its meaning lives in the rule tables keyed by it."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        return bind(self, *args, **params)


# ---------------------------------------------------------------------------------------------
# Abstract values of concrete Python / NumPy objects

_PY_SCALARS = (bool, int, float, complex)


def is_python_scalar(x) -> bool:
    return type(x) in _PY_SCALARS


def aval_of(x) -> ShapedArray:
    """The abstract value of a tracer, a Python scalar (weak) or a NumPy array/scalar."""
    if isinstance(x, Tracer):
        return x.aval
    if type(x) in _PY_SCALARS:
        return ShapedArray((), dtypes.default_for_python_type(type(x)), type(x) is not bool)
    if isinstance(x, (np.ndarray, np.generic)):
        # (a weak eager value made under JAX's rules is strong again under NumPy's)
        return ShapedArray(tuple(x.shape), dtypes.canonicalize(x.dtype, what="array dtype"),
                           type(x) is WeakEagerArray and dtypes.config._token != "")
    raise TypeError(f"{type(x).__name__} {x!r:.60} is not an array or a number")


register_aval_of(aval_of)


# ---------------------------------------------------------------------------------------------
# Tracers

class Tracer:
    """A value seen by traced code: shape and dtype are concrete, the values are not.

    `deps` names the traced arguments this value was computed from, so that a
    ConcretizationError can say which argument to make static.

    `concrete` is the value itself where it is known: an eager differentiation (`grad(f)(x)`
    outside jit) traces `f` with its arguments' values, as JAX's eager `grad` does, so
    Python control flow on them works (see tracing.Trace.concrete).
    """
    __array_priority__ = 1000
    __slots__ = ("aval", "_trace", "_var", "deps", "source", "virtually_strong", "concrete")

    def __init__(self, aval: ShapedArray, trace, var, deps: frozenset, source: str = ""):
        self.aval, self._trace, self._var, self.deps = aval, trace, var, deps
        self.source = source          # where it was created, for leaked-tracer errors
        self.virtually_strong = False     # see strength.py
        self.concrete = None

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object (a 0-d traced array)")
        return self.shape[0]

    def __repr__(self):
        return f"Traced<{self.aval.str_short()}>"

    __str__ = __repr__

    def __format__(self, spec):
        return format(repr(self), spec)

    def __hash__(self):
        raise TypeError(f"{self!r} is unhashable: traced arrays cannot be dict keys or static "
                        "arguments")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d traced array")
        return (self[i] for i in range(self.shape[0]))

    # Concretization: these need the values, which a tracer has only where they are known.
    # As JAX's eager grad, a known value decides Python control flow (bool, int, index,
    # item), while a conversion to a float or a NumPy array, which would silently drop the
    # derivative, stays an error for a value computed from a differentiated argument.
    def _concretize(self, what: str, keeps_derivative: bool = True):
        if self.concrete is None or (self.deps and not keeps_derivative):
            raise ConcretizationError(concretization_message(self, what))
        return np.asarray(self.concrete)

    def __bool__(self): return bool(self._concretize("bool"))
    def __int__(self): return int(self._concretize("int"))
    def __float__(self): return float(self._concretize("float", False))
    def __complex__(self): return complex(self._concretize("complex", False))
    def __index__(self): return operator.index(self._concretize("index")[()])
    def item(self, *args): return self._concretize("item").item(*args)
    def tolist(self): return self._concretize("tolist", False).tolist()

    def __array__(self, dtype=None, copy=None):
        value = self._concretize("numpy.asarray", False)
        return value if dtype is None else value.astype(dtype)

    def __setitem__(self, index, value):
        raise TypeError(f"{self!r} is a traced array: traced arrays are immutable and do not "
                        "support in-place item assignment. Instead of x[idx] = y, use "
                        "x = x.at[idx].set(y) or another .at[] method (add, multiply, min, max)")


def concretization_message(tracer: Tracer, what: str) -> str:
    trace = tracer._trace
    lines = [f"Abstract tracer value encountered where concrete value is expected: {tracer!r} "
             f"was passed to `{what}()` at {user_location()}."]
    fun_desc = trace.function_description if trace is not None else "the traced function"
    names = sorted(tracer.deps)
    if names:
        quoted = ", ".join(f"'{n}'" for n in names)
        plural = "s" if len(names) > 1 else ""
        lines.append(f"This value depends on the traced argument{plural} {quoted} of {fun_desc}, "
                     "whose value is not known while tracing.")
        static = ", ".join(f"'{n}'" for n in names)
        fun_name = getattr(trace, "function_name", "f")
        lines.append(f"Fix: if {quoted} is a Python scalar that takes few values, mark it static: "
                     f"jit({fun_name}, static_argnames=[{static}]). To choose between array values use "
                     "tnp.where or lax.cond; for a loop on a traced bound use lax.while_loop or "
                     "lax.fori_loop.")
    else:
        lines.append(f"This value was computed while tracing {fun_desc}. Use tnp.where or "
                     "lax.cond instead of Python control flow on traced values.")
    subscript = user_subscript() if what in ("numpy.asarray", "index") else None
    if subscript is not None or what == "numpy.asarray":
        lines.append(_numpy_conversion_hint(subscript))
    return "\n".join(lines)


def _numpy_conversion_hint(subscript: str | None) -> str:
    """NumPy asked for the value: say what to write instead of the NumPy call or index."""
    if subscript == "read":
        return ("A NumPy array indexed with a traced value needs the index now: make the "
                "array a transpile one, tnp.asarray(a)[i] (arrays made by transpile.numpy and "
                "jit arguments index with traced values).")
    if subscript == "write":
        return ("A NumPy array cannot be updated at a traced index or with a traced value: "
                "write a = tnp.asarray(a).at[i].set(v) (a new array; the old one is kept).")
    return ("NumPy needs concrete values here (np.asarray, np.array, a NumPy array's method): "
            "use transpile.numpy (tnp.asarray(x), tnp.array([...])) on traced values.")


# ---------------------------------------------------------------------------------------------
# The trace stack and bind

class _TraceState(threading.local):
    """Per thread: two threads tracing at once must never see each other's traces."""

    def __init__(self):
        self.stack: list = []


_state = _TraceState()
# Every trace active in any thread: an empty list tells the per-call path, at the cost of
# one global lookup, that no thread is tracing, before it asks the thread-local state.
active_traces: list = []


def trace_stack() -> list:
    """This thread's stack of active traces (innermost last)."""
    return _state.stack


def current_trace():
    stack = _state.stack
    return stack[-1] if stack else None


class trace_context:
    """Make `trace` the one `bind` records into, for the duration of a with-block."""

    def __init__(self, trace):
        self.trace = trace

    def __enter__(self):
        _state.stack.append(self.trace)
        active_traces.append(self.trace)
        return self.trace

    def __exit__(self, *exc):
        _state.stack.pop()
        active_traces.remove(self.trace)
        self.trace.closed = True


def check_tracer_is_live(t: Tracer, trace) -> None:
    live = not t._trace.closed and trace is not None and trace.is_within(t._trace)
    if not live:
        created = f" ({t.source})" if t.source else ""
        raise UnexpectedTracerError(
            f"Encountered an unexpected tracer {t!r}{created}: it was created while tracing "
            f"{t._trace.function_description} and escaped that trace (stored in a global, a "
            f"closure or an outer list). Return values from the traced function instead of "
            f"saving them; it was used at {user_location()}.")


# Two things core needs belong to higher layers: evaluating a primitive outside any trace
# (rules/impl.py's table) and turning a nested list into an array (transpile.numpy.array, which
# may stack tracers). Each registers itself here when imported, so that this module imports
# nothing above it (transpile/__init__.py imports both before any user code runs).
_layers = {"eager": None, "list_to_array": None}


def register_eager_evaluator(apply) -> None:
    """`apply(prim, args, params)` computes a primitive on concrete values (eager mode)."""
    _layers["eager"] = apply


def register_list_converter(convert) -> None:
    """`convert(nested_list)` makes one array (or tracer) of a list operand."""
    _layers["list_to_array"] = convert


def _layer(name: str):
    fn = _layers[name]
    if fn is None:
        raise RuntimeError(f"transpile.core used before its {name!r} layer was imported: "
                           "import transpile (not transpile.core alone)")
    return fn


def bind(prim: Primitive, *args, **params):
    trace = current_trace()
    if trace is None:
        for a in args:
            if isinstance(a, Tracer):
                check_tracer_is_live(a, None)
        return _layer("eager")(prim, args, params)
    return trace.record(prim, args, params)


def ensure_operand(x, what: str = "operand"):
    """Accept tracers, numbers and NumPy arrays; convert lists/tuples and other libraries'
    arrays; reject the rest."""
    if isinstance(x, (Tracer, np.ndarray, np.generic)) or type(x) in _PY_SCALARS:
        return x
    if isinstance(x, (list, tuple)):
        return _layer("list_to_array")(x)
    for base in (bool, int, float, complex):   # subclasses such as IntEnum become plain numbers
        if isinstance(x, base):
            return base(x)
    if hasattr(x, "__jax_array__"):             # JAX's protocol for array-like objects
        return ensure_operand(x.__jax_array__(), what)
    if is_foreign_array(x):
        return foreign_to_host(x)
    raise TypeError(f"{what} of type {type(x).__name__} is not an array: expected a transpile or "
                    "NumPy array, a Python number, or a (nested) list of them")


def is_foreign_array(x) -> bool:
    """Another library's array (a JAX array, ...): not NumPy's, but with `__array__`, a
    shape and a dtype, so NumPy can copy it to the host."""
    return (hasattr(x, "__array__") and hasattr(x, "dtype") and hasattr(x, "shape")
            and not isinstance(x, (np.ndarray, np.generic, Tracer)))


def foreign_to_host(x):
    """A foreign array as an eager array (NumPy's copy of it). Its weak type, where it says
    it has one (`x.weak_type`, as JAX's arrays do and as JAX itself reads it), is kept under
    JAX's dtype rules."""
    try:
        host = np.asarray(x)
    except Exception as e:        # (a JAX tracer refuses: its values are not known)
        raise TypeError(f"operand of type {type(x).__name__} is not an array transpile can "
                        f"read: copying it to NumPy failed ({type(e).__name__}: "
                        f"{str(e)[:200]})") from e
    weak = dtypes.config._token and getattr(x, "weak_type", False) is True
    return host.view(WeakEagerArray if weak else EagerArray)

