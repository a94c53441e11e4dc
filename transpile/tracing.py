"""Turning a Python function into IR by running it on tracers."""
from __future__ import annotations

import numpy as np

from .core import Tracer, aval_of, check_tracer_is_live, trace_context
from .errors import describe_function, user_frame
from .ir import IR, Eqn, Literal, SourceInfo, Var
from .rules.abstract import abstract_rules


class Trace:
    """Records the equations bound while one function is traced."""

    def __init__(self, function_description: str, function_name: str = "f"):
        self.function_description = function_description
        self.function_name = function_name
        self.eqns: list[Eqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.consts: list[np.ndarray] = []
        self._const_ids: dict[int, Var] = {}
        self.closed = False

    def new_argument(self, aval, name: str) -> Tracer:
        var = Var(aval)
        self.invars.append(var)
        return Tracer(aval, self, var, frozenset([name]))

    def to_atom(self, x):
        if isinstance(x, Tracer):
            check_tracer_is_live(x, self)
            return x.var
        aval = aval_of(x)
        if aval.shape == ():
            return Literal(np.asarray(x).item() if isinstance(x, np.ndarray) else x, aval)
        return self._constvar(np.asarray(x), aval)

    def _constvar(self, array: np.ndarray, aval) -> Var:
        var = self._const_ids.get(id(array))
        if var is None:
            var = Var(aval)
            self._const_ids[id(array)] = var
            self.constvars.append(var)
            self.consts.append(array)   # keeps the array alive, so its id stays unique
        return var

    def record(self, prim, args, params):
        atoms = [self.to_atom(a) for a in args]
        out_aval = abstract_rules[prim.name](*(a.aval for a in atoms), **params)
        out = Var(out_aval)
        self.eqns.append(Eqn(prim, atoms, params, [out], _source_info()))
        deps = frozenset().union(*(a.deps for a in args if isinstance(a, Tracer)))
        return Tracer(out_aval, self, out, deps)

    def to_ir(self, outs) -> IR:
        outvars = [self.to_atom(o) for o in outs]    # first: may add constants
        return IR(list(self.constvars), list(self.invars), self.eqns, outvars)


def _source_info() -> SourceInfo | None:
    frame = user_frame()
    if frame is None:
        return None
    return SourceInfo(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)


def trace_flat(fun, avals_and_names, function_for_messages=None):
    """Run `fun` on fresh tracers for `avals_and_names`; return (trace, outputs).

    `fun` takes the flat list of tracers and returns a flat list of outputs.
    """
    named = function_for_messages or fun
    name = getattr(named, "__name__", None) or getattr(getattr(named, "func", None),
                                                          "__name__", "f")
    trace = Trace(describe_function(named), name if name.isidentifier() else "f")
    with trace_context(trace):
        tracers = [trace.new_argument(aval, name) for aval, name in avals_and_names]
        outs = fun(tracers)
        ir = trace.to_ir(outs)
    return trace, ir
