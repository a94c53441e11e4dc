"""Batching matrix products, dense linear algebra and FFTs.

Every linalg primitive already works on a stack of matrices in its leading axes (and `fft`
on a stack of rows), so a batch axis in front is one more stack axis. dot_general does too, but when only one side is
batched and the product is a plain 2-D one, folding the batch into the rows (lhs) or the
columns (rhs) keeps it one large matrix product instead of broadcasting the other side.
"""
from __future__ import annotations

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from .moves import all_to_front, example_shape, moveaxis, reshape
from .table import register

MUL = P.get("mul")


@register("dot_general")
def dot_general_batching(size, values, dims):
    (lhs, rhs), (ld, rd) = values, dims
    if ld is not None and rd is None and len(example_shape(lhs, ld)) == 2:
        return _fold_into_rows(size, moveaxis(lhs, ld, 0), rhs)
    if ld is None and rd is not None and len(example_shape(rhs, rd)) == 2:
        return _fold_into_columns(size, lhs, moveaxis(rhs, rd, 1))
    lhs, rhs = all_to_front(values, dims, size)
    if _is_outer_product(lhs, rhs):
        return _outer_product(lhs, rhs), 0
    return bind(P.dot_general, lhs, rhs), 0


def _is_outer_product(lhs, rhs) -> bool:
    """A contraction of length 1 between operands of one float dtype: (..., m, 1) @ (..., 1, n),
    as the gradient of a per-example matrix product is. A broadcast product computes it in
    one fused pass where a batch of k=1 matrix products would not."""
    a, b = aval_of(lhs), aval_of(rhs)
    return a.shape[-1] == 1 and a.dtype == b.dtype and dtypes.is_float(a.dtype) \
        and not a.weak_type and not b.weak_type


def _outer_product(lhs, rhs):
    a, b = aval_of(lhs), aval_of(rhs)
    shape = a.shape[:-1] + b.shape[-1:]
    keep = tuple(range(len(shape)))
    return bind(MUL, bind(P.broadcast_in_dim, lhs, shape=shape, broadcast_dimensions=keep),
                bind(P.broadcast_in_dim, rhs, shape=shape, broadcast_dimensions=keep))


def _fold_into_rows(size, lhs, rhs):
    """(B, m, k) @ (k, n) as one (B*m, k) @ (k, n) product."""
    _, m, k = aval_of(lhs).shape
    out = bind(P.dot_general, reshape(lhs, (size * m, k)), rhs)
    return reshape(out, (size, m, aval_of(rhs).shape[1])), 0


def _fold_into_columns(size, lhs, rhs):
    """(m, k) @ (k, B, n) as one (m, k) @ (k, B*n) product; the batch lands in axis 1."""
    k, _, n = aval_of(rhs).shape
    out = bind(P.dot_general, lhs, reshape(rhs, (k, size * n)))
    return reshape(out, (aval_of(lhs).shape[0], size, n)), 1


@register("fft")
def fft_batching(size, values, dims, *, axis, **params):
    """A batch axis in front; the transformed axis moves one place back."""
    (x,), (d,) = values, dims
    return bind(P.fft, moveaxis(x, d, 0), axis=axis + 1, **params), 0


def _stacked_rule(prim):
    def rule(size, values, dims, **params):
        return bind(prim, *all_to_front(values, dims, size), **params), 0
    rule.__name__ = f"{prim.name}_batching"
    return rule


for _name in ("linalg_solve", "linalg_det", "linalg_slogdet", "cholesky", "qr_q", "qr_r",
              "eigh", "svd", "eig"):
    register(_name)(_stacked_rule(P.get(_name)))
