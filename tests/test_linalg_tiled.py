"""solve, inv, det and slogdet at sizes that reach the host's tiled LU and triangular solves
(runtime/include/tp_triangular.h), against NumPy: panels and tiles with the rows and columns
that do not fill one, narrow last strips padded (and, past TP_TRSM_PAD_BYTES, not), the
columns split across threads (from TP_SOLVE_SPLIT_MIN n^2 k), float32 (twice as many lanes
per strip), complex systems (their real embedding), pivots on ties and zeros."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(23)


def _solve_inv(a, b):
    return tnp.linalg.solve(a, b), tnp.linalg.inv(a)


def _solve_all(a, b):
    return *_solve_inv(a, b), tnp.linalg.det(a), *tnp.linalg.slogdet(a)


def _check(a, b, rtol):
    complex_ = a.dtype.kind == "c"          # (det and slogdet take real matrices only)
    got = tp.jit(_solve_inv if complex_ else _solve_all)(a, b)
    want = (np.linalg.solve(a, b), np.linalg.inv(a))
    if not complex_:
        want += (np.linalg.det(a), *np.linalg.slogdet(a))
    cond = np.linalg.cond(a.astype(np.complex128 if complex_ else np.float64))
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        scale = np.max(np.abs(w)) if w.size else 1.0
        np.testing.assert_allclose(g, w, rtol=rtol * cond, atol=rtol * cond * scale)


# Strips are 16 float64 columns with AVX-512 (8 with AVX2), tiles 4 rows, LU panels one
# strip wide: 15/16/17 and 31/33 straddle a panel, 37 and 101 leave rows out of the tiles.
@pytest.mark.parametrize("n", [4, 15, 16, 17, 33, 37, 101])
@pytest.mark.parametrize("k", [1, 5, 16, 17, 40])
def test_float64_solves_across_tile_and_panel_edges(n, k):
    a = RNG.standard_normal((n, n))
    _check(a, RNG.standard_normal((n, k)), 1e-13)


@pytest.mark.parametrize("n, k", [(31, 33), (33, 70), (37, 45)])
def test_float32_solves(n, k):
    a = RNG.standard_normal((n, n)).astype(np.float32)
    _check(a, RNG.standard_normal((n, k)).astype(np.float32), 2e-5)


def test_complex_system_of_contour_integral_size():
    """50 x 50 complex with 150 right-hand sides: a 100 x 100 real solve."""
    a = RNG.standard_normal((50, 50)) + 1j * RNG.standard_normal((50, 50))
    b = RNG.standard_normal((50, 150)) + 1j * RNG.standard_normal((50, 150))
    _check(a, b, 1e-13)
    _check(a.astype(np.complex64), b.astype(np.complex64), 2e-5)


def test_narrow_strip_too_big_to_pad():
    """520 rows x a strip of 16 doubles is 66560 bytes, past TP_TRSM_PAD_BYTES: the last
    4 columns are solved row by row, the first 16 as a tiled strip."""
    a = RNG.standard_normal((520, 520)) + 30 * np.eye(520)
    b = RNG.standard_normal((520, 20))
    np.testing.assert_allclose(tp.jit(tnp.linalg.solve)(a, b), np.linalg.solve(a, b),
                               rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("batch, n, k", [(1, 100, 100), (1, 128, 64), (1, 200, 110),
                                         (3, 200, 110)])
def test_columns_split_across_threads(batch, n, k):
    """From TP_SOLVE_SPLIT_MIN = 2^20 multiply-adds (n^2 k: 100^2 x 100 is just below,
    128^2 x 64 exactly there), one matrix's strips of columns go to different threads; a
    batch of 3 on 2 threads runs whole matrices in parallel instead."""
    a = RNG.standard_normal((batch, n, n)) + 20 * np.eye(n)
    b = RNG.standard_normal((batch, n, k))
    np.testing.assert_allclose(tp.jit(tnp.linalg.solve)(a, b), np.linalg.solve(a, b),
                               rtol=1e-12, atol=1e-14)


def test_pivots_on_ties_and_zeros():
    """Small integers (many equal magnitudes: the first row of largest |value| is the pivot,
    as getrf) with whole zero stretches below diagonals, so rows swap in every panel; the
    determinant of an integer matrix comes out (nearly) integral, as NumPy's."""
    n = 40
    a = RNG.integers(-2, 3, (n, n)).astype(np.float64)
    a[np.tril_indices(n, -1)] *= RNG.integers(0, 2, n * (n - 1) // 2)
    a = a[RNG.permutation(n)] + np.eye(n)
    _check(a, RNG.standard_normal((n, 18)), 1e-13)
    assert abs(tp.jit(tnp.linalg.det)(a) - round(np.linalg.det(a))) < 1e-6 * max(
        1.0, abs(np.linalg.det(a)))


def test_singular_matrix_gives_non_finite_values_not_an_error():
    """A zero column reached in the second panel: a zero pivot (skipped, as getrf), so the
    solve divides by zero and returns inf/NaN; det is exactly 0."""
    a = RNG.standard_normal((24, 24))
    a[:, 20] = 0.0
    x = np.asarray(tp.jit(tnp.linalg.solve)(a, RNG.standard_normal((24, 3))))
    assert not np.all(np.isfinite(x))
    assert tp.jit(tnp.linalg.det)(a) == 0.0
