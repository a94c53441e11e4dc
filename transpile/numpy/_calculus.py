"""Differences, integrals and products of vectors: `ediff1d`, `unwrap`, `trapezoid`,
`cross`, `vander`, `matvec`, `vecmat`. Compositions of slices, reductions and elementwise
arithmetic, with NumPy's (and JAX's) formulas."""
from __future__ import annotations

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from . import _reductions as R
from ._shape import concatenate, moveaxis, stack
from ..base.operands import astype, normalize_axis, operand, reshape, shape_of


def _slice(x, axis, start, stop):
    key = [slice(None)] * len(shape_of(x))
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened array, with optional values before and after."""
    arr = reshape(operand(ary), (-1,))
    dt = aval_of(arr).dtype
    result = E.subtract(arr[1:], arr[:-1])
    if to_begin is not None:
        result = concatenate([reshape(astype(operand(to_begin), dt), (-1,)), result])
    if to_end is not None:
        result = concatenate([result, reshape(astype(operand(to_end), dt), (-1,))])
    return result


def unwrap(p, discont=None, axis=-1, period=6.283185307179586):
    """p with jumps larger than `discont` along `axis` changed by multiples of `period`."""
    from ._dtype_api import result_type
    p = operand(p)
    dt = result_type(p, period)
    if dtypes.is_complex(dt):
        raise ValueError("unwrap does not support complex inputs.")
    p = astype(p, dt)
    period = astype(operand(period), dt)
    ax = normalize_axis(axis, len(shape_of(p)))
    if shape_of(p)[ax] == 0:
        return p
    interval = E.floor_divide(period, 2) if dtypes.is_int(dt) else E.divide(period, 2)
    discont = interval if discont is None else discont
    dd = E.subtract(_slice(p, ax, 1, None), _slice(p, ax, 0, -1))
    ddmod = E.subtract(E.remainder(E.add(dd, interval), period), interval)
    ddmod = E.where(E.logical_and(E.equal(ddmod, E.negative(interval)), E.greater(dd, 0)),
                    interval, ddmod)
    correct = E.where(E.less(E.abs(dd), discont), 0, E.subtract(ddmod, dd))
    from ._cumulative import cumsum
    rest = E.add(_slice(p, ax, 1, None), cumsum(correct, axis=ax))
    return concatenate([_slice(p, ax, 0, 1), astype(rest, aval_of(p).dtype)], axis=ax)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The trapezoidal rule along `axis`, with sample points `x` or spacing `dx`."""
    from ._manipulation import diff
    y = operand(y)
    if x is None:
        (y,) = _inexact(y)
        d = operand(dx)
        if len(shape_of(d)) > 0:
            d = reshape(d, (1,) * (len(shape_of(y)) - len(shape_of(d))) + shape_of(d))
            d = moveaxis(d, axis, -1)
    else:
        y, x = _inexact(y, operand(x))
        d = diff(x) if len(shape_of(x)) == 1 else moveaxis(diff(x, axis=axis), axis, -1)
    y = moveaxis(y, axis, -1)
    if len(shape_of(d)) == 0 or shape_of(d)[-1] == 1:
        step = d if len(shape_of(d)) == 0 else d[..., 0]
        ends = E.multiply(0.5, E.add(y[..., 0], y[..., -1]))
        return E.multiply(step, E.subtract(R.sum(y, axis=-1), ends))
    return E.multiply(0.5, R.sum(E.multiply(d, E.add(y[..., 1:], y[..., :-1])), axis=-1))


def _inexact(*xs):
    from ._dtype_api import result_type
    dt = dtypes.float_for_integers(result_type(*xs))
    return [astype(x, dt) for x in xs]


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-vectors along the given axes (2-vectors give the
    z component only)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(operand(a), axisa, -1), moveaxis(operand(b), axisb, -1)
    if shape_of(a)[-1] not in (2, 3) or shape_of(b)[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if shape_of(a)[-1] == 2 and shape_of(b)[-1] == 2:
        return E.subtract(E.multiply(a[..., 0], b[..., 1]), E.multiply(a[..., 1], b[..., 0]))
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if shape_of(a)[-1] == 3 else E.multiply(a0, 0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if shape_of(b)[-1] == 3 else E.multiply(b0, 0)
    c = stack([E.subtract(E.multiply(a1, b2), E.multiply(a2, b1)),
               E.subtract(E.multiply(a2, b0), E.multiply(a0, b2)),
               E.subtract(E.multiply(a0, b1), E.multiply(a1, b0))], axis=-1)
    return moveaxis(c, -1, axisc)


def vander(x, N=None, increasing=False):
    """Columns x**(N-1), ..., x**0 (or increasing powers)."""
    import numpy as np
    x = operand(x)
    if len(shape_of(x)) != 1:
        raise ValueError("x must be a one-dimensional array")
    n = shape_of(x)[0] if N is None else int(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    powers = np.arange(n)
    if not increasing:
        powers = n - 1 - powers
    return E.power(reshape(x, (-1, 1)), astype(powers, aval_of(x).dtype))


def matvec(x1, x2, /):
    """Matrix-vector products over the trailing axes: x1 (..., m, n) with x2 (..., n)."""
    from ._matmul import matmul
    x1, x2 = operand(x1), operand(x2)
    return matmul(x1, reshape(x2, shape_of(x2) + (1,)))[..., 0]


def vecmat(x1, x2, /):
    """Vector-matrix products over the trailing axes: conj(x1) (..., m) with x2 (..., m, n)."""
    from ._matmul import matmul
    x1, x2 = operand(x1), operand(x2)
    left = reshape(E.conj(x1), shape_of(x1)[:-1] + (1, shape_of(x1)[-1]))
    return matmul(left, x2)[..., 0, :]
