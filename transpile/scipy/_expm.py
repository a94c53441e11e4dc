"""`expm`, the matrix exponential, by scaling and squaring with Padé approximants (Higham,
"The scaling and squaring method for the matrix exponential revisited", SIAM J. Matrix
Anal. Appl. 26(4), 2005), making the same choices as `jax.scipy.linalg.expm`: the degree
m of the [m/m] approximant from the 1-norm of A (3, 5, 7, 9 or 13 in float64; 3, 5 or 7 in
float32), floor(log2(|A|_1 / theta_max)) halvings (at least none), then as many
squarings, run as a fixed scan of `max_squarings` steps that each square or pass (so that
the whole is traceable and differentiable: its gradient is that of these steps), and NaN
when more squarings than `max_squarings` would be needed.

Written with transpile.numpy and transpile.lax, so jit, vmap and the derivatives apply.
"""
from __future__ import annotations

import math

import numpy as np

from .. import lax
from .. import numpy as tnp

# theta_m: the largest 1-norm for which the [m/m] approximant is accurate to the unit
# roundoff, for each degree m (Higham 2005, Table 2.3 for float64; float32 as JAX uses).
_THETAS = {
    "float64": ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
                (7, 9.504178996162932e-1), (9, 2.097847961257068), (13, 5.371920351148152)),
    "float32": ((3, 4.258730016922831e-1), (5, 1.880152677804762), (7, 3.925724783138660)),
}
_WIDE = {"float64": "float64", "complex128": "float64",
         "float32": "float32", "complex64": "float32"}


def _pade_coefficients(m: int) -> list[float]:
    """b_j of the [m/m] Padé approximant of exp, scaled to integers: (2m-j)! / (j! (m-j)!)."""
    return [math.factorial(2 * m - j) / (math.factorial(j) * math.factorial(m - j))
            for j in range(m + 1)]


def _pade(m: int):
    """(U, V) with exp(A) ~ (V - U)^-1 (V + U): U the odd terms, V the even ones."""
    b = _pade_coefficients(m)

    def approximant(a):
        eye = tnp.eye(a.shape[-1], dtype=a.dtype)
        a2 = a @ a
        if m == 13:     # A^6 factored out of the high terms: 6 products instead of 12
            a4 = a2 @ a2
            a6 = a4 @ a2
            u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2)
                     + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
            v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) \
                + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
            return u, v
        powers = [eye, a2]                       # A^0, A^2, A^4, ...
        while len(powers) <= m // 2:
            powers.append(powers[-1] @ a2)
        odd = sum(b[2 * i + 1] * p for i, p in enumerate(powers) if 2 * i + 1 <= m)
        even = sum(b[2 * i] * p for i, p in enumerate(powers) if 2 * i <= m)
        return a @ odd, even
    return approximant


def _expm_matrix(a, upper_triangular, max_squarings):
    thetas = _THETAS[_WIDE[a.dtype.name]]
    norm = tnp.max(tnp.sum(tnp.abs(a), axis=0))
    real = norm.dtype
    squarings = tnp.maximum(0, tnp.floor(tnp.log2(norm / thetas[-1][1])))
    scaled = a / (2 ** squarings).astype(a.dtype)
    degree = tnp.digitize(norm, np.array([t for _, t in thetas[:-1]], real))
    u, v = lax.switch(degree, [_pade(m) for m, _ in thetas], scaled)
    if upper_triangular:
        from .linalg import solve_triangular
        r = solve_triangular(v - u, v + u)
    else:
        r = tnp.linalg.solve(v - u, v + u)

    def square(x, i):
        return lax.cond(i < squarings, lambda y: y @ y, lambda y: y, x), None
    r, _ = lax.scan(square, r, tnp.arange(max_squarings, dtype=real))
    return tnp.where(squarings > max_squarings, tnp.full_like(r, np.nan), r)


def expm(A, *, upper_triangular=False, max_squarings=16):
    """The matrix exponential of `A` (..., n, n), as `jax.scipy.linalg.expm`."""
    a = tnp.asarray(A)
    if not tnp.issubdtype(a.dtype, tnp.inexact):
        a = a.astype(tnp.result_type(a.dtype, 1.0))
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected A to be a (batched) square matrix, got A.shape={a.shape}.")
    if a.dtype.name not in _WIDE:
        raise TypeError(f"expm: A.dtype={a.dtype} is not supported (use float32, float64, "
                        "complex64 or complex128)")
    if a.ndim > 2:
        return tnp.vectorize(lambda m: _expm_matrix(m, upper_triangular, max_squarings),
                             signature="(n,n)->(n,n)")(a)
    return _expm_matrix(a, upper_triangular, max_squarings)
