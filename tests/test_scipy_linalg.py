"""transpile.scipy.linalg (Cholesky factor/solve, triangular solves) against NumPy references
built from the same definitions, eagerly and under jit; the GP-regression program of
tests/test_realprog.py checks it against JAX's recorded values."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.scipy.linalg as tsl

RNG = np.random.default_rng(21)


def _spd(n, dtype=np.float64):
    m = RNG.standard_normal((n, n))
    return (m @ m.T + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("jitted", [False, True])
def test_cho_solve_solves_the_system(lower, jitted):
    a, b = _spd(5), RNG.standard_normal((5, 2))

    def run(a, b):
        return tsl.cho_solve(tsl.cho_factor(a, lower=lower), b)

    x = tp.jit(run)(a, b) if jitted else run(a, b)
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-10)


@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_triangle_and_zeros(lower):
    a = _spd(4)
    c = np.asarray(tsl.cholesky(a, lower=lower))
    low = np.linalg.cholesky(a)
    np.testing.assert_allclose(c, low if lower else low.T, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("unit_diagonal", [False, True])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_triangular_reads_one_triangle(trans, unit_diagonal, lower):
    a = RNG.standard_normal((4, 4)) + 4 * np.eye(4)
    b = RNG.standard_normal(4)
    triangle = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        np.fill_diagonal(triangle, 1.0)
    op = triangle if trans in (0, "N") else triangle.T
    x = tp.jit(lambda a, b: tsl.solve_triangular(a, b, trans=trans, lower=lower,
                                                 unit_diagonal=unit_diagonal))(a, b)
    np.testing.assert_allclose(x, np.linalg.solve(op, b), rtol=1e-10)


def test_solve_triangular_rejects_unknown_trans():
    with pytest.raises(ValueError, match="trans=3"):
        tsl.solve_triangular(np.eye(2), np.ones(2), trans=3)
