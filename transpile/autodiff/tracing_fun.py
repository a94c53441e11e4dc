"""Tracing the function a transformation differentiates into a closed IR."""
from __future__ import annotations

import numpy as np

from ..core import current_trace, trace_context
from ..errors import describe_function
from ..ir import IR
from ..tracing import Trace


def trace_to_ir(flat_fun, avals, names, described, values=None):
    """Trace `flat_fun` (a flat list of tracers -> a flat list of outputs) in a child of
    the current trace, marked as differentiating (so `stop_gradient` and custom rules are
    recorded, see evaluate.differentiating).

    Returns (ir, consts, captured): the IR's invars are the arguments followed by the
    values it captured from enclosing traces (`captured`, tracers of those traces); its
    constvars hold `consts` when there is no enclosing trace.

    `values` (the arguments' values, with no enclosing trace only) makes the trace
    evaluate as it records, so the function may use its values in Python (`if x > 0`),
    as under JAX's eager grad; the IR is then valid for these values only.
    """
    parent = current_trace()
    name = getattr(described, "__name__", "f")
    trace = Trace(describe_function(described), name if str(name).isidentifier() else "f",
                  parent)
    trace.differentiating = True
    trace.concrete = values is not None
    with trace_context(trace):
        args = [trace.new_argument(a, n) for a, n in zip(avals, names)]
        if trace.concrete:
            for arg, value in zip(args, values):
                arg.concrete = np.asarray(value, dtype=arg.aval.dtype)
        outs = flat_fun(args)
        outvars = [trace.to_atom(o) for o in outs]
    captured = [outer for outer, _ in trace.captures]
    invars = list(trace.invars) + [var for _, var in trace.captures]
    if parent is None:
        return IR(list(trace.constvars), invars, trace.eqns, outvars), list(trace.consts), []
    return IR([], invars, trace.eqns, outvars), [], captured
