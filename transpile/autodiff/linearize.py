"""Linearization: a function's JVP traced to IR, then split by dataflow from the tangent
inputs into primal equations (run forward, once) and linear tangent equations (run
forward for `linearize`/`jacfwd`, transposed for `vjp`/`grad`). What the tangent equations
read from the primal ones are the residuals, kept between the two passes."""
from __future__ import annotations

import dataclasses

from ..core import current_trace, trace_context
from ..ir import IR, Var
from ..passes.simplify import has_effect
from ..tracing import Trace
from .evaluate import bind_eqn, reader
from .jvp import has_tangent_space, jvp_eval
from .transpose import backward_pass


@dataclasses.dataclass
class Linearized:
    """The JVP of a traced function, split. `tangent_in` are the invars of the tangents of
    the inputs being differentiated; `tangent_out` the atoms of the output tangents (None
    where an output's tangent is zero)."""
    jvp_ir: IR
    consts: list
    n_primals: int
    primal_eqns: list
    linear_eqns: list
    linear_vars: set
    tangent_in: list
    tangent_out: list
    residual_vars: list
    wrt: list            # per primal input: is it differentiated (has a tangent input)?
    captured_vars: list  # variables standing for values of enclosing traces...
    captured: list       # ...and those values (what custom rules or constants closed over)

    def forward(self, primals):
        """Run the primal equations: (outputs, residuals)."""
        env = dict(zip(self.jvp_ir.constvars, self.consts))
        env.update(zip(self.captured_vars, self.captured))
        env.update(zip(self.jvp_ir.invars[:self.n_primals], primals))
        read = reader(env)
        for eqn in self.primal_eqns:
            env.update(zip(eqn.outputs, bind_eqn(eqn, [read(a) for a in eqn.inputs])))
        outs = [read(a) for a in self.jvp_ir.outvars[:len(self.tangent_out)]]
        return outs, [env[v] for v in self.residual_vars]

    def known(self, residuals) -> dict:
        return dict(zip(self.residual_vars, residuals))

    def transpose(self, residuals, cts):
        """Cotangents of the differentiated inputs (None where zero) from the outputs'."""
        outs = [a for a in self.tangent_out]
        present = [(a, c) for a, c in zip(outs, cts) if a is not None]
        return backward_pass(self.linear_eqns, self.linear_vars, self.known(residuals),
                             self.tangent_in, [a for a, _ in present], [c for _, c in present])

    def apply(self, residuals, tangents):
        """The output tangents (None where zero) for tangents of the differentiated inputs."""
        env = self.known(residuals)
        env.update(zip(self.tangent_in, tangents))
        read = reader(env)
        for eqn in self.linear_eqns:
            env.update(zip(eqn.outputs, bind_eqn(eqn, [read(a) for a in eqn.inputs])))
        return [None if a is None else read(a) for a in self.tangent_out]


def linearize_ir(ir: IR, consts, wrt: list[bool], description: str) -> Linearized:
    """Linearize `ir` with respect to the invars flagged in `wrt` (inexact ones only)."""
    avals = [v.aval for v in ir.invars]
    wrt = [w and has_tangent_space(a) for w, a in zip(wrt, avals)]
    # A child of the current trace, so that values of enclosing traces (closed over by a
    # custom rule, say) are captured; constants then live in the outermost trace too.
    parent = current_trace()
    trace = Trace(f"the derivative of {description}", "jvp", parent)
    trace.differentiating = True
    trace.linearizing = True       # control flow splits into primal and tangent equations
    with trace_context(trace):
        primals = [trace.new_argument(a, "primal") for a in avals]
        tangents = [trace.new_argument(a, "tangent") if w else None for a, w in zip(avals, wrt)]
        outs, touts = jvp_eval(ir, consts, primals, tangents)
        nonzero = [t for t in touts if t is not None]
        outvars = [trace.to_atom(o) for o in list(outs) + nonzero]
    constvars, jvp_consts = (list(trace.constvars), list(trace.consts)) if parent is None \
        else ([], [])
    jvp_ir = IR(constvars, list(trace.invars), trace.eqns, outvars)
    n = len(avals)
    tangent_in = [v for v, w in zip(jvp_ir.invars[n:], [w for w in wrt if w])]
    it = iter(jvp_ir.outvars[len(outs):])
    tangent_out = [next(it) if t is not None else None for t in touts]
    captures = ([v for _, v in trace.captures], [outer for outer, _ in trace.captures])
    return _split(jvp_ir, jvp_consts, n, tangent_in, tangent_out, wrt, captures)


def _split(jvp_ir, consts, n_primals, tangent_in, tangent_out, wrt, captures) -> Linearized:
    linear_vars = set(tangent_in)
    primal_eqns, linear_eqns = [], []
    for eqn in jvp_ir.eqns:
        if any(isinstance(a, Var) and a in linear_vars for a in eqn.inputs):
            linear_eqns.append(eqn)
            linear_vars.update(eqn.outputs)
        else:
            primal_eqns.append(eqn)
    residuals = _residuals(linear_eqns, linear_vars, tangent_out)
    primal_outs = [a for a in jvp_ir.outvars[:len(tangent_out)]]
    primal_eqns = _live(primal_eqns, primal_outs + residuals)
    return Linearized(jvp_ir, consts, n_primals, primal_eqns, linear_eqns, linear_vars,
                      tangent_in, tangent_out, residuals, wrt, *captures)


def _residuals(linear_eqns, linear_vars, tangent_out) -> list:
    seen, out = set(), []
    reads = [a for e in linear_eqns for a in e.inputs] + [a for a in tangent_out if a is not None]
    for a in reads:
        if isinstance(a, Var) and a not in linear_vars and a not in seen:
            seen.add(a)
            out.append(a)
    return out


def _live(eqns, needed_atoms) -> list:
    """The equations `needed_atoms` depend on (and those with effects), in order."""
    needed = {a for a in needed_atoms if isinstance(a, Var)}
    kept = []
    for eqn in reversed(eqns):
        if any(v in needed for v in eqn.outputs) or has_effect(eqn):
            kept.append(eqn)
            needed.update(a for a in eqn.inputs if isinstance(a, Var))
    kept.reverse()
    return kept
