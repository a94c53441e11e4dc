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

from ..ir import IR, Literal, Var
from ..primitives import COMPLEX_PARTS, ELEMENTWISE_UFUNC, SPECIAL_UNARY

UPDATE = "dynamic_update_slice"


def plan_in_place(ir: IR, roots: set, donated: set, why_not: dict | None = None) -> dict:
    """{output of an update done in place: the operand whose buffer it takes over}.

    `why_not`, when given, receives {output: reason} for the updates that are not in place
    (the reason goes into the C comment of the kernel that writes a new buffer instead)."""
    producers = {v: eqn for eqn in ir.eqns for v in eqn.outputs}
    readers = _readers(ir)
    plan: dict[Var, Var] = {}
    writable = set(donated) | set(roots)
    stop = set(roots)                   # values with buffers of their own, so far
    outvars = {a for a in ir.outvars if isinstance(a, Var)}
    why_not = {} if why_not is None else why_not
    for position, eqn in enumerate(ir.eqns):
        if eqn.prim.name == UPDATE:
            reason = _refusal(eqn, position, writable, outvars, producers, readers, stop)
            if reason:
                why_not[eqn.outputs[0]] = reason
            else:
                plan[eqn.outputs[0]] = eqn.inputs[0]
                writable.add(eqn.outputs[0])
                stop.add(eqn.outputs[0])
        elif eqn.prim.name in FIRST_CARRY:
            for out, init in _loop_carries_taking_over(eqn, position, writable, outvars,
                                                       producers, readers, stop):
                plan[out] = init
                writable.add(out)
                stop.add(out)
    return plan


# Loops whose carries live in their output buffers (lower_control.py): the position of the
# first initial carry among the equation's inputs.
FIRST_CARRY = {"for_loop": 2, "while": 0, "scan": 0}


def _loop_carries_taking_over(eqn, position, writable, outvars, producers, readers, stop):
    """(carry output, initial value) pairs of a loop that may run in its initial value's
    buffer: the loop then starts without copying it, and a loop nested in a loop body can
    leave the outer carry in place (NPBench's seidel_2d: a row loop inside a time loop).

    The initial value must be writable, dead after the loop and read by nothing else the
    loop takes (a captured value, another carry), since the loop overwrites it while it
    runs."""
    first, n = FIRST_CARRY[eqn.prim.name], eqn.params["n_carry"]
    inits = eqn.inputs[first:first + n]
    others = eqn.inputs[:first] + eqn.inputs[first + n:]
    for k, init in enumerate(inits):
        if (not isinstance(init, Var) or init not in writable or init in outvars
                or sum(a is init for a in eqn.inputs) > 1
                or _reads_any([a for a in others + inits if a is not init], init,
                              producers, stop)
                or _used_after(position, init, readers, stop)):
            continue
        yield eqn.outputs[k], init


def _readers(ir: IR) -> dict:
    """{value: [(position, equation) of each equation that takes it as an input]}."""
    readers: dict[Var, list] = {}
    for position, eqn in enumerate(ir.eqns):
        for atom in eqn.inputs:
            if isinstance(atom, Var):
                readers.setdefault(atom, []).append((position, eqn))
    return readers


def _refusal(eqn, position, writable, outvars, producers, readers, stop) -> str:
    """Why the update at `position` cannot write its operand's buffer ("" if it can)."""
    x, update, starts = eqn.inputs[0], eqn.inputs[1], eqn.inputs[2:]
    if not isinstance(x, Var):
        return "the old array is a constant"
    if x in outvars:
        return "the old array is also a result"
    if _reads_any(starts, x, producers, stop):
        return "the window's position is computed from the array itself"
    if _reads_any([update], x, producers, stop) and not _small(update, x) and \
            not _reads_only_where_written(eqn, producers, stop):
        return "the update reads most of the old array"
    if _used_after(position, x, readers, stop):
        return "the old array is read after the update"
    if x not in writable:
        return "the old array is an input, or a value the caller still holds"
    return ""


def _small(update, x) -> bool:
    """Is the window small enough that computing the update into a temporary first (when
    it reads the array it updates) is cheaper than writing a whole second array?"""
    size = math.prod(update.aval.shape)
    return 2 * size <= math.prod(x.aval.shape) or size == 1


# Primitives whose array operands are read at the element they compute (same shape).
_SAME_POSITION = {*ELEMENTWISE_UFUNC, *SPECIAL_UNARY, *COMPLEX_PARTS, "select",
                  "convert_element_type"}


def _reads_only_where_written(eqn, producers, stop) -> bool:
    """Does the update of `eqn` (a dynamic_update_slice at static starts) read the old
    array only at the element it replaces: through element-wise operations on the window's
    shape, down to a unit-stride slice of the array at the window itself (NPBench's
    fdtd_2d: `ey.at[1:, :].set(ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :]))`)? Then one loop
    over the window can store in place (lower_updates.reads_only_at: each element is read
    before it is written, by the iteration that writes it), with no copy of the array."""
    x, update, starts = eqn.inputs[0], eqn.inputs[1], eqn.inputs[2:]
    if not all(isinstance(s, Literal) for s in starts):
        return False
    window = tuple(int(s.value) for s in starts), update.aval.shape
    stack, seen = [update], set()
    while stack:
        atom = stack.pop()
        if atom is x:
            return False                    # read whole, or at a shape not the window's
        if not isinstance(atom, Var) or atom in seen or atom in stop or atom not in producers:
            continue
        seen.add(atom)
        producer = producers[atom]
        name = producer.prim.name
        if name == "slice" and producer.inputs[0] is x:
            if not _slices_window(producer, window):
                return False
            continue
        if name not in _SAME_POSITION:
            if _reads_any([atom], x, producers, stop):
                return False
            continue
        for operand in producer.inputs:
            if isinstance(operand, Var) and operand.aval.shape != window[1] and \
                    _reads_any([operand], x, producers, stop):
                return False                # broadcast from the array: other positions
            stack.append(operand)
    return True


def _slices_window(eqn, window) -> bool:
    """Is `eqn` (a slice) exactly the window (starts, shape), with unit strides?"""
    starts, shape = window
    p = eqn.params
    strides = p.get("strides") or (1,) * len(starts)
    return tuple(p["start_indices"]) == starts and all(s == 1 for s in strides) and \
        tuple(hi - lo for lo, hi in zip(p["start_indices"], p["limit_indices"])) == shape


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


def _used_after(position, x, readers, stop) -> bool:
    """Does anything computed after equation `position` read `x`?

    Equations are emitted in order; a value fused into a later kernel is read when that
    kernel runs, so x's readers are followed forward through the values fused into others
    (those without a buffer in `stop`) until one is computed after `position`; not through
    the equation at `position`, whose result replaces x. Forward
    from x, not back from every later equation: per update, only what x flows into."""
    stack, seen = [x], {x}
    while stack:
        value = stack.pop()
        for at, eqn in readers.get(value, ()):
            if at > position:
                return True
            if at == position:
                continue    # the update (or loop) itself: its result is the new array
            for out in eqn.outputs:
                if out not in stop and out not in seen:
                    seen.add(out)
                    stack.append(out)
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
