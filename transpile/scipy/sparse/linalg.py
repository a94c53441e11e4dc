"""`transpile.scipy.sparse.linalg.cg`: conjugate gradients for a symmetric positive definite
A given as a matrix or as a function (JAX's `jax.scipy.sparse.linalg.cg`). Pressure
projections in CFD codes, kernel ridge regression and implicit layers solve with it.

As JAX's: `b` (and `x0`) may be any pytree of arrays, `A` and the preconditioner `M` map such a
tree to one of the same structure, the loop stops once |r|^2 <= max(tol^2 |b|^2, atol^2) or
after `maxiter` steps (10 times b's size by default), and the result is `(x, None)`. The loop
is a `lax.while_loop`, so `jit`, `vmap` and forward-mode derivatives go through it; reverse
mode raises the while_loop error (JAX differentiates the solve implicitly).
"""
from __future__ import annotations

import math

from ... import numpy as tnp
from ...lax import while_loop
from ...pytree import tree_leaves, tree_map


def _dot(x, y):
    """The real inner product of two trees, summed over their leaves."""
    return sum(tnp.sum(tnp.real(tnp.conj(a) * b)) for a, b in zip(tree_leaves(x),
                                                                   tree_leaves(y)))


def _as_operator(A, name):
    if callable(A):
        return A
    matrix = tnp.asarray(A)
    if matrix.ndim != 2:
        raise ValueError(f"cg: '{name}' must be a 2-D matrix or a function computing its "
                         f"product, got shape {matrix.shape}")
    return lambda x: tree_map(lambda leaf: tnp.matmul(matrix, leaf), x)


def cg(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """x with A x = b for a symmetric positive definite A, by conjugate gradients: (x, None)."""
    matvec = _as_operator(A, "A")
    precondition = (lambda r: r) if M is None else _as_operator(M, "M")
    b = tree_map(tnp.asarray, b)
    x0 = tree_map(tnp.zeros_like, b) if x0 is None else tree_map(tnp.asarray, x0)
    if [leaf.shape for leaf in tree_leaves(x0)] != [leaf.shape for leaf in tree_leaves(b)]:
        raise ValueError("cg: 'x0' must have the structure and shapes of 'b'")
    if maxiter is None:
        maxiter = 10 * sum(math.prod(leaf.shape) for leaf in tree_leaves(b))
    stop_at = tnp.maximum(tol ** 2 * _dot(b, b), atol ** 2)

    def not_done(state):
        _, r, gamma, _, k = state
        residual = gamma if M is None else _dot(r, r)
        return (residual > stop_at) & (k < maxiter)

    def iterate(state):
        x, r, gamma, p, k = state
        Ap = matvec(p)
        alpha = gamma / _dot(p, Ap)
        x = tree_map(lambda xi, pi: xi + alpha * pi, x, p)
        r = tree_map(lambda ri, api: ri - alpha * api, r, Ap)
        z = precondition(r)
        gamma_next = _dot(r, z)
        beta = gamma_next / gamma
        p = tree_map(lambda zi, pi: zi + beta * pi, z, p)
        return x, r, gamma_next, p, k + 1

    r0 = tree_map(lambda bi, ai: bi - ai, b, matvec(x0))
    z0 = precondition(r0)
    x, *_ = while_loop(not_done, iterate, (x0, r0, _dot(r0, z0), z0, 0))
    return x, None


__all__ = ["cg"]
