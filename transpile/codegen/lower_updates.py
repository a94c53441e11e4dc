"""Lowering of `dynamic_update_slice` (what `.at[...]` updates become) into kernels.

In place (buffers.plan_in_place decided the operand's buffer may be overwritten): one
loop over the window, storing into the operand's buffer. Into a buffer of its own with
static starts: the window from the update, and the boxes around it copied from the
operand, each a plain loop (no per-element test of which side an element is on). Other
updates are an elementwise `select` (lower.py's index rule), fused like any elementwise op.
"""
from __future__ import annotations

import collections
import math

from ..ir import Literal
from .kernel_ir import Affine, Buffer, Expr, LoopKernel, linearize, walk
from .lower_exprs import cast, clamped_starts


def in_place_update_kernels(low, eqn, buf, comment):
    """The window of a dynamic_update_slice stored into its operand's buffer.

    When the update reads the buffer anywhere but at the element it replaces, it is
    computed into a temporary first (the window is small: see buffers.plan_in_place)."""
    update = eqn.inputs[1]
    sizes = update.aval.shape
    n = len(sizes)
    idx = tuple(Affine.var(d, n) for d in range(n))
    store = linearize(_window_index(low, eqn, buf.shape, sizes, idx), buf.shape, n)
    value = cast(low.value_at(update, idx, n), buf.dtype, eqn.source)
    kernels = []
    if math.prod(sizes) > 1 and not reads_only_at(value, buf, store, sizes):
        tmp = low.builder.temp(sizes, buf.dtype, "window")
        flat = linearize(idx, sizes, n)
        kernels.append(LoopKernel(sizes, tmp, flat, value, f"{comment}: the update, "
                                  f"computed before {buf.name} changes under it"))
        value = Expr("load", (tmp, flat), buf.dtype)
    kernels.append(LoopKernel(sizes, buf, store, value,
                              f"{comment}, in place: {buf.name} is dead after it"))
    return kernels


def _window_index(low, eqn, shape, sizes, idx):
    """The window's element `idx` as an index into the array: static starts as constants
    (so that reads_only_at sees a slice of the array at the window, `x[1:]` in
    `x.at[1:].set(x[1:] - ...)`, read where it is written), traced ones as run-time terms."""
    starts = eqn.inputs[2:]
    if all(isinstance(s, Literal) for s in starts):
        return tuple(a.shift(min(max(int(s.value), 0), d - k))
                     for a, s, d, k in zip(idx, starts, shape, sizes))
    return tuple(a.plus(s) for a, s in zip(idx, clamped_starts(low, eqn, shape, sizes)))


def static_update_kernels(low, eqn, buf, comment):
    """An update at static starts into a buffer of its own: the window from the update,
    the boxes around it from the operand. No per-element test of which side to take."""
    x, update = eqn.inputs[0], eqn.inputs[1]
    shape, sizes = buf.shape, update.aval.shape
    starts = [min(max(int(s.value), 0), d - n)
              for s, d, n in zip(eqn.inputs[2:], shape, sizes)]
    kernels = [_box_kernel(low, buf, update, starts, sizes, starts=None,
                           comment=f"{comment} (the window)")]
    for lo, extent in complement_boxes(shape, starts, sizes):
        kernels.append(_box_kernel(low, buf, x, lo, extent, starts=lo,
                                   comment=f"{comment} (kept at {tuple(lo)})"))
    return kernels


def _box_kernel(low, buf, atom, lo, extent, starts, comment):
    """buf[lo + i] = atom[(starts or 0) + i] for i over `extent`."""
    n = len(extent)
    idx = tuple(Affine.var(d, n) for d in range(n))
    src = idx if starts is None else tuple(a.shift(s) for a, s in zip(idx, starts))
    store = linearize(tuple(a.shift(s) for a, s in zip(idx, lo)), buf.shape, n)
    value = cast(low.value_at(atom, src if atom.aval.shape else (), n), buf.dtype, None)
    return LoopKernel(tuple(extent), buf, store, value, comment)


def complement_boxes(shape, starts, sizes):
    """(corner, extent) of the boxes that tile `shape` minus the window at `starts`: per
    dimension, the slabs before and after the window, within the window's span of the
    dimensions before it."""
    boxes = []
    for d in range(len(shape)):
        span_lo, span = list(starts[:d]), list(sizes[:d])
        rest = [0] * (len(shape) - d - 1), list(shape[d + 1:])
        for lo, hi in ((0, starts[d]), (starts[d] + sizes[d], shape[d])):
            extent = span + [hi - lo] + rest[1]
            if hi > lo and math.prod(extent) > 0:
                boxes.append((span_lo + [lo] + rest[0], extent))
    return boxes


def reads_only_at(value: Expr, buf: Buffer, store: Affine, extents) -> bool:
    """Does `value` load from `buf` only at the index `store` writes?"""
    where = _canonical(store, extents)
    return all(_canonical(e.args[1], extents) == where
               for e in walk(value) if e.kind == "load" and e.args[0] == buf)


def _canonical(a: Affine, extents):
    """An Affine up to what cannot change its value: loop variables of extent 1 (always 0)
    and the order of the run-time terms."""
    coeffs = tuple(0 if n == 1 else c for c, n in zip(a.coeffs, extents))
    return coeffs, a.const, collections.Counter(a.dyn)
