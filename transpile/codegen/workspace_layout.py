"""Where each temporary lives in the entry's one block of workspace: temporaries whose
lifetimes do not overlap share memory.

A program unrolled from a Python loop makes one temporary per step (NPBench's
floyd_warshall: 200 steps, each a 200x200 array read once by the next step). Laid end to
end they took 32 MB, and every step read and wrote memory no cache held; sharing, two
blocks of 160 KB alternate and both stay in L2 (4.9 ms a call, 1.5 ms shared).

Lifetimes are measured in top-level statements of the entry: a temporary is live from the
first statement that mentions it to the last. A loop or switch is one statement, so every
temporary its body touches is live for the whole loop (its iterations may read what an
earlier one wrote, and swapped pointers exchange places). Two temporaries mentioned by the
same statement never share: a kernel may read one while it writes the other.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .kernel_ir import Affine, Buffer, Call, Expr, Program

ALIGNMENT = 64      # each temporary starts on a cache line of its own


def padded_bytes(buf: Buffer) -> int:
    return (buf.size * np.dtype(buf.dtype).itemsize + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def workspace_layout(program: Program, temps) -> tuple[dict[str, int], int]:
    """({name: byte offset} of the non-empty `temps`, the block's size in bytes)."""
    wanted = {b.name: b for b in temps if b.size}
    lifetimes = temp_lifetimes(program, wanted)
    offsets, total, live = {}, 0, []          # live: (last statement, offset, bytes)
    # Unmentioned temporaries (none in practice) get a lifetime of their own past the end.
    end = len(program.body)
    order = sorted(wanted, key=lambda n: (lifetimes.get(n, (end, end))[0], wanted[n].order))
    for name in order:
        first, last = lifetimes.get(name, (end, end))
        live = [block for block in live if block[0] >= first]
        size = padded_bytes(wanted[name])
        offset = lowest_gap(sorted((o, o + s) for _, o, s in live), size)
        offsets[name] = offset
        total = max(total, offset + size)
        live.append((last, offset, size))
    return offsets, total


def lowest_gap(taken, size: int) -> int:
    """The lowest offset where `size` bytes fit between the sorted (start, end) ranges."""
    offset = 0
    for start, stop in taken:
        if start - offset >= size:
            return offset
        offset = max(offset, stop)
    return offset


def temp_lifetimes(program: Program, wanted) -> dict[str, tuple[int, int]]:
    """{name: (first, last) top-level statement mentioning it} for the names in `wanted`."""
    lifetimes: dict[str, tuple[int, int]] = {}
    for position, st in enumerate(program.body):
        for name in mentioned_buffers(st, program.kernels) & wanted.keys():
            first, _ = lifetimes.get(name, (position, position))
            lifetimes[name] = (first, position)
    return lifetimes


def mentioned_buffers(stmt, kernels) -> set[str]:
    """Names of every buffer a statement (with the kernels it calls, nested statements
    included) reaches: loads, stores, loop indices, flags, swaps; a view counts as its
    bases. Found by walking the structure itself, so a new kind of kernel or statement
    holding a Buffer anywhere is covered without a table to update."""
    names, stack, seen = set(), [stmt], set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (str, int, float, bool, np.dtype)):
            continue
        seen.add(id(obj))
        if isinstance(obj, Buffer):
            names.add(obj.name)
            stack.append(obj.of)
        elif isinstance(obj, Expr):
            stack.extend(obj.args)
        elif isinstance(obj, Affine):
            stack.extend(obj.dyn)
        elif isinstance(obj, Call):
            stack.append(kernels[obj.kernel])
            stack.extend(obj.scalars)
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
    return names
