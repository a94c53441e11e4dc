"""matmul, dot and vdot, expressed through one canonical batched-matmul primitive."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._elementwise import add, bitwise_and, equal, multiply, not_equal, where
from ._preferred import takes_precision
from ._reductions import _reduce
from ._shape import moveaxis
from ..base.operands import astype, broadcast_to, operand, reshape, strong_operand, weak_flags


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


_FEW_ROWS = 8


@takes_precision
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
    if len(sb) == 2 and len(sa) > 2 and sa[-2] <= _FEW_ROWS:
        # A stack of matrices of few rows times one matrix is one product of the stacked
        # rows: a single GEMM instead of a batch of skinny ones (NPBench's doitgen: 3600
        # 1x128 @ 128x128). Taller matrices stay batched: stacking a transposed view's rows
        # would copy it, and each product of the batch is already a GEMM of its own.
        out = _matmul_2d_or_batched(reshape(a, (math.prod(sa[:-1]), sa[-1])), b)
        return reshape(out, sa[:-1] + sb[-1:])
    batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    a = broadcast_to(a, batch + sa[-2:])
    b = broadcast_to(b, batch + sb[-2:])
    return _matmul_2d_or_batched(a, b)


@takes_precision
def dot(a, b):
    a, b = strong_operand(a), strong_operand(b)
    sa, sb = aval_of(a).shape, aval_of(b).shape
    if not sa or not sb:
        return scaled(a, b)
    if len(sb) == 1:
        if sa[-1] != sb[0]:
            raise ValueError(f"dot: shapes {sa} and {sb} not aligned: {sa[-1]} (dim "
                             f"{len(sa) - 1}) != {sb[0]} (dim 0)")
        if _blas_scalar_case(sa, sb):
            return _blas_scalar_dot(a, b, sa[:-1])
        return _inner(a, broadcast_to(b, sa)) if len(sa) > 1 else _inner(a, b)
    k = sb[-2]
    if sa[-1] != k:
        raise ValueError(f"dot: shapes {sa} and {sb} not aligned: {sa[-1]} (dim {len(sa) - 1}) "
                         f"!= {k} (dim {len(sb) - 2})")
    if _blas_scalar_case(sa, sb):
        return _blas_scalar_dot(a, b, sa[:-1] + sb[:-2] + sb[-1:])
    a2 = reshape(a, (math.prod(sa[:-1]), k))
    b2 = reshape(moveaxis(b, -2, 0), (k, math.prod(sb[:-2]) * sb[-1]))
    return reshape(_matmul_2d_or_batched(a2, b2), sa[:-1] + sb[:-2] + sb[-1:])


# NumPy's dot of float arrays (both at most 2-D) goes through BLAS, which sees a one-element
# operand as a scalar alpha: two scalars are multiplied; alpha times an array of two or more
# elements is added into a zeroed result (axpy), which BLAS skips when alpha == 0 (so a zero
# times inf is +0.0 there, not NaN). Its other loops add products into a zeroed result too.

def scaled(a, b):
    """dot/inner with a 0-d operand, as NumPy computes it."""
    alpha, x = (a, b) if not aval_of(a).shape else (b, a)
    out = multiply(a, b)
    sx = aval_of(x).shape
    if not dtypes.is_float(aval_of(out).dtype) or _one_element(sx):
        return out
    # NumPy's own loop (also for 16-bit floats, which BLAS lacks): 0.0 + a*s (a zero's sign)
    if len(sx) > 2 or dtypes.is_half(aval_of(out).dtype):
        return add(out, 0.0)
    return where(equal(alpha, 0), np.zeros((), aval_of(out).dtype), add(out, 0.0))


def _one_element(shape) -> bool:
    return len(shape) <= 2 and math.prod(shape) == 1


def _blas_scalar_case(sa, sb) -> bool:
    return len(sa) <= 2 and len(sb) <= 2 and (_one_element(sa) or _one_element(sb))


def _blas_scalar_dot(a, b, shape):
    """dot of two at most 2-D operands, one of one element (the contracted axis has size 1, so
    the result holds the other's elements in order)."""
    if _one_element(aval_of(a).shape):
        return reshape(scaled(reshape(a, ()), b), shape)
    return reshape(scaled(a, reshape(b, ())), shape)


@takes_precision
def vdot(a, b):
    return dot(reshape(operand(a), (-1,)), reshape(operand(b), (-1,)))
