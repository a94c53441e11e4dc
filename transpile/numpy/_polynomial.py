"""Polynomials as coefficient vectors, highest power first (NumPy's poly1d convention):
`poly`, `polyval`, `polyadd`, `polysub`, `polymul`, `polydiv`, `polyder`, `polyint`,
`polyfit`. Lengths are static, so the loops below unroll into the trace."""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ..base.operands import astype, operand, reshape, shape_of


def _promoted(*xs, inexact=False):
    from ._dtype_api import result_type
    xs = [operand(x) for x in xs]
    dt = result_type(*xs)
    if inexact:
        dt = dtypes.float_for_integers(dt)
    return [astype(x, dt) for x in xs]


def _static_order(m, what):
    if isinstance(m, Tracer):
        raise TypeError(f"{what} must be static")
    return operator.index(m)


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots."""
    from ._creation import ones
    from ._manipulation import atleast_1d
    from ._mathfuncs import convolve
    (z,) = _promoted(seq_of_zeros, inexact=True)
    z = atleast_1d(z)
    if len(shape_of(z)) == 2 and shape_of(z)[0] == shape_of(z)[1] != 0:
        from ._eig import eigvals          # its characteristic polynomial (complex, as JAX)
        z = eigvals(z)
    if len(shape_of(z)) != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dt = aval_of(z).dtype
    if shape_of(z)[0] == 0:
        return ones((), dtype=dt)
    a = ones((1,), dtype=dt)
    for k in range(shape_of(z)[0]):
        from ._shape import stack
        a = convolve(a, stack([astype(1, dt), E.negative(z[k])]), mode="full")
    return a


def polyval(p, x, *, unroll=16):
    """p[0] * x**(n-1) + ... + p[n-1], by Horner's rule."""
    p, x = _promoted(p, x)
    y = E.multiply(x, 0)
    for k in range(shape_of(p)[0]):
        y = E.add(E.multiply(y, x), p[k])
    return y


def _aligned_sum(a1, a2, combine):
    from ._manipulation import pad
    n = max(shape_of(a1)[0], shape_of(a2)[0])
    a1 = pad(a1, (n - shape_of(a1)[0], 0))
    a2 = pad(a2, (n - shape_of(a2)[0], 0))
    return combine(a1, a2)


def polyadd(a1, a2):
    a1, a2 = _promoted(a1, a2)
    return _aligned_sum(a1, a2, E.add)


def polysub(a1, a2):
    a1, a2 = _promoted(a1, a2)
    return _aligned_sum(a1, a2, E.subtract)


def polymul(a1, a2, *, trim_leading_zeros=False):
    from ._creation import zeros
    from ._insert_delete import trim_zeros
    from ._mathfuncs import convolve
    a1, a2 = _promoted(a1, a2, inexact=True)
    if trim_leading_zeros and (shape_of(a1)[0] > 1 or shape_of(a2)[0] > 1):
        a1, a2 = trim_zeros(a1, trim="f"), trim_zeros(a2, trim="f")
    if shape_of(a1)[0] == 0:
        a1 = zeros(1, dtype=aval_of(a2).dtype)
    if shape_of(a2)[0] == 0:
        a2 = zeros(1, dtype=aval_of(a1).dtype)
    return convolve(a1, a2, mode="full")


def polydiv(u, v, *, trim_leading_zeros=False):
    """(quotient, remainder) of long division; the remainder keeps u's length unless
    trim_leading_zeros (concrete values only) strips its leading near-zeros."""
    from ._creation import zeros
    u, v = _promoted(u, v, inexact=True)
    m, n = shape_of(u)[0] - 1, shape_of(v)[0] - 1
    scale = E.divide(1.0, v[0])
    q = zeros(max(m - n + 1, 1), dtype=aval_of(u).dtype)
    from ._at import IndexUpdateRef
    for k in range(0, m - n + 1):
        d = E.multiply(scale, u[k])
        q = IndexUpdateRef(q, k).set(d)
        u = IndexUpdateRef(u, slice(k, k + n + 1)).add(E.multiply(E.negative(d), v))
    if trim_leading_zeros:
        if isinstance(u, Tracer):
            raise TypeError("polydiv: trim_leading_zeros=True needs concrete values (the "
                            "remainder's length depends on them)")
        tol = np.sqrt(np.finfo(aval_of(u).dtype).eps)
        values = np.asarray(u)
        small = np.abs(values) < tol
        start = int(np.argmin(small)) if not small.all() else len(values)
        u = u[start:]
    return q, u


def polyder(p, m=1):
    """The m-th derivative's coefficients."""
    m = _static_order(m, "polyder: 'm'")
    (p,) = _promoted(p, inexact=True)
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m == 0:
        return p
    n = shape_of(p)[0]
    coeff = np.prod(np.arange(m, n)[None] - np.arange(m)[:, None], axis=0)[::-1]
    return E.multiply(p[:-m], astype(coeff, aval_of(p).dtype))


def polyint(p, m=1, k=None):
    """The m-th antiderivative's coefficients, with integration constants k."""
    from ._shape import concatenate
    m = _static_order(m, "polyint: 'm'")
    p, k = _promoted(p, 0 if k is None else k, inexact=True)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = reshape(k, (-1,))
    if shape_of(k)[0] == 1:
        from ..base.operands import broadcast_to
        k = broadcast_to(k, (m,))
    if shape_of(k) != (m,):
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    if m == 0:
        return p
    n = shape_of(p)[0]
    grid = np.arange(n + m)[None] - np.arange(m)[:, None]
    coeff = np.maximum(1, grid).prod(0)[::-1]
    return E.divide(concatenate([p, k]), astype(coeff, aval_of(p).dtype))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial coefficients of degree `deg` (NumPy's column scaling)."""
    from . import linalg
    from ._calculus import vander
    from ._matmul import matmul
    from ._reductions import sum as sum_
    from ._shape import transpose
    deg = _static_order(deg, "polyfit: 'deg'")
    x, y = _promoted(x, y, inexact=True)
    order = deg + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if len(shape_of(x)) != 1:
        raise TypeError("expected 1D vector for x")
    if shape_of(x)[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if len(shape_of(y)) not in (1, 2):
        raise TypeError("expected 1D or 2D array for y")
    if shape_of(x)[0] != shape_of(y)[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = shape_of(x)[0] * float(np.finfo(aval_of(x).dtype).eps)
    lhs, rhs = vander(x, order), y
    if w is not None:
        (w,) = _promoted(w, inexact=True)
        if shape_of(w) != (shape_of(y)[0],):
            raise TypeError("expected a 1-d array for weights of y's length")
        lhs = E.multiply(lhs, reshape(w, (-1, 1)))
        rhs = E.multiply(rhs, reshape(w, (-1, 1)) if len(shape_of(rhs)) == 2 else w)
    scale = E.sqrt(sum_(E.multiply(lhs, lhs), axis=0))
    lhs = E.divide(lhs, scale)
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = E.divide(c, reshape(scale, (-1, 1)) if len(shape_of(c)) > 1 else scale)
    if full:
        return c, resids, rank, s, astype(rcond, aval_of(x).dtype)
    if cov:
        vbase = E.divide(linalg.inv(matmul(transpose(lhs), lhs)),
                         E.multiply(reshape(scale, (-1, 1)), scale))
        if cov == "unscaled":
            fac = astype(1.0, aval_of(x).dtype)
        else:
            if shape_of(x)[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = E.divide(resids, shape_of(x)[0] - order)
        fac = reshape(fac, (-1,))
        if len(shape_of(y)) == 1:
            return c, E.multiply(vbase, reshape(fac, (1, 1)) if shape_of(fac)[0] == 1
                                 else fac[0])
        return c, E.multiply(reshape(vbase, shape_of(vbase) + (1,)), fac)
    return c
