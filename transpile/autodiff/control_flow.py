"""Differentiating lax control flow: `cond`/`switch`, `scan`, `fori_loop` (for_loop) and
`while_loop`.

Forward mode (jvp) turns each into one equation of the same kind computing values and
tangents together: a cond whose branches are JVPs, a loop carrying tangents beside values.
When linearizing (reverse mode, linearize, jacfwd), `cond` and `scan` (and a `fori_loop`
whose trip count is known while tracing, run as a scan) are linearized region by region
instead: each branch or body is linearized on its own (linearize.py) and the equation becomes
two, a primal one computing the outputs and the residuals (per branch, or stacked per
iteration) and a linear one computing the tangents from them. Reverse mode transposes the
linear one (`cond_transpose`, `scan_transpose`: a scan transposes to a scan running the other
way). A `while_loop`, or a `fori_loop` with a traced bound, has no trip count to store
residuals for: reverse mode raises, as JAX does. Eagerly (no trace) the loops run in Python,
each step differentiated as it goes.
"""
from __future__ import annotations

import numpy as np

from .. import primitives as P
from ..core import aval_of, bind, current_trace
from ..ir import IR, Var
from ..tracing import trace_subfunction
from . import ops


class ReverseModeError(ValueError):
    """Reverse-mode differentiation of a loop whose trip count is not known while tracing
    (a ValueError, as JAX's)."""


WHILE_REVERSE_MESSAGE = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
    "dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop.")


def _linearizing() -> bool:
    from .evaluate import linearizing
    return linearizing()


def _region(fun, avals, what):
    """Trace `fun` (flat list -> flat list) as a region of the current trace."""
    ir, captured, _ = trace_subfunction(fun, list(avals), [frozenset()] * len(avals), what,
                                        described=fun)
    return ir, captured


def _merge(regions):
    """Regions (ir, captured) given the union of their captures as extra trailing invars."""
    union, index = [], {}
    for _, captured in regions:
        for c in captured:
            if id(c) not in index:
                index[id(c)] = len(union)
                union.append(c)
    merged = []
    for ir, captured in regions:
        n = len(ir.invars) - len(captured)
        own = {id(c): v for c, v in zip(captured, ir.invars[n:])}
        extra = [own.get(id(c)) or Var(c.aval) for c in union]
        merged.append(IR([], ir.invars[:n] + extra, ir.eqns, ir.outvars))
    return merged, union


def _inexact(aval) -> bool:
    from .jvp import has_tangent_space
    return has_tangent_space(aval)


def _linearize(ir, wrt, what):
    from .linearize import linearize_ir
    return linearize_ir(ir, [], wrt, what)


def _flags(tangents, avals):
    return [t is not None and _inexact(a) for t, a in zip(tangents, avals)]


# -- cond -----------------------------------------------------------------------------------

def cond_jvp(primals, tangents, *, branches):
    index, *operands = primals
    ts = tangents[1:]
    if current_trace() is None:              # eagerly: only the branch taken runs
        from .jvp import jvp_eval
        i = min(max(int(index), 0), len(branches) - 1)
        return jvp_eval(branches[i], [], operands, ts)
    wrt = _flags(ts, [v.aval for v in branches[0].invars])
    if not _linearizing():
        return _fused_cond_jvp(index, operands, ts, wrt, branches)
    lins = [_linearize(b, wrt, "a lax.cond branch") for b in branches]
    n_out = len(branches[0].outvars)
    out_mask = [any(lin.tangent_out[k] is not None for lin in lins) for k in range(n_out)]
    out_avals = [v.aval for v in branches[0].outvars]
    res_avals = [v.aval for lin in lins for v in lin.residual_vars]
    starts = np.cumsum([0] + [len(lin.residual_vars) for lin in lins]).tolist()

    def primal_branch(i):
        def run(args):
            outs, res = lins[i].forward(args)
            padded = [ops.zeros(a) for a in res_avals]
            padded[starts[i]:starts[i + 1]] = res
            return [ops.exact(o, a) for o, a in zip(list(outs) + padded, out_avals + res_avals)]
        return run
    avals = [aval_of(x) for x in operands]
    regions, captured = _merge([_region(primal_branch(i), avals, "a lax.cond branch")
                                for i in range(len(branches))])
    results = bind(P.cond, index, *operands, *captured, branches=tuple(regions))
    outs, residuals = results[:n_out], results[n_out:]
    t_in = [t for t, w in zip(ts, wrt) if w]
    t_avals = [a for a, w in zip(avals, wrt) if w]

    def linear_branch(i):
        def run(args):
            res, tangents = args[:len(res_avals)], args[len(res_avals):]
            touts = lins[i].apply(res[starts[i]:starts[i + 1]], tangents)
            return [ops.exact(ops.instantiate(t, a), a)
                    for t, a, m in zip(touts, out_avals, out_mask) if m]
        return run
    regions, captured = _merge([_region(linear_branch(i), res_avals + t_avals,
                                        "the tangent of a lax.cond branch")
                                for i in range(len(branches))])
    touts = bind(P.cond, index, *residuals, *t_in, *captured, branches=tuple(regions))
    it = iter(touts)
    return list(outs), [next(it) if m else None for m in out_mask]


def cond_transpose(cts, args, *, branches):
    from .transpose_rules import is_linear
    index, *operands = args
    cts = cts if isinstance(cts, list) else [cts]
    out_avals = [v.aval for v in branches[0].outvars]
    cts = [ops.instantiate(c, a) for c, a in zip(cts, out_avals)]
    linear = [is_linear(a) for a in operands]
    known = [a for a in operands if not is_linear(a)]
    known_avals = [aval_of(a) for a in known]

    ct_targets = [a.aval for a in operands if is_linear(a)]

    def transposed(branch):
        def run(values):
            known_vals, ct_vals = values[:len(known)], values[len(known):]
            in_cts = transpose_linear_ir(branch, linear, known_vals, ct_vals)
            return [ops.exact(c, a) for c, a in zip(in_cts, ct_targets)]
        return run
    ct_avals = [aval_of(c) for c in cts]
    regions, captured = _merge([_region(transposed(b), known_avals + ct_avals,
                                        "the transpose of a lax.cond branch")
                                for b in branches])
    results = bind(P.cond, index, *known, *cts, *captured, branches=tuple(regions))
    it = iter(results)
    return [None] + [next(it) if lin else None for lin in linear]


def transpose_linear_ir(ir, linear, known_values, cts) -> list:
    """Cotangents (instantiated) of the invars of linear IR `ir` flagged in `linear`, from
    those of its outputs; the other invars take `known_values`, in order."""
    from .evaluate import bind_eqn, reader
    from .transpose import backward_pass
    lin_vars = {v for v, f in zip(ir.invars, linear) if f}
    env = dict(zip([v for v, f in zip(ir.invars, linear) if not f], known_values))
    read = reader(env)
    linear_eqns = []
    for eqn in ir.eqns:
        if any(isinstance(a, Var) and a in lin_vars for a in eqn.inputs):
            linear_eqns.append(eqn)
            lin_vars.update(eqn.outputs)
        else:
            env.update(zip(eqn.outputs, bind_eqn(eqn, [read(a) for a in eqn.inputs])))
    targets = [v for v, f in zip(ir.invars, linear) if f]
    in_cts = backward_pass(linear_eqns, lin_vars, env, targets, ir.outvars, cts)
    return [ops.instantiate(c, v.aval) for c, v in zip(in_cts, targets)]


def _tangent_list(mask, given):
    it = iter(given)
    return [next(it) if m else None for m in mask]


def _fused_cond_jvp(index, operands, ts, wrt, branches):
    """Forward mode: one cond whose branches compute values and tangents together."""
    from .jvp import jvp_eval
    out_avals = [v.aval for v in branches[0].outvars]
    masks = [_tangent_mask(b, wrt) for b in branches]
    union = [any(m[k] for m in masks) and _inexact(a) for k, a in enumerate(out_avals)]
    avals = [aval_of(x) for x in operands]
    t_avals = [a for a, w in zip(avals, wrt) if w]

    def branch(b):
        def run(args):
            outs, touts = jvp_eval(b, [], args[:len(avals)],
                                   _tangent_list(wrt, args[len(avals):]))
            return [ops.exact(o, a) for o, a in zip(outs, out_avals)] + [
                ops.exact(ops.instantiate(t, a), a)
                for t, a, m in zip(touts, out_avals, union) if m]
        return run
    regions, captured = _merge([_region(branch(b), avals + t_avals, "a lax.cond branch")
                                for b in branches])
    t_in = [t for t, w in zip(ts, wrt) if w]
    results = bind(P.cond, index, *operands, *t_in, *captured, branches=tuple(regions))
    n = len(out_avals)
    return list(results[:n]), _tangent_list(union, results[n:])


def _tangent_mask(ir, wrt) -> list:
    """Which outputs of `ir` get a tangent from tangents of the invars flagged in `wrt`
    (traced on the side, nothing emitted)."""
    from ..core import trace_context
    from ..tracing import Trace
    from .jvp import jvp_eval
    trace = Trace("a tangent probe", "probe")
    with trace_context(trace):
        primals = [trace.new_argument(v.aval, "x") for v in ir.invars]
        tangents = [trace.new_argument(v.aval, "t") if w else None
                    for v, w in zip(ir.invars, wrt)]
        _, touts = jvp_eval(ir, [], primals, tangents)
    return [t is not None for t in touts]
