"""The shape of a kernel's loop nest, read from its structure: which indices it computes, and
which adjacent loops every index treats as one flat loop (merged: fewer, longer loops).
Both the schedule (loop_schedule.py) and the renderers read the nest the same way."""
from __future__ import annotations

from .kernel_ir import Affine, Expr, walk


def collect_affines(expr: Expr, out: list) -> list:
    """Every index `expr` loads at or computes, appended to `out`."""
    for e in walk(expr):
        if e.kind == "load":
            out.append(e.args[1])
        elif e.kind == "index":
            out.append(e.args[0])
    return out


def merge_groups(extents, affines, start: int, stop: int) -> list[list[int]]:
    """Group adjacent loop dims in [start, stop) that every index treats as one flat dim."""
    groups: list[list[int]] = []
    affines = [a for a in affines if a.coeffs]     # scalar loads do not depend on the loops
    for d in range(start, stop):
        if groups and all(a.coeffs[groups[-1][-1]] == a.coeffs[d] * extents[d] for a in affines):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def row_major(shape, nvars) -> Affine:
    """The flat row-major offset of the first len(shape) of `nvars` loop variables."""
    coeffs, stride = [0] * nvars, 1
    for d in range(len(shape) - 1, -1, -1):
        coeffs[d] = stride
        stride *= shape[d]
    return Affine(tuple(coeffs), 0)


def group_extents(extents, groups) -> list[int]:
    """The trip count of each merged loop."""
    counts = []
    for g in groups:
        n = 1
        for d in g:
            n *= extents[d]
        counts.append(n)
    return counts
