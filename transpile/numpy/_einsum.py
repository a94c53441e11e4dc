"""einsum: subscripts lowered to diagonals, sums, transposes, reshapes and the batched
matmul primitive (contractions) or a broadcast multiply (no contraction) — never a loop
per element. Operands contract left to right; `optimize=` is accepted and ignored.
"""
from __future__ import annotations

import math
import string

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ._preferred import accumulate_in
from ..base.operands import astype, broadcast_to, reshape, shape_of, strong_operand, weak_flags

_LETTERS = set(string.ascii_letters)
# Ellipsis axes get private labels (never letters a user can write), right-aligned.
_ELLIPSIS_LABELS = [chr(0x100 + k) for k in range(64)]


def einsum(subscripts, *operands, out=None, optimize=None, precision=None,
           preferred_element_type=None, _dot_general=None):
    if out is not None:
        raise TypeError("einsum: out= is not supported (arrays are immutable)")
    if not isinstance(subscripts, str):
        raise TypeError("einsum: the sublist form is not supported; pass a subscripts string")
    _check_path(optimize)
    operands, finish = accumulate_in(operands, precision, preferred_element_type, "einsum")
    ops = [strong_operand(x) for x in operands]
    inputs, output = _parse(subscripts.replace(" ", ""), [len(shape_of(x)) for x in ops])
    dt = dtypes.result_type([aval_of(x).dtype for x in ops], weak_flags(ops))
    sizes = _label_sizes(inputs, ops)
    ops = [_broadcast_labels(x, labels, sizes) for x, labels in zip(ops, inputs)]
    terms = [_single(x, labels, _needed(k, inputs, output), dt)
             for k, (x, labels) in enumerate(zip(ops, inputs))]
    x, labels = terms[0]
    for k in range(1, len(terms)):
        y, ylabels = terms[k]
        keep = set(output).union(*(set(l) for l in inputs[k + 1:]))
        x, labels = _pair(x, labels, y, ylabels, keep, sizes, dt)
    x, labels = _single(x, labels, set(output), dt)
    return finish(_transpose_to(x, labels, output))


def _check_path(optimize) -> None:
    """An explicit contraction path (einsum_path's) is accepted and ignored, as long as each
    step contracts at most two operands: JAX refuses more, and so does transpile."""
    if not isinstance(optimize, (list, tuple)):
        return
    for step in optimize:
        if isinstance(step, (list, tuple)) and len(step) > 2:
            raise NotImplementedError(
                f"jax.numpy.einsum does not support simultaneous contraction of 3 or more "
                f"operands (path step {tuple(step)}); split it into pairs, e.g. "
                f"optimize='greedy'")


def _parse(subscripts: str, ndims: list[int]):
    if "->" in subscripts:
        lhs, output = subscripts.split("->")
    else:
        lhs, output = subscripts, None
    specs = lhs.split(",")
    if len(specs) != len(ndims):
        raise ValueError(f"einsum: {len(specs)} operand subscripts for {len(ndims)} operands")
    inputs, widest = [], 0
    for spec, nd in zip(specs, ndims):
        labels = _expand(spec, nd)
        widest = max(widest, sum(1 for c in labels if c in _ELLIPSIS_LABELS))
        inputs.append(labels)
    if output is None:              # implicit: broadcast axes, then letters seen once, sorted
        counts = {}
        for labels in inputs:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        out = _ELLIPSIS_LABELS[64 - widest:]
        out += sorted(c for c, n in counts.items() if n == 1 and c in _LETTERS)
    else:
        if "..." in output:
            output = output.replace("...", "".join(_ELLIPSIS_LABELS[64 - widest:]))
        out = list(output)
        for c in out:
            if c not in _ELLIPSIS_LABELS and c not in _LETTERS:
                raise ValueError(f"einsum: invalid subscript {c!r} in the output")
            if not any(c in labels for labels in inputs):
                raise ValueError(f"einsum: output subscript {c!r} appears in no operand")
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscripts {output!r} repeat a letter")
    return inputs, out


def _expand(spec: str, nd: int) -> list:
    if "..." in spec:
        before, after = spec.split("...")
        width = nd - len(before) - len(after)
        if width < 0:
            raise ValueError(f"einsum: subscripts {spec!r} name more axes than the operand's "
                             f"{nd}")
        labels = list(before) + _ELLIPSIS_LABELS[64 - width:] + list(after)
    else:
        labels = list(spec)
    for c in labels:
        if c not in _LETTERS and c not in _ELLIPSIS_LABELS:
            raise ValueError(f"einsum: invalid subscript {c!r} in {spec!r}")
    if len(labels) != nd:
        raise ValueError(f"einsum: subscripts {spec!r} name {len(labels)} axes but the operand "
                         f"has {nd}")
    return labels


def _label_sizes(inputs, ops) -> dict:
    """Each label's size; a letter's sizes must agree (ellipsis axes broadcast)."""
    sizes, seen = {}, {}
    for k, (labels, x) in enumerate(zip(inputs, ops)):
        for c, n in zip(labels, shape_of(x)):
            if c not in sizes or sizes[c] == 1:
                sizes[c], seen[c] = n, k
            elif n != sizes[c] and n != 1:      # a length-1 axis broadcasts, as in NumPy
                raise ValueError(f"einsum: subscript {c!r} has size {n} in operand {k} "
                                 f"(shape {shape_of(x)}) but {sizes[c]} in operand {seen[c]} "
                                 f"(shape {shape_of(ops[seen[c]])})")
    return sizes


def _broadcast_labels(x, labels, sizes):
    """`x` with its length-1 axes stretched to their label's size elsewhere (NumPy's einsum
    broadcasts them, contracted labels included)."""
    target = tuple(sizes[c] for c in labels)
    return x if shape_of(x) == target else broadcast_to(x, target)


def _needed(k, inputs, output) -> set:
    return set(output).union(*(set(l) for j, l in enumerate(inputs) if j != k))


def _single(x, labels, keep, dt):
    """Take diagonals of repeated labels, then sum the labels nobody else needs."""
    from ._matrices import diagonal
    labels = list(labels)
    x = astype(x, dt)
    while len(set(labels)) != len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(c)
        j = labels.index(c, i + 1)
        x = diagonal(x, 0, i, j)
        labels = [l for d, l in enumerate(labels) if d not in (i, j)] + [c]
    summed = tuple(d for d, c in enumerate(labels) if c not in keep)
    if summed:
        x = _sum(x, summed, dt)
        labels = [c for d, c in enumerate(labels) if d not in summed]
    return x, labels


def _sum(x, axes, dt):
    from ._reductions import any, sum
    return any(x, axis=axes) if dt == dtypes.bool_ else sum(x, axis=axes, dtype=dt)


def _transpose_to(x, labels, order):
    from ._shape import transpose
    perm = [labels.index(c) for c in order]
    return transpose(x, perm) if perm != list(range(len(perm))) else x


def _pair(x, xl, y, yl, keep, sizes, dt):
    """Contract two terms: (batch, free_x, k) @ (batch, k, free_y) by the matmul kernel."""
    from ._matmul import matmul
    contracted = [c for c in xl if c in yl and c not in keep]
    batch = [c for c in xl if c in yl and c in keep]
    free_x = [c for c in xl if c not in yl]
    free_y = [c for c in yl if c not in xl]
    x = broadcast_to(x, tuple(sizes[c] if c in batch else n for c, n in zip(xl, shape_of(x))))
    y = broadcast_to(y, tuple(sizes[c] if c in batch else n for c, n in zip(yl, shape_of(y))))
    bshape = tuple(sizes[c] for c in batch)
    fx, fy = tuple(sizes[c] for c in free_x), tuple(sizes[c] for c in free_y)
    if not contracted:           # an outer or elementwise product: a broadcast multiply
        xs = reshape(_transpose_to(x, xl, batch + free_x), bshape + fx + (1,) * len(fy))
        ys = reshape(_transpose_to(y, yl, batch + free_y), bshape + (1,) * len(fx) + fy)
        product = E.logical_and(xs, ys) if dt == dtypes.bool_ else E.multiply(xs, ys)
        if dtypes.is_float(dt):  # NumPy adds products into a zeroed output: a zero is +0.0
            product = E.add(product, 0.0)
        return product, batch + free_x + free_y
    k = math.prod(sizes[c] for c in contracted)
    if k == 0:                   # an empty contraction sums nothing (no kernel reads empties)
        from ._creation import zeros
        return zeros(bshape + fx + fy, dt), batch + free_x + free_y
    xm = reshape(_transpose_to(x, xl, batch + free_x + contracted),
                 bshape + (math.prod(fx), k))
    ym = reshape(_transpose_to(y, yl, batch + contracted + free_y),
                 bshape + (k, math.prod(fy)))
    product = astype(matmul(xm, ym), dt)
    return reshape(product, bshape + fx + fy), batch + free_x + free_y


def einsum_path(subscripts, *operands, optimize="greedy"):
    """NumPy's einsum_path, for code that calls it; transpile contracts left to right."""
    return np.einsum_path(subscripts, *(np.zeros(shape_of(x)) for x in operands),
                          optimize=optimize)
