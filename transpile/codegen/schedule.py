"""Fusion decisions: which IR values get a buffer of their own.

Everything else is fused: recomputed inside each loop nest that reads it. A
value is materialised when it is an output, when its producer cannot run
inside another loop (reductions, matmul, concatenation), when a reshape needs
it laid out in memory, when more than one loop nest would otherwise recompute a
non-trivial expression, or when one loop nest would recompute a deep expression at several
positions (the shifted neighbours of a stencil step: fused into the next step, each step
would multiply the work of all the steps before it); a chain of shallow such steps fuses
two at a time (Floyd-Warshall's).
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
# Primitives whose fused operands are read at another position than their own (lowering's
# index rules); every other primitive reads its array operands where it is computed.
_MOVES_POSITIONS = _STRIDED_VIEWS | {"dynamic_slice", "dynamic_update_slice", "gather"}
# A fused value read at several positions of one loop nest is computed at each. Up to this
# many operations deep (`diff(exp(x))`, a small expression under two slices) recomputing
# beats a pass through memory; deeper, it is materialised, which bounds the recomputation
# by a constant factor however many such reads are chained.
_MAX_RECOMPUTED_HEIGHT = 3


def is_trivial_reshape(old: tuple, new: tuple) -> bool:
    """Only size-1 axes added or removed: an index remap, no memory layout needed."""
    return [d for d in old if d != 1] == [d for d in new if d != 1]


def _carry_count(eqn) -> int:
    """Leading inputs of a loop that are initial carry values (copied, so fusible)."""
    name = eqn.prim.name
    if name in ("while", "scan"):
        return eqn.params["n_carry"]
    return 2 + eqn.params["n_carry"] if name == "for_loop" else 0


def materialised_vars(ir: IR, max_fused_height: int | None = None) -> set[Var]:
    """The values that get buffers. `max_fused_height`, when given, also materialises every
    value whose fused expression would be deeper than that many operations (a dialect whose
    compiler slows down more than linearly with a kernel's size asks for it)."""
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
    bounded = set(roots)
    _materialise_shared(ir, producers, bounded)
    if _materialise_reread_chains(ir, producers, roots, bounded - roots):
        _materialise_shared(ir, producers, roots)
    else:
        roots = bounded
    if max_fused_height is not None:
        _cap_fused_heights(ir, roots, max_fused_height)
    return roots


def _strided_base(atom, producers):
    """The value that `atom`, a matmul operand, is a strided view of (itself if it is not a
    view), when that value needs a buffer; None when it already has one (an input)."""
    while isinstance(atom, Var) and atom in producers:
        eqn = producers[atom]
        if eqn.prim.name not in _STRIDED_VIEWS or not isinstance(eqn.inputs[0], Var):
            return atom
        atom = eqn.inputs[0]
    return None


_MANY = object()       # stands for "two or more loop nests" where one root is expected
_ROOT_POSITION, _SCALAR_POSITION = 0, -1


def _materialise_shared(ir: IR, producers, roots: set) -> None:
    """Add to `roots` the fused values that two or more loop nests would each recompute,
    and the deep ones that one loop nest would recompute at several positions.

    One pass from the last equation back: a value's readers all come after it, so when it
    is reached, which loop nests read it (one root, or _MANY) and at which positions (keys
    numbering the chains of index rewrites from that root) are known. Deciding the latest
    shared value first lets its own inputs become private to one loop again (in softmax,
    buffering exp(x - m) leaves x - m to that one loop)."""
    heights = _fused_heights(ir, roots)
    reach: dict[Var, object] = {}       # value -> the one root that reads it, or _MANY
    positions: dict[Var, set] = {}      # value -> where that root reads it (position keys)
    moved: dict[tuple, int] = {}        # (position, how a view reads) -> position key
    for eqn in reversed(ir.eqns):
        root, keys = None, set()
        for out in eqn.outputs:
            found = _reader(out, eqn, roots, reach, positions, heights)
            if found is None:
                continue
            root = found[0] if root in (None, found[0]) else _MANY
            keys |= found[1]
        if root is None:
            continue
        for operand, atom in enumerate(eqn.inputs):
            if not isinstance(atom, Var) or atom not in producers or atom in roots:
                continue
            previous = reach.get(atom, root)
            reach[atom] = root if previous is root else _MANY
            positions[atom] = set() if reach[atom] is _MANY else \
                positions.get(atom, set()) | _operand_positions(eqn, operand, atom, keys, moved)


def _materialise_reread_chains(ir: IR, producers, roots: set, candidates: set) -> bool:
    """Materialise every other link of a chain of values each read at several positions by
    the next (Floyd-Warshall's steps: `minimum(p, p[:, k][:, None] + p[k, :])`, unrolled).

    _materialise_shared judges a value by its fused height assuming everything before it is
    fused, an upper bound that grows along such a chain: every step past the second was
    materialised, one pass through memory per step. Here, forward, each value gets its
    height given the values this pass has materialised before it, and is materialised when
    its own readers read it at several positions and it is deeper than
    _MAX_RECOMPUTED_HEIGHT: a chain of two-operation steps fuses in pairs (200 steps of a
    200x200 int32 Floyd-Warshall: 0.56 -> 0.28 ms, one thread), each value recomputed at a
    bounded number of positions. Only `candidates` (what the reverse pass materialised on
    its own) are added; then the reverse pass runs again and fuses what this one left.
    Returns whether any was added."""
    readers: dict[Var, set] = {}             # value -> how its direct readers read it
    for eqn in ir.eqns:
        for operand, atom in enumerate(eqn.inputs):
            if isinstance(atom, Var) and atom in producers and atom.aval.shape:
                moves = eqn.prim.name in _MOVES_POSITIONS and not (
                    eqn.prim.name == "dynamic_update_slice" and operand == 0)
                readers.setdefault(atom, set()).add(_view_key(eqn, operand) if moves else None)
    heights: dict[Var, int] = {}
    added = False
    for eqn in ir.eqns:
        below = max((heights.get(a, 0) for a in eqn.inputs if isinstance(a, Var)), default=0)
        expensive = eqn.prim.name not in _CHEAP
        height = below + 1 if expensive else below
        for out in eqn.outputs:
            if out in candidates and expensive and height > _MAX_RECOMPUTED_HEIGHT and \
                    len(readers.get(out, ())) > 1:
                roots.add(out)
                added = True
            heights[out] = 0 if out in roots else height
    return added


def _reader(out, eqn, roots, reach, positions, heights):
    """(the root whose loop nest computes `out`, the positions it does so at), or None when
    no loop nest reads it; `out` joins the roots here when it should be materialised."""
    if out not in roots:
        if out not in reach:
            return None
        root, keys = reach[out], positions[out]
        expensive = eqn.prim.name not in _CHEAP
        if not expensive or (root is not _MANY and (
                len(keys) < 2 or heights[out] <= _MAX_RECOMPUTED_HEIGHT)):
            return root, keys
        roots.add(out)
    return out, {_ROOT_POSITION}


def _operand_positions(eqn, operand: int, atom: Var, keys: set, moved: dict) -> set:
    """The positions at which `eqn`, computed at `keys`, reads its operand `atom`."""
    if not atom.aval.shape:
        return {_SCALAR_POSITION}            # 0-d operands are read at one place
    name = eqn.prim.name
    if name not in _MOVES_POSITIONS or (name == "dynamic_update_slice" and operand == 0):
        return keys
    how = _view_key(eqn, operand)
    return {moved.setdefault((k, how), len(moved) + 1) for k in keys}


def _view_key(eqn, operand: int):
    """What decides where `eqn` reads operand `operand`: the primitive, its params and its
    other operands (a window's starts). Two equal views of one value read it at one
    position (`.at[i].add(y)` reshapes the old element twice: one position, not two)."""
    others = tuple(a if isinstance(a, Var) else ("literal", a.value)
                   for k, a in enumerate(eqn.inputs) if k != operand)
    try:
        params = tuple(sorted(eqn.params.items()))
        hash(params)
    except TypeError:
        return id(eqn)
    return eqn.prim.name, operand, params, others


def _fused_heights(ir: IR, roots) -> dict:
    """How many expensive operations deep each value's fused expression can be (an upper
    bound: materialising more values only makes expressions shallower)."""
    heights: dict[Var, int] = {}
    for eqn in ir.eqns:
        below = max((heights.get(a, 0) for a in eqn.inputs if isinstance(a, Var)), default=0)
        height = below if eqn.prim.name in _CHEAP else below + 1
        for out in eqn.outputs:
            heights[out] = 0 if out in roots else height
    return heights


def _cap_fused_heights(ir: IR, roots: set, limit: int) -> None:
    """Materialise each value whose fused expression reaches `limit` operations deep, so
    that no loop nest computes more than `limit` operations in a row."""
    heights: dict[Var, int] = {}
    for eqn in ir.eqns:
        below = max((heights.get(a, 0) for a in eqn.inputs if isinstance(a, Var)), default=0)
        expensive = eqn.prim.name not in _CHEAP
        height = below + 1 if expensive else below
        for out in eqn.outputs:
            if out not in roots and expensive and height >= limit:
                roots.add(out)
            heights[out] = 0 if out in roots else height


def deepest_fused_height(ir: IR) -> int:
    """How many expensive operations deep the deepest value of `ir` is, all of it fused."""
    return max(_fused_heights(ir, set()).values(), default=0)
