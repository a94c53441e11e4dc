"""Replaying an IR under differentiation: `ir_eval`'s replay, with the differentiation
markers (stop_gradient, custom_jvp/custom_vjp calls) replaced by their plain values wherever
nothing is differentiating, and the questions the rules ask of the trace stack."""
from __future__ import annotations

from ..core import current_trace, trace_stack
from ..ir_eval import bind_equation, literal_value, reader
from ..ir_eval import eval_ir as _replay
from ..primitives import AUTODIFF_MARKERS

__all__ = ["bind_eqn", "differentiating", "eval_ir", "linearizing", "literal_value", "reader"]


def differentiating() -> bool:
    """Is a differentiating transformation tracing (anywhere on this thread's stack)? Only
    then are the differentiation markers recorded; otherwise they are replaced at once."""
    return any(getattr(t, "differentiating", False) for t in trace_stack())


def linearizing() -> bool:
    """Is the current trace a JVP being traced for linearization (reverse mode)?"""
    trace = current_trace()
    return trace is not None and getattr(trace, "linearizing", False)


def bind_eqn(eqn, args) -> list:
    """Bind `eqn` on `args` (see `ir_eval.bind_equation`); a differentiation marker outside
    any differentiation is replaced by its plain value."""
    if eqn.prim.name in AUTODIFF_MARKERS and not differentiating():
        return inline_marker(eqn, args)
    return bind_equation(eqn, args)


def inline_marker(eqn, args) -> list:
    """A differentiation marker outside any differentiation: its plain value."""
    name = eqn.prim.name
    if name == "stop_gradient":
        return [args[0]]
    if name in ("custom_jvp_call", "custom_vjp_call"):
        return eval_ir(eqn.params["call"], [], args)
    forward = eqn.params.get("forward")
    if name == "custom_vjp_lin" and forward is not None:   # a checkpoint's linear part
        n = eqn.params["n_residuals"]
        return forward(list(args[:n]), list(args[n:]))
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function: "
                    "differentiate it in reverse mode (grad, vjp, jacrev) instead")


def eval_ir(ir, consts, args) -> list:
    """The outputs of `ir` on `args`, its equations bound on the current trace (markers
    replaced where nothing differentiates)."""
    return _replay(ir, consts, args, bind_eqn=bind_eqn)
