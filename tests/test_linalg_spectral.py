"""linalg.eigh/eigvalsh, svd/svdvals, pinv, lstsq, matrix_rank, and the singular-value
norms and cond, eagerly, compiled (Jacobi helpers in tp_spectral.h) and interpreted.

Eigenvectors and singular vectors are defined up to sign, so vectors are checked by what
defines them (A v = w v, A = U S V^T, orthonormality); values against NumPy's LAPACK."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

L = tnp.linalg
RNG = np.random.default_rng(21)
TOL = {np.float32: 2e-5, np.float64: 1e-12}


def _ways(fn, *args, **jit_kwargs):
    return [fn(*args)] + [tp.jit(fn, backend=b, **jit_kwargs)(*args)
                          for b in ("cpu", "interpret")]


def _symmetric(shape, dtype):
    a = RNG.standard_normal(shape)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(dtype)


def _check_eigh(a, w, v, tol):
    scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a.astype(np.float64)), atol=tol * scale)
    assert np.all(np.diff(w, axis=-1) >= 0)                        # ascending
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=10 * tol * scale)
    n = a.shape[-1]
    np.testing.assert_allclose(np.swapaxes(v, -1, -2) @ v, np.broadcast_to(np.eye(n), v.shape),
                               atol=10 * tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eigh_values_vectors_and_lapack_signs(dtype):
    shapes = [(1, 1), (2, 2), (4, 4), (2, 3, 6, 6), (17, 17), (25, 25)]
    arrays = [_symmetric(shape, dtype) for shape in shapes]
    for results in _ways(lambda xs: [L.eigh(x) for x in xs], arrays):
        for a, (w, v) in zip(arrays, results):
            assert w.dtype == v.dtype == dtype and w.shape == a.shape[:-1] and v.shape == a.shape
            _check_eigh(a, w, v, TOL[dtype])
            if dtype == np.float64:
                # LAPACK's dsyevd (NumPy's, JAX's) signs: the helper follows its route to
                # order 25. (Float32 signs rest on rounding in BLAS kernels for some matrices
                # and NumPy's float32 eigh differs from JAX's there; realprog's CMA-ES checks
                # float32 against recorded JAX runs.)
                _, lapack = np.linalg.eigh(a)
                assert np.all(np.sum(v * lapack, axis=-2) > 0.5)


def test_eigh_repeated_and_graded_eigenvalues():
    q, _ = np.linalg.qr(RNG.standard_normal((8, 8)))
    for w0 in ([2.0] * 4 + [-1.0] * 4, [1e-8, 1e-4, 1, 1e4, 1e8, 3, 3, 0]):
        a = (q * np.array(w0)) @ q.T
        a = (a + a.T) / 2
        for w, v in _ways(L.eigh, a):
            _check_eigh(a, w, v, 1e-12)
    for w, v in _ways(L.eigh, np.eye(5)):                  # already diagonal
        np.testing.assert_array_equal(w, np.ones(5))
        np.testing.assert_array_equal(v, np.eye(5))


def test_eigh_symmetrizes_or_reads_one_triangle():
    a = RNG.standard_normal((5, 5))
    sym = (a + a.T) / 2
    for w in _ways(L.eigvalsh, a):
        np.testing.assert_allclose(w, np.linalg.eigvalsh(sym), atol=1e-12)
    for uplo in ("L", "U"):
        f = lambda x: L.eigh(x, UPLO=uplo, symmetrize_input=False)[0]   # noqa: E731
        for w in _ways(f, a):
            np.testing.assert_allclose(w, np.linalg.eigvalsh(a, UPLO=uplo), atol=1e-12)


def test_eigh_integers_empty_nan_and_errors():
    a = np.array([[2, 1], [1, 2]], np.int32)
    for w, v in _ways(L.eigh, a):
        assert w.dtype == np.float64
        np.testing.assert_allclose(w, [1, 3], atol=1e-14)
    for w, v in _ways(L.eigh, np.zeros((3, 0, 0), np.float32)):
        assert w.shape == (3, 0) and v.shape == (3, 0, 0) and w.dtype == np.float32
    for w, v in _ways(L.eigh, np.full((2, 2), np.nan))[1:]:     # compiled: NaN out, as JAX
        assert np.isnan(w).all() and np.isnan(v).all()
    # A NaN off the diagonal only: all NaN too (LAPACK's answer, the interpreter's, is not
    # defined for it).
    w, v = tp.jit(L.eigh)(np.array([[1.0, np.nan, 0], [np.nan, 2, 0], [0, 0, 3]]))
    assert np.isnan(w).all() and np.isnan(v).all()
    with pytest.raises(np.linalg.LinAlgError, match=r"\(3, 4\)"):
        tp.jit(L.eigh)(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="UPLO"):
        L.eigh(np.eye(2), UPLO="X")


def _check_svd(a, u, s, vh, full, tol):
    m, n = a.shape[-2:]
    k = min(m, n)
    assert u.shape == a.shape[:-2] + (m, m if full else k)
    assert vh.shape == a.shape[:-2] + (n if full else k, n)
    scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                               atol=tol * scale * max(m, n))
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a,
                               atol=10 * tol * scale * max(m, n))
    for q in (np.swapaxes(u, -1, -2) @ u, vh @ np.swapaxes(vh, -1, -2)):
        np.testing.assert_allclose(q, np.broadcast_to(np.eye(q.shape[-1]), q.shape),
                                   atol=10 * tol * max(m, n))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_svd_shapes_and_properties(dtype):
    shapes = [(1, 1), (5, 3), (3, 5), (4, 4), (2, 6, 4), (1, 7)]
    arrays = [RNG.standard_normal(shape).astype(dtype) for shape in shapes]

    def all_forms(xs):
        return [(L.svd(x), L.svd(x, full_matrices=False), L.svdvals(x)) for x in xs]
    for results in _ways(all_forms, arrays):
        for a, (full, reduced, values) in zip(arrays, results):
            for usv, is_full in ((full, True), (reduced, False)):
                u, s, vh = usv
                assert u.dtype == s.dtype == vh.dtype == dtype
                assert np.all(np.diff(s, axis=-1) <= 0)                     # descending
                _check_svd(a, u, s, vh, is_full, TOL[dtype])
            np.testing.assert_allclose(values, np.linalg.svd(a, compute_uv=False),
                                       rtol=TOL[dtype] * 10, atol=TOL[dtype] * 10)


def test_svd_rank_deficient_zero_and_empty():
    low = RNG.standard_normal((7, 2)) @ RNG.standard_normal((2, 5))
    arrays = [low, low.T, np.zeros((3, 2)), np.ones((4, 4))]
    for results in _ways(lambda xs: [L.svd(x) for x in xs], arrays):
        for a, (u, s, vh) in zip(arrays, results):
            _check_svd(a, u, s, vh, True, 1e-13)
    for u, s, vh in _ways(L.svd, np.zeros((2, 0))):
        assert u.shape == (2, 2) and s.shape == (0,) and vh.shape == (0, 0)
    u, s, vh = tp.jit(L.svd)(np.full((2, 3), np.nan))
    assert np.isnan(s).all() and np.isnan(u).all()
    with pytest.raises(np.linalg.LinAlgError, match=r"shape \(3,\)"):
        L.svd(np.zeros(3))
    with pytest.raises(NotImplementedError, match="subset_by_index"):
        L.svd(np.eye(2), subset_by_index=(0, 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pinv_matches_numpy(dtype):
    low = (RNG.standard_normal((2, 6, 2)) @ RNG.standard_normal((2, 2, 4))).astype(dtype)
    arrays = [RNG.standard_normal((4, 4)).astype(dtype),
              RNG.standard_normal((3, 5)).astype(dtype), low, np.zeros((3, 0), dtype)]
    for results in _ways(lambda xs: [L.pinv(x) for x in xs], arrays):
        for a, got in zip(arrays, results):
            want = np.linalg.pinv(a.astype(np.float64), rcond=10 * max(a.shape[-2:]) *
                                  np.finfo(dtype).eps)
            assert got.dtype == dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, atol=100 * TOL[dtype])


def test_lstsq_returns_jax_tuple():
    a, b = RNG.standard_normal((6, 3)), RNG.standard_normal((6, 2))
    for x, resid, rank, s in _ways(L.lstsq, a, b):
        want = np.linalg.lstsq(a, b)
        np.testing.assert_allclose(x, want[0], atol=1e-12)
        np.testing.assert_allclose(resid, want[1], atol=1e-12)
        assert int(rank) == 3
        np.testing.assert_allclose(s, want[3], atol=1e-12)
    low = RNG.standard_normal((5, 2)) @ RNG.standard_normal((2, 4))
    y = RNG.standard_normal(5)
    for x, resid, rank, s in _ways(L.lstsq, low, y):
        assert x.shape == (4,) and resid.shape == (1,) and int(rank) == 2
        np.testing.assert_allclose(x, np.linalg.lstsq(low, y)[0], atol=1e-10)
    with pytest.raises(ValueError, match=r"\(6, 3\).*\(5,\)"):
        L.lstsq(a, np.zeros(5))


def test_matrix_rank_norms_and_cond():
    low = RNG.standard_normal((3, 6, 2)) @ RNG.standard_normal((3, 2, 5))
    a = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    sq = RNG.standard_normal((4, 4))

    def fn(low, a, sq):
        return (L.matrix_rank(low), L.matrix_rank(tnp.diag(tnp.array([1.0, 0.4, 0.6])), tol=0.5),
                L.matrix_rank(tnp.zeros(2)),
                [L.norm(a, o, axis=(-2, -1)) for o in (2, -2, "nuc")],
                [L.norm(a, o, axis=(0, 2), keepdims=True) for o in (2, -2, "nuc")],
                [L.cond(sq, p) for p in (None, 2, -2)])
    for rank, tol_rank, zero_rank, norms, kept, conds in _ways(fn, low, a, sq):
        np.testing.assert_array_equal(rank, np.linalg.matrix_rank(low))
        assert int(tol_rank) == 2 and int(zero_rank) == 0
        for o, got, got_kept in zip((2, -2, "nuc"), norms, kept):
            assert got.dtype == np.float32
            np.testing.assert_allclose(got, np.linalg.norm(a, o, axis=(-2, -1)), rtol=1e-5)
            np.testing.assert_allclose(got_kept, np.linalg.norm(a, o, axis=(0, 2),
                                                                keepdims=True), rtol=1e-5)
        for p, got in zip((None, 2, -2), conds):
            np.testing.assert_allclose(got, np.linalg.cond(sq, p), rtol=1e-10)
