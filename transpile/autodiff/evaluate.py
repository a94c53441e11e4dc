"""Running an IR's equations by binding them again on the current trace (or eagerly): how a
transformation emits the parts of a program it leaves unchanged."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of, bind, current_trace, trace_stack
from ..ir import Literal
from ..primitives import AUTODIFF_MARKERS
from ..tracing import equations_from


def literal_value(lit: Literal):
    """A literal as an operand with its exact aval: weak literals as Python numbers, others as
    NumPy scalars of their dtype."""
    a = lit.aval
    if a.weak_type:
        value = dtypes.python_scalar_type(a.dtype)(lit.value)
        if aval_of(value) == a:
            return value
    return np.asarray(lit.value, dtype=a.dtype)[()]


def reader(env: dict):
    def read(atom):
        return literal_value(atom) if isinstance(atom, Literal) else env[atom]
    return read


def differentiating() -> bool:
    """Is a differentiating transformation tracing (anywhere on this thread's stack)? Only
    then are the differentiation markers recorded; otherwise they are replaced at once."""
    return any(getattr(t, "differentiating", False) for t in trace_stack())


def linearizing() -> bool:
    """Is the current trace a JVP being traced for linearization (reverse mode)?"""
    trace = current_trace()
    return trace is not None and getattr(trace, "linearizing", False)


def bind_eqn(eqn, args) -> list:
    """Bind `eqn`'s primitive on `args` with its params; always a list of outputs."""
    with equations_from(eqn.source):
        if eqn.prim.name in AUTODIFF_MARKERS and not differentiating():
            return inline_marker(eqn, args)
        out = bind(eqn.prim, *args, **eqn.params)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def inline_marker(eqn, args) -> list:
    """A differentiation marker outside any differentiation: its plain value."""
    name = eqn.prim.name
    if name == "stop_gradient":
        return [args[0]]
    if name in ("custom_jvp_call", "custom_vjp_call"):
        return eval_ir(eqn.params["call"], [], args)
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function: "
                    "differentiate it in reverse mode (grad, vjp, jacrev) instead")


def eval_ir(ir, consts, args) -> list:
    """The outputs of `ir` on `args`, its equations bound on the current trace."""
    env = dict(zip(ir.constvars, consts))
    env.update(zip(ir.invars, args))
    read = reader(env)
    for eqn in ir.eqns:
        env.update(zip(eqn.outputs, bind_eqn(eqn, [read(a) for a in eqn.inputs])))
    return [read(a) for a in ir.outvars]
