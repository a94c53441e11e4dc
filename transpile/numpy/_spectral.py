"""Spectral linear algebra: eigh/eigvalsh (symmetric eigenproblems) and svd/svdvals, with
what is built on singular values: pinv, lstsq, matrix_rank. JAX's signatures and results.

`eigh` and `svd` are primitives lowered to helpers in runtime/include/tp_spectral.h (eigh by
LAPACK's xSYEVD route, svd by Jacobi rotations), batched over leading axes, float32 or float64
(other dtypes compute in float64, as NumPy). Each returns one packed buffer that is sliced
here: eigh's is (..., n + 1, n) (the eigenvalues, then the eigenvector matrix), svd's is U, s
and V^T flattened one after another. Eigenvalues ascend and singular values descend, as
NumPy's. Eigenvectors carry LAPACK's signs, JAX's and NumPy's (exactly up to order 25, where
xSYEVD iterates as the helper does; above, it divides and conquers and signs may differ);
singular vectors' signs are whatever the rotations give: A = U S V^T holds.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of
from . import _elementwise as E
from ._matmul import matmul
from ._manipulation import swapaxes
from ._reductions import max as _max, sum as _sum
from ..base.operands import astype, operand, reshape, shape_of

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _float_matrices(what, a, square):
    from .linalg import _as_float, _square
    a = _as_float(a)
    if square:
        _square(what, a)
    elif len(shape_of(a)) < 2:
        raise np.linalg.LinAlgError(f"{what}: needs at least 2 dimensions, got shape "
                                    f"{shape_of(a)}")
    return a


def eigh(a, UPLO=None, symmetrize_input=True):
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices. As JAX, the
    input is symmetrized, (a + a^T) / 2, unless symmetrize_input=False, when only the UPLO
    triangle ('L', the default, or 'U') is read, as NumPy does."""
    from .linalg import _bind
    if UPLO not in (None, "L", "U"):
        raise ValueError(f"eigh: UPLO must be one of None, 'L', or 'U', got {UPLO!r}")
    a = _float_matrices("eigh", a, square=True)
    if symmetrize_input:
        a = E.multiply(E.add(a, swapaxes(a, -1, -2)), 0.5)
    elif UPLO == "U":
        a = swapaxes(a, -1, -2)         # the helper reads the lower triangle
    packed = _bind(P.eigh, a)
    return EighResult(packed[..., 0, :], packed[..., 1:, :])


def eigvalsh(a, UPLO="L", *, symmetrize_input=True):
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def svd(a, full_matrices=True, compute_uv=True, hermitian=False, subset_by_index=None):
    """A = U diag(S) Vh, singular values descending. hermitian=True is accepted and
    computed as a general SVD (the same factorization, up to signs)."""
    from .linalg import _bind
    if subset_by_index is not None:
        raise NotImplementedError("svd: subset_by_index is not supported; slice the result")
    a = _float_matrices("svd", a, square=False)
    *batch, m, n = shape_of(a)
    batch, k = tuple(batch), min(m, n)
    packed = _bind(P.svd, a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    if not compute_uv:
        return packed
    ucols, vrows = (m, n) if full_matrices else (k, k)
    u = reshape(packed[..., :m * ucols], batch + (m, ucols))
    s = packed[..., m * ucols:m * ucols + k]
    vh = reshape(packed[..., m * ucols + k:], batch + (vrows, n))
    return SVDResult(u, s, vh)


def svdvals(x):
    return svd(x, compute_uv=False)


def _eps(a):
    return float(np.finfo(aval_of(a).dtype).eps)


def pinv(a, rtol=None, hermitian=False, *, rcond=None):
    """The Moore-Penrose pseudo-inverse by SVD; singular values at or below rtol times the
    largest count as zero (default rtol: 10 * max(m, n) * eps, as JAX)."""
    if rcond is not None:
        if rtol is not None:
            raise ValueError("pinv: only one of rtol and rcond may be specified.")
        rtol = rcond
    a = _float_matrices("pinv", a, square=False)
    *batch, m, n = shape_of(a)
    if m == 0 or n == 0:
        return np.zeros(tuple(batch) + (n, m), aval_of(a).dtype)
    if rtol is None:
        rtol = 10.0 * max(m, n) * _eps(a)
    u, s, vh = svd(a, full_matrices=False)
    rtol = reshape(astype(operand(rtol), aval_of(s).dtype), shape_of(operand(rtol)) + (1,))
    cutoff = E.multiply(rtol, s[..., 0:1])
    s = E.where(E.greater(s, cutoff), s, np.inf)
    return matmul(swapaxes(vh, -1, -2), E.divide(swapaxes(u, -1, -2), s[..., None]))


def lstsq(a, b, rcond=None, *, numpy_resid=False):
    """JAX's tuple (x, resid, rank, s): the least-squares x of a @ x = b by SVD, the
    squared residual norms (always computed, as JAX's default), the numerical rank, and
    a's singular values."""
    from .linalg import _as_float
    a, b = operand(a), operand(b)
    a, b = _as_float(a, b), _as_float(b, a)
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != 2:
        raise TypeError(f"lstsq: {len(sa)}-dimensional array given (shape {sa}); a must be "
                        "two-dimensional")
    if len(sb) not in (1, 2):
        raise TypeError(f"lstsq: b must be one or two-dimensional, got shape {sb}")
    if sb[0] != sa[0]:
        raise ValueError(f"lstsq: a of shape {sa} and b of shape {sb} do not match (the "
                         "leading dimensions must agree)")
    vector = len(sb) == 1
    if vector:
        b = reshape(b, sb + (1,))
    m, n = sa
    dt = aval_of(a).dtype
    if m == 0 or n == 0:
        s = np.zeros((0,), dt)
        rank = np.asarray(0, np.int64)
        x = np.zeros((n,) + shape_of(b)[1:], dt)
    else:
        if rcond is None:
            rcond = _eps(a) * max(m, n)
        else:
            rcond = E.where(E.less(rcond, 0), _eps(a), rcond)
        u, s, vt = svd(a, full_matrices=False)
        mask = E.logical_and(E.greater(s, 0),
                             E.greater_equal(s, E.multiply(astype(rcond, dt), s[0])))
        rank = _sum(mask, dtype=dtypes.int64)
        safe = E.where(mask, s, 1)
        s_inv = reshape(E.where(mask, E.divide(1, safe), 0), (-1, 1))
        x = matmul(swapaxes(vt, -1, -2), E.multiply(s_inv, matmul(swapaxes(u, -1, -2), b)))
    if numpy_resid and (m <= n or (not isinstance(rank, Tracer) and int(rank) < n)):
        resid = np.zeros((0,), dt)       # NumPy's empty residuals (needs a concrete rank)
    else:
        r = E.subtract(b, matmul(a, x))
        resid = _sum(E.multiply(r, r), axis=0)
    if vector:
        x = reshape(x, (-1,))
    return x, resid, rank, s


def matrix_rank(M, rtol=None, *, hermitian=False, tol=None):
    """The number of singular values above tol (absolute), or else above rtol times the
    largest (default rtol: max(m, n) * eps), as NumPy; a vector's rank is 1 unless zero."""
    M = operand(M)
    if len(shape_of(M)) < 2:
        from ._reductions import any as _any
        return astype(_any(E.not_equal(M, 0)), dtypes.int64)
    s = svdvals(M)
    if shape_of(s)[-1] == 0:
        return np.zeros(shape_of(s)[:-1], np.int64)
    if tol is None:
        if rtol is None:
            rtol = max(shape_of(M)[-2:]) * _eps(s)
        rtol = operand(rtol)
        rtol = reshape(rtol, shape_of(rtol) + (1,))
        tol = E.multiply(_max(s, axis=-1, keepdims=True), rtol)
    else:
        tol = operand(tol)
        tol = reshape(tol, shape_of(tol) + (1,))
    return _sum(E.greater(s, tol), axis=-1, dtype=dtypes.int64)
