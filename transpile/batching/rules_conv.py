"""Batching convolutions (the primitive `conv`, canonical layouts lhs (N, D, H, W, C),
rhs (KD, KH, KW, I, O)).

Batched images with one shared kernel are more images: the batch folds into N. A batched
kernel becomes more feature groups, as JAX does it: batch member b's channels and output
features become group block b, so one convolution computes every member's and no kernel
is repeated per image.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import aval_of, bind
from .moves import move_to, moveaxis, reshape
from .table import register


@register("conv")
def conv_batching(size, values, dims, **params):
    (lhs, rhs), (ld, rd) = values, dims
    if rd is None:
        lhs = moveaxis(lhs, ld, 0)
        b, n, *rest = aval_of(lhs).shape
        out = bind(P.conv, reshape(lhs, (b * n, *rest)), rhs, **params)
        return reshape(out, (b, n) + aval_of(out).shape[1:]), 0
    return _as_feature_groups(size, lhs, ld, rhs, rd, params)


def _as_feature_groups(size, lhs, ld, rhs, rd, params):
    """lhs (N, D, H, W, B*C) with C = G*I ordered (b, g, i); rhs (KD, KH, KW, I, B*O) with O
    ordered (b, g, o): groups B*G, so block (b, g) reads member b's lhs with its kernel."""
    lhs = move_to(lhs, ld, 4, size)                      # (N, D, H, W, B, C)
    n, d, h, w, _, c = aval_of(lhs).shape
    rhs = move_to(rhs, rd, 4, size)                      # (KD, KH, KW, I, B, O)
    kd, kh, kw, i, _, o = aval_of(rhs).shape
    groups = params["feature_group_count"] * size
    out = bind(P.conv, reshape(lhs, (n, d, h, w, size * c)),
               reshape(rhs, (kd, kh, kw, i, size * o)),
               **{**params, "feature_group_count": groups})
    n, od, oh, ow, _ = aval_of(out).shape
    return moveaxis(reshape(out, (n, od, oh, ow, size, o)), 4, 0), 0
