"""Reverse mode's backward pass: the linear (tangent) equations transposed in reverse
order, cotangents accumulated per variable, each rule's equations bound on the current
trace. Cotangents are values or None (zero); an equation none of whose outputs has a
cotangent is skipped."""
from __future__ import annotations

from ..ir import Literal, Var
from ..tracing import equations_from
from . import ops
from .evaluate import literal_value
from .transpose_rules import Linear, transpose_rule


def backward_pass(linear_eqns, linear_vars, known: dict, tangent_in, tangent_out, cts):
    """Cotangents of the tangent inputs `tangent_in` (Vars), given cotangents `cts` of the
    tangent outputs `tangent_out` (atoms). `linear_vars` holds the variables that depend on
    tangents; `known` maps every other variable the equations read to its value."""
    ct_env: dict = {}

    def accumulate(var, ct):
        if ct is None:
            return
        ct = ops.fit(ct, var.aval) if ops.aval(ct).shape == var.aval.shape \
            else ops.sum_to(ct, var.aval)
        old = ct_env.get(var)
        ct_env[var] = ct if old is None else ops.add(old, ct)

    for atom, ct in zip(tangent_out, cts):
        if isinstance(atom, Var) and atom in linear_vars:
            accumulate(atom, ct)

    def operand(atom):
        if isinstance(atom, Literal):
            return literal_value(atom)
        return Linear(atom.aval) if atom in linear_vars else known[atom]

    for eqn in reversed(linear_eqns):     # a loop, however long the program
        outs = [ct_env.pop(v, None) for v in eqn.outputs]
        if all(c is None for c in outs):
            continue
        args = [operand(a) for a in eqn.inputs]
        with equations_from(eqn.source):
            ct = outs if len(eqn.outputs) != 1 else outs[0]
            in_cts = transpose_rule(eqn.prim.name)(ct, args, **eqn.params)
            for atom, c in zip(eqn.inputs, in_cts):
                if isinstance(atom, Var) and atom in linear_vars:
                    accumulate(atom, c)
    return [ct_env.get(v) for v in tangent_in]
