"""Buffer assignment: which updates are stores into their operand's buffer.

XLA's rule (DESIGN.md, "Buffers"): a `dynamic_update_slice` (what `.at[...]` updates
become) is a value in the IR, but when its operand's buffer may be overwritten and the
operand is dead after the update, the update is a store of the window into that buffer:
one element costs one store, not a pass over the array. The decisions are made here, on
the IR, so that the loop lowering can ask before it lowers a body whether a carry can be
updated in place (no second buffer) or must be double-buffered (two swapped pointers).

A buffer may be overwritten when it holds a value this region computed itself (a
materialised value, or an earlier update done in place) or a loop carry the caller
donated. Inputs, constants and captured values are never written.
"""
from __future__ import annotations

import math

from ..ir import IR, Var

UPDATE = "dynamic_update_slice"


def plan_in_place(ir: IR, roots: set, donated: set) -> dict:
    """{output of an update done in place: the operand whose buffer it takes over}."""
    producers = {v: eqn for eqn in ir.eqns for v in eqn.outputs}
    plan: dict[Var, Var] = {}
    writable = set(donated) | set(roots)
    outvars = {a for a in ir.outvars if isinstance(a, Var)}
    for position, eqn in enumerate(ir.eqns):
        if eqn.prim.name != UPDATE:
            continue
        x, update, starts = eqn.inputs[0], eqn.inputs[1], eqn.inputs[2:]
        if not isinstance(x, Var) or x not in writable or x in outvars:
            continue
        stop = roots | set(plan)
        if _reads_any(starts, x, producers, stop):
            continue      # the window's position would move while the window is written
        if _reads_any([update], x, producers, stop) and not _small(update, x):
            continue      # the update reads most of the array: double-buffer instead
        if _used_after(ir.eqns, position, x, producers, stop):
            continue      # a later use needs the old value
        plan[eqn.outputs[0]] = x
        writable.add(eqn.outputs[0])
    return plan


def _small(update, x) -> bool:
    """Is the window small enough that computing the update into a temporary first (when
    it reads the array it updates) is cheaper than writing a whole second array?"""
    size = math.prod(update.aval.shape)
    return 2 * size <= math.prod(x.aval.shape) or size == 1


def _reads_any(atoms, x, producers, stop) -> bool:
    """Does computing any of `atoms` read `x` (through values fused into it)?"""
    stack, seen = [a for a in atoms if isinstance(a, Var)], set()
    while stack:
        atom = stack.pop()
        if atom is x:
            return True
        if atom in seen or atom in stop or atom not in producers:
            continue
        seen.add(atom)
        stack.extend(a for a in producers[atom].inputs if isinstance(a, Var))
    return False


def _used_after(eqns, position, x, producers, stop) -> bool:
    """Does anything computed after equation `position` read `x`?

    Equations are emitted in order; a value fused into a later kernel is read when that
    kernel runs, so later kernels (materialised values, control flow) are followed
    through their fused inputs."""
    for eqn in eqns[position + 1:]:
        if any(a is x for a in eqn.inputs):
            return True
        emitted = any(o in stop for o in eqn.outputs) or "body" in eqn.params \
            or "branches" in eqn.params
        if emitted and _reads_any(eqn.inputs, x, producers, stop):
            return True
    return False


def carries_in_place(body: IR, roots: set, carry_invars: list, carry_outvars: list) -> set:
    """Positions k of the carries that the body can update in its own buffer: the new carry
    is a chain of in-place updates of the old one.

    Donating a carry can only enable updates, never disable another's; but a carry that
    turns out not to be in place must not be donated, so this iterates to a fixed point."""
    candidates = {k for k, (i, o) in enumerate(zip(carry_invars, carry_outvars))
                  if isinstance(o, Var) and o is not i}
    while True:
        plan = plan_in_place(body, roots, {carry_invars[k] for k in candidates})
        kept = {k for k in candidates if _chain_root(plan, carry_outvars[k]) is carry_invars[k]}
        if kept == candidates:
            return kept
        candidates = kept


def _chain_root(plan, var):
    if var not in plan:
        return None
    while var in plan:
        var = plan[var]
    return var
