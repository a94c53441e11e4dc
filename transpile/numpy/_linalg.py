"""dot and matmul, expressed through one canonical batched-matmul primitive."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._elementwise import add, bitwise_and, multiply, not_equal
from ._reductions import _reduce
from ._shape import moveaxis
from ._util import astype, broadcast_to, operand, reshape, strong_operand, weak_flags


def _common_dtype(a, b) -> np.dtype:
    return dtypes.result_type([aval_of(a).dtype, aval_of(b).dtype], weak_flags([a, b]))


def _inner(a, b):
    """sum(a * b) over the last axis, keeping NumPy's dot dtype (no sum promotion)."""
    dt = _common_dtype(a, b)
    if dt == dtypes.bool_:
        return _reduce(P.reduce_or, bitwise_and(a, b), -1, False)
    return _reduce(P.reduce_sum, multiply(astype(a, dt), astype(b, dt)), -1, False)


def _matmul_2d_or_batched(a, b):
    dt = _common_dtype(a, b)
    if dt == dtypes.bool_:
        product = _matmul_2d_or_batched(astype(a, dtypes.int64), astype(b, dtypes.int64))
        return not_equal(product, 0)
    return bind(P.dot_general, astype(a, dt), astype(b, dt))


def matmul(a, b):
    a, b = operand(a), operand(b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if not sa or not sb:
        raise ValueError("matmul: input operand does not have enough dimensions (scalars are "
                         "not allowed; use multiply)")
    if sa[-1] != sb[0 if len(sb) == 1 else -2]:
        raise ValueError(f"matmul: shapes {sa} and {sb} are not aligned: {sa[-1]} (dim "
                         f"{len(sa) - 1}) != {sb[0 if len(sb) == 1 else -2]}")
    if len(sb) == 1:     # matrix @ vector: a product with one column (streams the matrix once)
        if len(sa) == 1:
            return _inner(a, b)
        out = matmul(a, reshape(b, sb + (1,)))
        return reshape(out, aval_of(out).shape[:-1])
    if len(sa) == 1:
        out = matmul(reshape(a, (1,) + sa), b)
        return reshape(out, aval_of(out).shape[:-2] + aval_of(out).shape[-1:])
    batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    a = broadcast_to(a, batch + sa[-2:])
    b = broadcast_to(b, batch + sb[-2:])
    return _matmul_2d_or_batched(a, b)


def dot(a, b):
    a, b = strong_operand(a), strong_operand(b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if not sa or not sb:
        return scaled(a, b)
    if len(sb) == 1:
        if sa[-1] != sb[0]:
            raise ValueError(f"dot: shapes {sa} and {sb} not aligned: {sa[-1]} (dim "
                             f"{len(sa) - 1}) != {sb[0]} (dim 0)")
        if _one_element(sa) and _one_element(sb):
            return _one_product(a, b, sa[:-1])
        return _inner(a, broadcast_to(b, sa)) if len(sa) > 1 else _inner(a, b)
    k = sb[-2]
    if sa[-1] != k:
        raise ValueError(f"dot: shapes {sa} and {sb} not aligned: {sa[-1]} (dim {len(sa) - 1}) "
                         f"!= {k} (dim {len(sb) - 2})")
    if _one_element(sa) and _one_element(sb):
        return _one_product(a, b, sa[:-1] + sb[:-2] + sb[-1:])
    a2 = reshape(a, (math.prod(sa[:-1]), k))
    b2 = reshape(moveaxis(b, -2, 0), (k, math.prod(sb[:-2]) * sb[-1]))
    return reshape(_matmul_2d_or_batched(a2, b2), sa[:-1] + sb[:-2] + sb[-1:])


# NumPy's dot of float arrays goes through BLAS, whose paths differ only in the sign of a zero:
# a scalar times an array of two or more elements is added into a zeroed result (axpy), so
# -0.0 products come out +0.0; two one-element operands (at most 2-D) are multiplied.

def scaled(a, b):
    """dot/inner with a 0-d operand: the product, as NumPy's BLAS path gives it."""
    out = multiply(a, b)
    other = aval_of(b).shape or aval_of(a).shape
    if dtypes.is_float(aval_of(out).dtype) and math.prod(other) >= 2:
        out = add(out, 0.0)          # 0.0 + a*s: only a zero's sign can change
    return out


def _one_element(shape) -> bool:
    return len(shape) <= 2 and math.prod(shape) == 1


def _one_product(a, b, shape):
    return reshape(multiply(reshape(a, ()), reshape(b, ())), shape)


def vdot(a, b):
    return dot(reshape(operand(a), (-1,)), reshape(operand(b), (-1,)))
