"""Fusion decisions: which IR values get a buffer of their own.

Everything else is fused: recomputed inside each loop nest that reads it. A
value is materialised when it is an output, when its producer cannot run
inside another loop (reductions, matmul, concatenation), when a reshape needs
it laid out in memory, or when more than one loop nest would otherwise
recompute a non-trivial expression.
"""
from __future__ import annotations

from ..ir import IR, Literal, Var
from ..primitives import ARG_REDUCTIONS, CONTROL_FLOW, HELPER_CALLS, REDUCTIONS

_ALWAYS_MATERIALISED = REDUCTIONS | ARG_REDUCTIONS | HELPER_CALLS | {
    "dot_general", "concatenate", "sort", "argsort"}
# run-time helpers read whole buffers
_READS_MEMORY = HELPER_CALLS | {"dot_general", "sort", "argsort", "debug_print"}
_CHEAP = {"broadcast_in_dim", "transpose", "slice", "rev", "reshape", "iota"}
# Views a matrix product reads in place, through strides (see StridedOperand). A reshape that
# is not trivial reads its input's contiguous buffer (the reshape rule below materialises it).
_STRIDED_VIEWS = {"broadcast_in_dim", "transpose", "slice", "rev", "reshape"}


def is_trivial_reshape(old: tuple, new: tuple) -> bool:
    """Only size-1 axes added or removed: an index remap, no memory layout needed."""
    return [d for d in old if d != 1] == [d for d in new if d != 1]


def _carry_count(eqn) -> int:
    """Leading inputs of a loop that are initial carry values (copied, so fusible)."""
    name = eqn.prim.name
    if name in ("while", "scan"):
        return eqn.params["n_carry"]
    return 2 + eqn.params["n_carry"] if name == "for_loop" else 0


def materialised_vars(ir: IR) -> set[Var]:
    producers = {v: eqn for eqn in ir.eqns for v in eqn.outputs}
    roots = {v for v in ir.outvars if isinstance(v, Var) and v in producers}
    for eqn in ir.eqns:
        if eqn.prim.name in _ALWAYS_MATERIALISED:
            roots.add(eqn.outputs[0])
        if eqn.prim.name in CONTROL_FLOW:
            # Regions read their operands and captured values from memory.
            roots.update(eqn.outputs)
            skip = 2 if eqn.prim.name == "for_loop" else 0
            fused = range(skip, _carry_count(eqn))
            roots.update(a for i, a in enumerate(eqn.inputs) if a in producers and i not in fused)
        if eqn.prim.name == "dot_general":      # views are read in place (strides)
            roots.update(_strided_base(a, producers) for a in eqn.inputs)
            roots.discard(None)
        elif eqn.prim.name in _READS_MEMORY:
            roots.update(a for a in eqn.inputs if a in producers)
        if eqn.prim.name == "reshape" and eqn.inputs[0] in producers and \
                not is_trivial_reshape(eqn.inputs[0].aval.shape, eqn.params["new_sizes"]):
            roots.add(eqn.inputs[0])
    order = {v: i for i, eqn in enumerate(ir.eqns) for v in eqn.outputs}
    while True:
        shared = _shared_expensive(producers, roots)
        if not shared:
            return roots
        # Materialise the latest shared value only: its own inputs may then stop being shared
        # (in softmax, buffering exp(x - m) makes x - m private to one loop again).
        roots.add(max(shared, key=order.__getitem__))


def _strided_base(atom, producers):
    """The value that `atom`, a matmul operand, is a strided view of (itself if it is not a
    view), when that value needs a buffer; None when it already has one (an input)."""
    while isinstance(atom, Var) and atom in producers:
        eqn = producers[atom]
        if eqn.prim.name not in _STRIDED_VIEWS or not isinstance(eqn.inputs[0], Var):
            return atom
        atom = eqn.inputs[0]
    return None


def _shared_expensive(producers, roots) -> set[Var]:
    """Non-root values that two or more loop nests would each recompute."""
    reached_from: dict[Var, set] = {}
    for root in roots:
        stack, seen = list(producers[root].inputs), set()
        while stack:
            atom = stack.pop()
            if isinstance(atom, Literal) or atom in roots or atom not in producers \
                    or atom in seen:
                continue
            seen.add(atom)
            reached_from.setdefault(atom, set()).add(root)
            stack.extend(producers[atom].inputs)
    return {v for v, rs in reached_from.items()
            if len(rs) > 1 and producers[v].prim.name not in _CHEAP}
