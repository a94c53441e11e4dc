"""linalg.tensorinv, linalg.tensorsolve and the array-API linalg.cross: the tensor forms
reshape to a square matrix problem for inv/solve and back (NumPy's definitions)."""
from __future__ import annotations

import math

from ..base.operands import operand, reshape, shape_of


def tensorinv(a, ind=2):
    """The inverse of tensordot(a, ., ind): shape a.shape[ind:] + a.shape[:ind]."""
    from .linalg import inv
    a = operand(a)
    ind = int(ind)
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer; got ind={ind}")
    out_shape = shape_of(a)[ind:] + shape_of(a)[:ind]
    rows, cols = math.prod(shape_of(a)[:ind]), math.prod(shape_of(a)[ind:])
    if rows != cols:
        raise ValueError(f"tensorinv is only possible when the product of the first {ind} "
                         f"axes matches that of the remaining axes; got shape "
                         f"{shape_of(a)}")
    return reshape(inv(reshape(a, (rows, cols))), out_shape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b (after moving `axes` of a to the end)."""
    from ._shape import transpose
    from .linalg import solve
    a, b = operand(a), operand(b)
    if axes is not None:
        ndim = len(shape_of(a))
        moved = [ax % ndim for ax in axes]
        a = transpose(a, tuple([i for i in range(ndim) if i not in moved] + moved))
    out_shape = shape_of(a)[len(shape_of(b)):]
    rows, cols = math.prod(shape_of(b)), math.prod(out_shape)
    if rows != cols:
        raise ValueError(f"tensorsolve: a's leading axes {shape_of(a)[:len(shape_of(b))]} "
                         f"and trailing axes {out_shape} must hold as many elements")
    x = solve(reshape(a, (rows, cols)), reshape(b, (rows,)))
    return reshape(x, out_shape)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-vectors along `axis` (the array-API form: both must have
    length 3 there)."""
    from ._calculus import cross as cross_
    x1, x2 = operand(x1), operand(x2)
    if shape_of(x1)[axis] != 3 or shape_of(x2)[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they have shapes {shape_of(x1)} and {shape_of(x2)}")
    return cross_(x1, x2, axis=axis)
