"""Batching elementwise primitives: ufuncs, select, casts, special functions.

Elementwise primitives take operands of one shape (0-d operands broadcast implicitly). When
every batched operand already has the batch axis at the same place and the full shape, the
primitive applies as it is; otherwise batch axes move to the front and operands are broadcast
to the batched result shape.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import bind
from .moves import broadcast_batch, example_shape, moveaxis
from .table import register

ONE_OPERAND = ("convert_element_type", "bitcast_convert_type", *P.SPECIAL_UNARY,
               *P.COMPLEX_PARTS)


def _result_shape(shapes) -> tuple[int, ...]:
    return next((s for s in shapes if s != ()), ())


def _aligned_dim(values, dims, shapes, out_shape):
    """The common batch dim if the operands can be used as they are, else None."""
    batched = {d for d in dims if d is not None}
    if len(batched) != 1:
        return None
    for d, shape in zip(dims, shapes):
        if (shape != out_shape) if d is not None else (shape != ()):
            return None
    return batched.pop()


def _to_front_full(x, dim, shape, out_shape, size):
    """`x` batched along axis 0 with the full batched result shape, or a 0-d shared value."""
    if dim is None:
        return x if shape == () else broadcast_batch(x, size, 0)
    x = moveaxis(x, dim, 0)
    if shape == out_shape:
        return x
    return bind(P.broadcast_in_dim, x, shape=(size,) + out_shape, broadcast_dimensions=(0,))


def elementwise_rule(prim):
    def rule(size, values, dims, **params):
        shapes = [example_shape(x, d) for x, d in zip(values, dims)]
        out_shape = _result_shape(shapes)
        dim = _aligned_dim(values, dims, shapes, out_shape)
        if dim is not None:
            return bind(prim, *values, **params), dim
        args = [_to_front_full(x, d, s, out_shape, size)
                for x, d, s in zip(values, dims, shapes)]
        return bind(prim, *args, **params), 0
    rule.__name__ = f"{prim.name}_batching"
    return rule


for _name in (*P.ELEMENTWISE_UFUNC, "select", *ONE_OPERAND):
    register(_name)(elementwise_rule(P.get(_name)))
