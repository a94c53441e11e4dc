"""Batching reductions, arg-reductions and sorts: the reduced axes shift past the batch axis.

Sort and argsort work along the last axis, which a batch axis in front never is — except for
a 0-d member, whose batched form (size,) would be sorted across the batch: there each member
is given an axis of length one to sort alone.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import aval_of, bind
from .moves import example_axis, moveaxis, reshape
from .table import register


def _reduction_rule(prim):
    def rule(size, values, dims, *, axes):
        d = dims[0]
        kept_before = sum(1 for a in range(d) if a not in [example_axis(b, d) for b in axes])
        return bind(prim, values[0], axes=tuple(example_axis(a, d) for a in axes)), kept_before
    rule.__name__ = f"{prim.name}_batching"
    return rule


for _name in P.REDUCTIONS:
    register(_name)(_reduction_rule(P.get(_name)))


def _arg_reduction_rule(prim):
    def rule(size, values, dims, *, axis, index_dtype):
        x = moveaxis(values[0], dims[0], 0)
        return bind(prim, x, axis=axis + 1, index_dtype=index_dtype), 0
    rule.__name__ = f"{prim.name}_batching"
    return rule


for _name in P.ARG_REDUCTIONS:
    register(_name)(_arg_reduction_rule(P.get(_name)))


def _sort_rule(prim):
    def rule(size, values, dims):
        x = moveaxis(values[0], dims[0], 0)
        if aval_of(x).ndim > 1:
            return bind(prim, x), 0
        return reshape(bind(prim, reshape(x, (size, 1))), (size,)), 0
    rule.__name__ = f"{prim.name}_batching"
    return rule


register("sort")(_sort_rule(P.sort))
register("argsort")(_sort_rule(P.argsort))
