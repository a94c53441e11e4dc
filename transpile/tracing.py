"""Turning a Python function into IR by running it on tracers."""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from . import primitives as P
from .core import Tracer, aval_of, check_tracer_is_live, trace_context
from .errors import describe_function, user_frame
from .ir import IR, Eqn, Literal, SourceInfo, Var
from .rules.abstract import abstract_rules
from .strength import marked, strengthen_where_it_matters


class Trace:
    """Records the equations bound while one function is traced.

    A trace may have a parent: the body of a `lax` loop or branch is traced in a child
    trace. Tracers of enclosing traces used inside it (closures) are lifted into the child
    as extra inputs, recorded in `captures`, so that the child IR is closed.
    """

    def __init__(self, function_description: str, function_name: str = "f", parent=None):
        self.function_description = function_description
        self.function_name = function_name
        self.parent = parent
        self.captures: list[tuple[Tracer, Var]] = []     # (tracer of the parent, our invar)
        self._captured_ids: dict[int, Tracer] = {}
        self.eqns: list[Eqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.consts: list[np.ndarray] = []
        self._const_ids: dict[int, Var] = {}
        self._const_sources: list[np.ndarray] = []   # keeps each id unique while tracing
        self.closed = False
        # Evaluate each equation as it is recorded, where its inputs' values are known
        # (set by an eager differentiation, see Tracer.concrete).
        self.concrete = False

    def new_argument(self, aval, name: str, deps=None) -> Tracer:
        var = Var(aval)
        self.invars.append(var)
        return Tracer(aval, self, var, frozenset([name]) if deps is None else deps,
                      f"argument '{name}'")

    def is_within(self, other) -> bool:
        """Is `other` this trace or one of its enclosing traces?"""
        t = self
        while t is not None:
            if t is other:
                return True
            t = t.parent
        return False

    def lift(self, x: Tracer) -> Tracer:
        """`x` as a tracer of this trace (capturing it from an enclosing trace if needed)."""
        if x._trace is self:
            return x
        if x._trace.closed or not self.is_within(x._trace):
            check_tracer_is_live(x, self)       # raises: the tracer escaped its trace
        lifted = self._captured_ids.get(id(x))
        if lifted is None:
            outer = self.parent.lift(x)
            var = Var(x.aval)
            self.captures.append((outer, var))
            lifted = Tracer(x.aval, self, var, x.deps, x.source)
            lifted.virtually_strong = x.virtually_strong
            lifted.concrete = x.concrete
            self._captured_ids[id(x)] = lifted
        return lifted

    def to_atom(self, x):
        if isinstance(x, Tracer):
            return self.lift(x)._var
        aval = aval_of(x)
        if aval.shape == ():
            return Literal(np.asarray(x).item() if isinstance(x, np.ndarray) else x, aval)
        if self.parent is not None:        # array constants live in the outermost trace
            return self.lift(self.root()._const_tracer(np.asarray(x), aval))._var
        return self._constvar(np.asarray(x), aval)

    def constant(self, array: np.ndarray) -> Tracer:
        """A tracer of this trace standing for a concrete array (held by the outermost trace)."""
        return self.lift(self.root()._const_tracer(array, aval_of(array)))

    def root(self) -> "Trace":
        return self if self.parent is None else self.parent.root()

    def _const_tracer(self, array, aval) -> Tracer:
        tracer = Tracer(aval, self, self._constvar(array, aval), frozenset(), "a constant")
        tracer.concrete = array
        return tracer

    def _constvar(self, array: np.ndarray, aval) -> Var:
        var = self._const_ids.get(id(array))
        if var is None:
            var = Var(aval)
            self._const_ids[id(array)] = var
            self.constvars.append(var)
            self._const_sources.append(array)
            # The value as its aval says: under JAX's rules without x64 an int64 array is an
            # int32 constant, and backends take the value's bytes as the aval's dtype
            # (autodiff's slice transpose captured int64 positions: scattered to wrong places)
            if array.dtype != aval.dtype:
                array = array.astype(aval.dtype)
            self.consts.append(array)
        return var

    def record(self, prim, args, params):
        """Record one equation; returns a tracer, or a list of them for multi-output ones."""
        args, mark = strengthen_where_it_matters(self, prim, args, params)
        out = self.record_plain(prim, args, params)
        return marked(out) if mark else out

    def record_plain(self, prim, args, params):
        atoms = [self.to_atom(a) for a in args]
        out_aval = abstract_rules[prim.name](*(a.aval for a in atoms), **params)
        multiple = isinstance(out_aval, (list, tuple))
        outs = [Var(a) for a in (out_aval if multiple else [out_aval])]
        source = _source_info()
        self.eqns.append(Eqn(prim, atoms, params, outs, source))
        deps = frozenset().union(*(a.deps for a in args if isinstance(a, Tracer)))
        where = f"{prim.name} at {source}" if source else prim.name
        tracers = [Tracer(v.aval, self, v, deps, where) for v in outs]
        if self.concrete:
            _evaluate_known(prim, args, atoms, params, tracers)
        return tracers if multiple else tracers[0]

    def to_ir(self, outs) -> IR:
        outvars = [self.to_atom(o) for o in outs]    # first: may add constants
        return IR(list(self.constvars), list(self.invars), self.eqns, outvars)


def _known_value(arg, atom):
    if isinstance(arg, Tracer):
        return arg.concrete
    return atom.value if isinstance(atom, Literal) else arg


def _evaluate_known(prim, args, atoms, params, tracers):
    """Give `tracers` (one equation's outputs) their values when all inputs have one."""
    from .rules.impl import impl_rules
    values = [_known_value(a, atom) for a, atom in zip(args, atoms)]
    if any(v is None for v in values) or prim.name not in impl_rules or \
            prim.name in P.EFFECTS:          # (a print runs once, when the program runs)
        return
    try:
        result = impl_rules[prim.name]([atom.aval for atom in atoms], *values, **params)
    except Exception:       # (an error of the program shows when it runs, as without values)
        return
    results = result if len(tracers) > 1 or isinstance(result, list) else [result]
    for tracer, value in zip(tracers, results):
        tracer.concrete = np.asarray(value, dtype=tracer.aval.dtype)


class _SourceOverride(threading.local):
    source: SourceInfo | None = None


_override = _SourceOverride()


@contextlib.contextmanager
def equations_from(source: SourceInfo | None):
    """Record equations bound in this block as coming from `source`: a transformation
    (autodiff/) rebinding an equation keeps the user's line it came from, so the C of a
    derivative names the Python line it differentiates."""
    saved = _override.source
    _override.source = source
    try:
        yield
    finally:
        _override.source = saved


def _source_info() -> SourceInfo | None:
    if _override.source is not None:
        return _override.source
    frame = user_frame()
    if frame is None:
        return None
    return SourceInfo(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)


def trace_subfunction(fun, avals, deps, what: str, described=None):
    """Trace `fun` (taking and returning flat lists) in a child of the current trace.

    Returns (ir, outer tracers captured by the body, output tracers' deps). The IR's
    invars are the explicit arguments followed by the captured values.
    """
    from .core import current_trace
    parent = current_trace()
    described = described or fun
    trace = Trace(f"{what} {describe_function(described)}",
                  getattr(described, "__name__", "f"), parent)
    with trace_context(trace):
        args = [trace.new_argument(a, what, d) for a, d in zip(avals, deps)]
        outs = fun(args)
        outvars = [trace.to_atom(o) for o in outs]
        out_deps = frozenset().union(*(o.deps for o in outs if isinstance(o, Tracer)))
    trace.invars.extend(var for _, var in trace.captures)
    ir = IR([], trace.invars, trace.eqns, outvars)
    return ir, [outer for outer, _ in trace.captures], out_deps


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
