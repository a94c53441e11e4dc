"""Moving, inserting and materialising batch axes: the few primitives every rule needs.

`None` as a batch dim means "not batched": the value is shared by every batch member.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import ShapedArray, aval_of, bind


def moveaxis(x, src: int, dst: int):
    """`x` with its axis `src` moved to position `dst` (a transpose; nothing if equal)."""
    if src == dst:
        return x
    perm = [i for i in range(aval_of(x).ndim) if i != src]
    perm.insert(dst, src)
    return bind(P.transpose, x, permutation=tuple(perm))


def broadcast_batch(x, size: int, axis: int = 0):
    """An unbatched `x` repeated `size` times along a new axis at `axis`."""
    aval = aval_of(x)
    shape = list(aval.shape)
    shape.insert(axis, size)
    dims = tuple(i if i < axis else i + 1 for i in range(aval.ndim))
    return bind(P.broadcast_in_dim, x, shape=tuple(shape), broadcast_dimensions=dims)


def to_front(x, dim, size: int):
    """`x` batched along axis 0, broadcasting it first if it is not batched."""
    return broadcast_batch(x, size, 0) if dim is None else moveaxis(x, dim, 0)


def all_to_front(values, dims, size: int) -> list:
    return [to_front(x, d, size) for x, d in zip(values, dims)]


def move_to(x, dim, dst: int, size: int):
    """`x` batched along axis `dst` (broadcast there if not batched)."""
    return broadcast_batch(x, size, dst) if dim is None else moveaxis(x, dim, dst)


def example_shape(x, dim) -> tuple[int, ...]:
    """The shape one batch member sees."""
    shape = aval_of(x).shape
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


def batched_aval(aval: ShapedArray, size: int) -> ShapedArray:
    return ShapedArray((size,) + aval.shape, aval.dtype, aval.weak_type)


def example_axis(axis: int, dim: int) -> int:
    """Where one member's axis `axis` sits in an array batched along `dim`."""
    return axis if axis < dim else axis + 1


def reshape(x, shape):
    shape = tuple(shape)
    return x if aval_of(x).shape == shape else bind(P.reshape, x, new_sizes=shape)


def convert(x, dtype):
    aval = aval_of(x)
    if aval.dtype == dtype and not aval.weak_type:
        return x
    return bind(P.convert_element_type, x, new_dtype=dtype, weak_type=False)
