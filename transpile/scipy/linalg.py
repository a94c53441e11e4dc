"""`transpile.scipy.linalg`: the Cholesky and triangular-solve entry points of
jax.scipy.linalg that programs reach for (GP regression, least squares), plus the
jax.scipy.linalg spellings of transpile.numpy.linalg's kernels.

There is no triangular-solve kernel yet: `solve_triangular` masks the unused triangle and calls
the general LU `solve`, which gives the triangular system's solution (pivoting never needs to
leave a nonsingular triangle's diagonal) at the general solver's O(n^3) cost, and inherits its
gradient and batching rules.
"""
from __future__ import annotations

from .. import numpy as tnp
from ..numpy import linalg as _linalg

det, eigh, inv, qr, solve, svd = (_linalg.det, _linalg.eigh, _linalg.inv, _linalg.qr,
                                  _linalg.solve, _linalg.svd)

from ._expm import expm  # noqa: E402,F401

_TRANSPOSE_FLAGS = {0: "N", 1: "T", 2: "C", "N": "N", "T": "T", "C": "C"}


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor of `a`: upper (SciPy's default) or lower triangular, zeros elsewhere.
    `overwrite_a` and `check_finite` are accepted for SciPy compatibility and ignored, as JAX."""
    del overwrite_a, check_finite
    return _linalg.cholesky(a, upper=not lower)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """`(c, lower)` for `cho_solve`: `c` is the triangular factor (the other triangle zero)."""
    return cholesky(a, lower=lower, overwrite_a=overwrite_a, check_finite=check_finite), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve `a x = b` given `cho_factor(a)`: two triangular solves with the factor."""
    del overwrite_b, check_finite
    c, lower = c_and_lower
    if lower:
        y = solve_triangular(c, b, lower=True)
        return solve_triangular(c, y, trans="C", lower=True)
    y = solve_triangular(c, b, trans="C", lower=False)
    return solve_triangular(c, y, lower=False)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     debug=None, check_finite=True):
    """Solve `op(a) x = b` for triangular `a` (only the `lower`/upper triangle is read),
    `op` the identity, the transpose (`trans=1`/"T") or conjugate transpose (2/"C")."""
    del overwrite_b, debug, check_finite
    if trans not in _TRANSPOSE_FLAGS:
        raise ValueError(f"solve_triangular: trans={trans!r} is not one of 0, 1, 2, "
                         f"'N', 'T', 'C'")
    a = tnp.asarray(a)
    triangle = tnp.tril(a) if lower else tnp.triu(a)
    if unit_diagonal:
        eye = tnp.eye(a.shape[-1], dtype=a.dtype)
        triangle = triangle * (1 - eye) + eye
    flag = _TRANSPOSE_FLAGS[trans]
    if flag != "N":
        triangle = tnp.swapaxes(triangle, -1, -2)
        if flag == "C":
            triangle = tnp.conj(triangle)
    return solve(triangle, b)
