"""Batching debug_print: the batched values are printed as they are, one array per value
holding every member (as JAX prints a vmapped value)."""
from __future__ import annotations

from .. import primitives as P
from ..core import bind
from .moves import moveaxis
from .table import register


@register("debug_print")
def debug_print_batching(size, values, dims, *, fmt, treedef):
    shown = [x if d is None else moveaxis(x, d, 0) for x, d in zip(values, dims)]
    bind(P.debug_print, *shown, fmt=fmt, treedef=treedef)
    return [], []
