"""Kernels equal up to integer constants share one function, decided on the kernel IR.

A Python loop unrolled while tracing gives a few kernels per iteration that differ only in
integer constants: loop extents and offsets in index expressions (NPBench's durbin: ~6000
kernels at N=1000, minutes of gcc). Before anything is spelled, each loop and reduce kernel
gets a structural key: its expression DAG with buffers replaced by their positions and
those integers abstracted into *slots*. Kernels with one key and the same slot values are
the same function; in a group of at least LIFT_MIN_KERNELS, the slots that vary become
*kernel parameter constants*: int64 parameters (`KernelConstant`) that each call passes.

Which integers may become parameters is read from types in the IR, never from text: an
index's constant offset (index arithmetic is int64), a merged loop's extent (an int64 trip
count), and a literal whose dtype is int64. Everything else is part of the key, so kernels
that differ in it are never merged. Coefficients (strides) stay in the key: they decide how
loops merge and so the loop nest's shape.
"""
from __future__ import annotations

import dataclasses

from .kernel_ir import (KERNEL_CONSTANT_DTYPE, Affine, Expr, KernelConstant, LoopKernel,
                        ReduceKernel, children)
from .loop_nest import group_extents, row_major

# Fewer kernels than this with one key keep their constants (a short loop's few kernels
# keep constant trip counts, which the compiler uses); identical ones still share.
LIFT_MIN_KERNELS = 8
INT64 = KERNEL_CONSTANT_DTYPE
# Layouts whose spelling compares an extent with a number of its own (a block size): their
# extents stay in the key.
_EXACT_EXTENT_LAYOUTS = frozenset({"rows_outside"})


@dataclasses.dataclass
class SharedKernel:
    """The function kernel `function` stands for, with its constants lifted: the kernel to
    spell (`kernel`, whose lifted offsets and literals are `var` leaves named after their
    KernelConstant) and which merged loops' extents are parameters."""
    function: int
    kernel: object
    constants: tuple[KernelConstant, ...]
    extents: dict          # merged loop position -> KernelConstant


@dataclasses.dataclass
class SharedCall:
    """A call of another kernel's function: `function` (the kernel that is spelled), the
    buffers in the order of that function's `positions`, and the constants' values."""
    function: int
    buffers: list          # this kernel's buffers, by position in the structural key
    values: tuple[int, ...]


@dataclasses.dataclass
class Sharing:
    """For each kernel that is spelled as a shared function, its lifted form; for each
    kernel of a group, its call; `positions[i]`: kernel i's buffers by key position."""
    functions: dict = dataclasses.field(default_factory=dict)   # kernel -> SharedKernel
    calls: dict = dataclasses.field(default_factory=dict)       # kernel -> SharedCall
    positions: dict = dataclasses.field(default_factory=dict)   # kernel -> [Buffer]


# -- the structural key ------------------------------------------------------------------

class _Abstraction:
    """One kernel walked in a fixed order: the key (structure with buffers as positions and
    liftable integers as slots), the slots' values, the buffers by position. With `lift`
    (slot -> KernelConstant), the same walk also rebuilds the expressions with those slots
    as parameters, so slot numbers always mean the same integer."""

    def __init__(self, describe_buffer, lift=None, unspelled=frozenset()):
        self.describe_buffer, self.lift = describe_buffer, lift or {}
        # Loop dimensions whose coefficient in an index is never spelled or never matters
        # (`_unspelled_dimensions`): no part of the key.
        self.unspelled = unspelled
        self.key: list = []
        self.slots: list[int] = []
        self.buffers: list = []
        self._positions: dict[str, int] = {}
        self._memo: dict[int, tuple[int, Expr]] = {}     # id(node) -> (number, rebuilt)

    def buffer(self, buf) -> int:
        if buf.name not in self._positions:
            self._positions[buf.name] = len(self.buffers)
            self.buffers.append(buf)
            self.key.append(("buffer", self.describe_buffer(buf)))
        return self._positions[buf.name]

    def slot(self, value: int):
        """A liftable integer: its slot in the key; its KernelConstant where lifted."""
        self.slots.append(int(value))
        self.key.append("slot")
        return self.lift.get(len(self.slots) - 1)

    def affine(self, a: Affine) -> Affine:
        dyn = tuple((self._memo[id(e)][1], k) for e, k in a.dyn)
        coeffs = tuple(None if d in self.unspelled else c for d, c in enumerate(a.coeffs))
        self.key.append(("affine", coeffs, tuple((self._memo[id(e)][0], k) for e, k in a.dyn)))
        constant = self.slot(a.const)
        if constant is None:
            return Affine(a.coeffs, a.const, dyn)
        return Affine(a.coeffs, 0, dyn + (constant_term(constant),))

    def expr(self, root: Expr) -> Expr:
        """Post-order over the DAG, each node once (an explicit stack: unrolled loops make
        expressions thousands of levels deep)."""
        stack = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if id(node) in self._memo:
                continue
            if ready:
                self._memo[id(node)] = (len(self._memo), self._node(node))
                continue
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(children(node))
                         if id(c) not in self._memo)
        return self._memo[id(root)][1]

    def _node(self, e: Expr) -> Expr:
        number = {id(c): self._memo[id(c)][0] for c in children(e)}
        self.key.append((e.kind, e.dtype, tuple(number[id(c)] for c in children(e))))
        if e.kind in ("load", "index"):
            if e.kind == "load":
                self.key.append(self.buffer(e.args[0]))
            index = self.affine(e.args[-1])
            return Expr(e.kind, (*e.args[:-1], index), e.dtype, e.source)
        if e.kind == "lit":
            if e.dtype == INT64:
                constant = self.slot(e.args[0])
                if constant is not None:
                    return constant.expr()
                return e
            self.key.append(e.args[1])           # the value's bytes
            return e
        rebuilt = tuple(self._memo[id(c)][1] for c in children(e))
        if e.kind == "op":
            self.key.append((e.args[0], e.args[2]))
            return Expr("op", (e.args[0], rebuilt, e.args[2]), e.dtype, e.source)
        if e.kind in ("cast", "select"):
            return Expr(e.kind, rebuilt, e.dtype, e.source)
        self.key.append(e.args)                  # a var: its name
        return e

    def extents(self, extents, plan) -> dict:
        """The merged loops' trip counts: slots, except where the layout reads them; the key
        keeps whether each is more than one (a loop of one is not split across threads)."""
        lifted = {}
        for position, n in enumerate(group_extents(extents, plan.groups)):
            self.key.append(("extent", min(n, 2)))
            if plan.layout in _EXACT_EXTENT_LAYOUTS:
                self.key.append(n)
                continue
            constant = self.slot(n)
            if constant is not None:
                lifted[position] = constant
        return lifted


def constant_term(constant: KernelConstant) -> tuple:
    """An index's run-time term for a lifted offset: the parameter, times one."""
    return constant.expr(), 1


def _unspelled_dimensions(kernel, plan) -> frozenset:
    """Loop dimensions whose coefficients in an index the shared function may take from its
    own kernel: a merged loop is spelled with its last dimension's coefficient only (the
    others are implied), and a loop of one runs with its variable at 0 (syrk's row updates:
    a (1, n) nest stores at n * i0 + i1, n varying with the row)."""
    if isinstance(kernel, LoopKernel):
        extents = kernel.shape
    elif isinstance(kernel, ReduceKernel):
        extents = kernel.out_shape + kernel.reduce_shape
    else:
        return frozenset()
    merged = {d for g in plan.groups for d in g[:-1]}
    once = {g[0] for g in plan.groups if len(g) == 1 and extents[g[0]] == 1}
    return frozenset(merged | once)


def _abstract(kernel, plan, describe_buffer, lift=None):
    """(the walk, the kernel rebuilt with `lift`'s slots as parameters, lifted extents), or
    None for a kernel that is never shared."""
    walk = _Abstraction(describe_buffer, lift, _unspelled_dimensions(kernel, plan))
    walk.key.append((type(kernel).__name__, plan))
    if isinstance(kernel, LoopKernel):
        walk.buffer(kernel.out)
        dyn = [walk.expr(e) for e, _ in kernel.store.dyn]
        del dyn                                   # numbered in the memo; affine reads it
        store = walk.affine(kernel.store)
        value = walk.expr(kernel.value)
        extents = walk.extents(kernel.shape, plan)
        rebuilt = dataclasses.replace(kernel, store=store, value=value)
    elif isinstance(kernel, ReduceKernel):
        walk.buffer(kernel.out)
        walk.key.append((kernel.combiner, len(kernel.out_shape), len(kernel.reduce_shape),
                         row_major(kernel.out_shape, len(kernel.out_shape)).coeffs))
        body = walk.expr(kernel.body)
        extents = walk.extents(kernel.out_shape + kernel.reduce_shape, plan)
        rebuilt = dataclasses.replace(kernel, body=body)
    else:
        return None
    return walk, rebuilt, extents


def share(kernels, plans, describe_buffer) -> Sharing:
    """Which kernels share a function, and with which constants lifted. `describe_buffer`:
    what of a buffer its kernel's spelling depends on besides the name (its type, whether
    it is passed by value, whether it may be `restrict`)."""
    groups: dict[tuple, list] = {}
    walks = {}
    for index, kernel in enumerate(kernels):
        plan = plans[index]
        if plan.layout == "none":
            continue
        found = _abstract(kernel, plan, describe_buffer)
        if found is None:
            continue
        walks[index] = found[0]
        groups.setdefault(tuple(found[0].key), []).append(index)
    sharing = Sharing()
    for members in groups.values():
        if len(members) < 2:
            continue
        if len(members) >= LIFT_MIN_KERNELS:
            _lift_group(members, kernels, plans, walks, describe_buffer, sharing)
            continue
        identical: dict[tuple, list] = {}
        for index in members:
            identical.setdefault(tuple(walks[index].slots), []).append(index)
        for same in identical.values():
            if len(same) > 1:
                _lift_group(same, kernels, plans, walks, describe_buffer, sharing)
    return sharing


def _lift_group(members, kernels, plans, walks, describe_buffer, sharing) -> None:
    """One function for `members` (one key): the slots whose values differ become
    parameters of the first member's function; the others call it."""
    first = members[0]
    values = [walks[i].slots for i in members]
    # Slots that vary together (a trip count and the offset it equals) are one parameter.
    columns: dict[tuple, KernelConstant] = {}
    lift = {}
    for s in range(len(values[0])):
        column = tuple(v[s] for v in values)
        if len(set(column)) > 1:
            lift[s] = columns.setdefault(column, KernelConstant(f"tp_k{len(columns)}"))
    varying = [next(s for s in lift if lift[s] is c) for c in columns.values()]
    _, kernel, extents = _abstract(kernels[first], plans[first], describe_buffer, lift)
    sharing.functions[first] = SharedKernel(first, kernel, tuple(columns.values()), extents)
    for index in members:          # the first member calls its own function too
        sharing.positions[index] = walks[index].buffers
        sharing.calls[index] = SharedCall(
            first, walks[index].buffers, tuple(walks[index].slots[s] for s in varying))
