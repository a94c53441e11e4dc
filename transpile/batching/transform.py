"""The vmap transformation of an IR: replay it with batched values.

Every value carries its batch dim (None where it is the same for every batch member).
Equations whose operands are all unbatched are bound again unchanged; the others go to their
primitive's batching rule. Equations are visited in a loop (no recursion per equation), and
every primitive is bound on the current trace, so the result is recorded into an enclosing
`jit` — or into the trace vmap itself opens when it runs eagerly.
"""
from __future__ import annotations

from ..ir import IR, Literal
from ..ir_eval import bind_equation, literal_value
from .collectives import resolves_here
from .moves import broadcast_batch, moveaxis
from .table import rule_for


def batch_ir(ir: IR, values, dims, size: int):
    """Run `ir` (constvars first, then invars, bound to `values` batched along `dims`).

    Returns (outputs, their batch dims)."""
    env = dict(zip(list(ir.constvars) + list(ir.invars), zip(values, dims)))

    def read(atom):
        return (literal_value(atom), None) if isinstance(atom, Literal) else env[atom]

    for eqn in ir.eqns:
        pairs = [read(a) for a in eqn.inputs]
        ins = [v for v, _ in pairs]
        in_dims = [d for _, d in pairs]
        if all(d is None for d in in_dims) and not resolves_here(eqn):
            outs, out_dims = bind_equation(eqn, ins), [None] * len(eqn.outputs)
        else:
            outs, out_dims = rule_for(eqn.prim.name)(size, ins, in_dims, **eqn.params)
            if not isinstance(outs, (list, tuple)):
                outs, out_dims = [outs], [out_dims]
        env.update(zip(eqn.outputs, zip(outs, out_dims)))
    results = [read(v) for v in ir.outvars]
    return [v for v, _ in results], [d for _, d in results]


def settle(outs, dims, want_batched, size: int) -> list:
    """Outputs batched along axis 0 where `want_batched`, unbatched elsewhere."""
    settled = []
    for x, d, want in zip(outs, dims, want_batched):
        if d is not None and not want:
            raise AssertionError("a batched value where the region promised an unbatched one")
        settled.append(moveaxis(x, d, 0) if d is not None else
                       broadcast_batch(x, size, 0) if want else x)
    return settled
