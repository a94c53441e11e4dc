"""Make a finding's program small: keep the failing node's ancestors, drop whatever else can
go while the same finding (kind, op, backend) still shows, and make inputs contiguous where
that does not hide it."""
from __future__ import annotations

import dataclasses

import numpy as np

from . import oracle
from .generate import Program, reference_values
from .ops import Lit, Ref
from .values import is_pyscalar


def _same(f, target) -> bool:
    return (f.kind, f.op, f.backend) == (target.kind, target.op, target.backend)


def reproduces(prog: Program, target) -> bool:
    try:
        reference_values(prog)
    except Exception:                 # noqa: BLE001 - the smaller program is not valid NumPy
        return False
    found, _ = oracle.check_batch([prog])
    return any(_same(f, target) for f in found)


def _ancestors(prog: Program, index: int) -> set:
    keep, todo, n_in = set(), [index], len(prog.inputs)
    while todo:
        i = todo.pop()
        if i in keep:
            continue
        keep.add(i)
        if i >= n_in:
            todo += [a.index for a in prog.nodes[i - n_in].operands if isinstance(a, Ref)]
    return keep


def _subset(prog: Program, keep: set) -> Program:
    """The program restricted to the values in `keep`, renumbered."""
    n_in = len(prog.inputs)
    order = sorted(keep)
    new_index = {old: new for new, old in enumerate(order)}
    inputs = [prog.inputs[i] for i in order if i < n_in]
    layouts = [prog.layouts[i] for i in order if i < n_in]
    nodes = []
    for i in order:
        if i < n_in:
            continue
        node = prog.nodes[i - n_in]
        operands = tuple(Ref(new_index[a.index]) if isinstance(a, Ref) else a
                         for a in node.operands)
        nodes.append(dataclasses.replace(node, operands=operands))
    return Program(prog.seed, inputs, layouts, nodes)


def _target_index(prog, target) -> int:
    if target.node >= len(prog.inputs):
        return min(target.node, len(prog.inputs) + len(prog.nodes) - 1)
    return len(prog.inputs) + len(prog.nodes) - 1


def shrink(prog: Program, target, max_steps: int = 60) -> Program:
    best = prog
    keep = _ancestors(prog, _target_index(prog, target))
    candidate = _subset(prog, keep)
    if reproduces(candidate, target):
        best = candidate
    steps = 0
    changed = True
    while changed and steps < max_steps:
        changed = False
        for candidate in _smaller(best):
            steps += 1
            if reproduces(candidate, target):
                best, changed = candidate, True
                break
    return best


def _smaller(prog: Program):
    """Programs one step simpler: a node, an unused input, or a view's layout fewer."""
    n_in = len(prog.inputs)
    used = {a.index for n in prog.nodes for a in n.operands if isinstance(a, Ref)}
    total = n_in + len(prog.nodes)
    for i in range(total - 1):                        # drop a value nobody else uses
        if i not in used:
            yield _subset(prog, set(range(total)) - {i})
    for i, x in enumerate(prog.inputs):
        if isinstance(x, np.ndarray) and not x.flags.c_contiguous:
            inputs = list(prog.inputs)
            inputs[i] = np.ascontiguousarray(x)
            layouts = list(prog.layouts)
            layouts[i] = "contiguous"
            yield Program(prog.seed, inputs, layouts, prog.nodes)
    for k, node in enumerate(prog.nodes):             # a literal for a value operand
        for j, a in enumerate(node.operands):
            if isinstance(a, Ref) and is_pyscalar(_value(prog, a.index)):
                operands = list(node.operands)
                operands[j] = Lit(_value(prog, a.index))
                nodes = list(prog.nodes)
                nodes[k] = dataclasses.replace(node, operands=tuple(operands))
                yield Program(prog.seed, prog.inputs, prog.layouts, nodes)


def _value(prog, index):
    return prog.inputs[index] if index < len(prog.inputs) else None
