"""The compiled general eigensolver (runtime/include/tp_eig.h, via jnp.linalg.eig): residuals
and the inverse on random real and complex matrices of several sizes, the eigenvalues as
NumPy's (as a multiset: the order is the Schur form's), NaN in NaN out, and the derivative
of the normalised eigenvectors against finite differences."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def _packed_parts(a):
    w, v = tp.jit(tnp.linalg.eig)(a)
    return np.asarray(w), np.asarray(v)


def _matching(got, want):
    """Distance from each wanted eigenvalue to the nearest one found (and back)."""
    d = np.abs(got[..., :, None] - want[..., None, :])
    return max(d.min(-1).max(), d.min(-2).max())


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("kind", ["real", "complex", "float32"])
def test_random_matrices(n, kind):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((3, n, n))
    if kind == "complex":
        a = a + 1j * rng.standard_normal((3, n, n))
    if kind == "float32":
        a = a.astype(np.float32)
    w, v = _packed_parts(a)
    assert w.dtype == (np.complex64 if kind == "float32" else np.complex128)
    tol = 1e-4 if kind == "float32" else 1e-11
    scale = np.abs(a).max()
    assert np.abs(a @ v - v * w[..., None, :]).max() <= tol * scale * n
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, atol=tol)
    assert _matching(w, np.linalg.eigvals(a.astype(np.complex128))) <= tol * scale * n


def test_non_finite_input_gives_nan_and_empty_matrices_work():
    w, v = _packed_parts(np.array([[1.0, np.nan], [0, 2]]))
    assert np.isnan(w).all() and np.isnan(v).all()
    w, v = tnp.linalg.eig(np.zeros((0, 0)))
    assert w.shape == (0,) and v.shape == (0, 0)


def test_eigenvector_derivative_matches_finite_differences():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 4))
    direction = rng.standard_normal((4, 4))

    def vectors(m):
        w, v = tnp.linalg.eig(m)
        order = tnp.argsort(tnp.real(w) * 1000 + tnp.imag(w))
        return v[:, order]
    _, tangent = tp.jit(lambda m, d: tp.jvp(vectors, (m,), (d,)))(a, direction)
    h = 1e-6
    numeric = (np.asarray(vectors(a + h * direction))
               - np.asarray(vectors(a - h * direction))) / (2 * h)
    np.testing.assert_allclose(tangent, numeric, atol=1e-6)
