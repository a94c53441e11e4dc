"""Virtually strong values: results of `transpile.numpy` functions applied to weak values.

NumPy 2 keeps Python scalars weak only *as operands*: `np.sqrt(2.0)` or `np.where(c, 2, 3)`
is a strongly typed float64/int64, while `2.0 * s` on Python floats stays a Python float.
Under tracing both are weakly typed avals. Rather than change those avals (which would add a
cast to every program that uses such a value, and change its printed IR), a function's
weak result is *marked* virtually strong; `Trace.record` then inserts the weak->strong cast
only in the equations where treating the value as strong changes NumPy's loop or result.
Operators propagate the mark: a value computed from a marked one is marked too.
"""
from __future__ import annotations

import functools

import numpy as np

from . import dtypes
from .core import Tracer, aval_of
from .eager_array import as_weak, eager
from .primitives import CONTROL_FLOW, ELEMENTWISE_UFUNC


def is_marked(x) -> bool:
    return isinstance(x, Tracer) and x.virtually_strong and x.aval.weak_type


def marked(x):
    """`x` (a tracer, or a tuple/list of them) with weak tracers marked, as fresh tracers:
    the input itself may be a weak argument that must stay weak for the operators."""
    if isinstance(x, (tuple, list)):
        parts = [marked(o) for o in x]
        # a named tuple (unique_all's result) takes its fields as separate arguments
        return type(x)(*parts) if hasattr(x, "_fields") else type(x)(parts)
    if type(x) in (int, float, complex):   # returned unchanged (positive(7)): NumPy's is strong
        if dtypes.config.jax_rules():      # JAX's: a weak array of the default width
            return as_weak(np.asarray(x, dtypes.default_for_python_type(type(x))))
        return np.asarray(x)[()]
    # JAX's functions keep a weak operand's weak type (jnp.sin(2.0), jnp.where(c, x, 0.0),
    # jnp.array(x) on a Python-float argument times a float32 array are float32): nothing
    # to mark under its rules.
    if isinstance(x, Tracer) and x.aval.weak_type and not dtypes.config.jax_rules():
        out = Tracer(x.aval, x._trace, x._var, x.deps, x.source)
        out.virtually_strong = True
        out.concrete = x.concrete
        return out
    # Eagerly, a NumPy array result becomes an EagerArray (eager_array.py), also where the
    # function made it without `bind` (creation functions, an input returned unchanged).
    return eager(x)


def strong_results(fn):
    """Wrap a `transpile.numpy` function (or method) so that its weak results are marked
    (and, eagerly, its array results have `.at`)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return marked(fn(*args, **kwargs))
    return wrapper


def strengthen_where_it_matters(trace, prim, args, params):
    """(args, mark the result?) for one equation: a marked operand is cast to its strong type
    when NumPy's loop or result for this primitive would differ if it were strong."""
    flags = [is_marked(a) for a in args]
    if not any(flags) or prim.name in CONTROL_FLOW:
        return args, any(flags)
    avals = [aval_of(a) for a in args]
    strong = [a.strong() if f else a for a, f in zip(avals, flags)]
    if _typing_or_refusal(prim.name, avals, params) == _typing(prim.name, strong, params):
        return args, True
    cast = trace.record_plain
    return [cast(_CONVERT, [a], {"new_dtype": a.aval.dtype, "weak_type": False}) if f else a
            for a, f in zip(args, flags)], True


def _typing_or_refusal(name, avals, params):
    """The typing, or None where the weak typing is refused (int8 with a weak int in
    logaddexp computes in float16) but the strong one may not be."""
    try:
        return _typing(name, avals, params)
    except dtypes.DTypeError:
        return None


def _typing(name, avals, params):
    """What a primitive's typing decides for these operands: compute and result dtypes."""
    from .rules.abstract import abstract_rules
    if name in ELEMENTWISE_UFUNC:
        return dtypes.ufunc_loop(ELEMENTWISE_UFUNC[name], [a.dtype for a in avals],
                                 [a.weak_type for a in avals])
    out = abstract_rules[name](*avals, **params)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return tuple(o.dtype for o in outs)


from .primitives import convert_element_type as _CONVERT   # noqa: E402  (after the helpers)
