"""tnp.linalg against NumPy: solve, inv, det, slogdet, cholesky, qr and norm, batched, in
float32 and float64 (integers promote to float64), compiled (called twice), interpreted
and eager, to a tolerance scaled by the condition number; JAX's NaN/inf results (no
exception) for singular and non-positive-definite inputs."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(21)
SHAPES = [(0, 0), (1, 1), (3, 3), (6, 6), (2, 3, 4, 4), (0, 2, 2)]


def _all_ways(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    out.append(fn(*args))                        # eager
    return out


def _matrix(shape, dtype):
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(-5, 6, shape).astype(dtype) + 7 * np.eye(shape[-1], dtype=dtype)
    return RNG.standard_normal(shape).astype(dtype)


def _tol(a, dtype):
    eps = np.finfo(np.float32 if dtype == np.float32 else np.float64).eps
    cond = np.max(np.linalg.cond(a.astype(np.float64))) if a.size else 1.0
    return 50 * eps * max(cond, 1.0)


def _close(got, want, tol):
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(np.max(np.abs(want)), 1.0) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_solve_inv_det_slogdet(shape, dtype):
    a = _matrix(shape, dtype)
    b = RNG.standard_normal(shape[:-1] + (2,)).astype(np.float32 if dtype == np.float32
                                                       else np.float64)
    tol = _tol(a, dtype)
    want = (np.linalg.solve(a, b), np.linalg.inv(a), np.linalg.det(a), *np.linalg.slogdet(a))

    def fn(a, b):
        sign, logdet = tnp.linalg.slogdet(a)
        return tnp.linalg.solve(a, b), tnp.linalg.inv(a), tnp.linalg.det(a), sign, logdet
    for got in _all_ways(fn, a, b):
        for g, w in zip(got, want):
            _close(np.asarray(g), np.asarray(w), tol)


def test_solve_vector_and_broadcast_batches():
    a = _matrix((3, 3), np.float64)
    b = RNG.standard_normal((2, 3, 4))
    v = RNG.standard_normal(3)
    tol = _tol(a, np.float64)
    for got in _all_ways(lambda a, b, v: (tnp.linalg.solve(a, b), tnp.linalg.solve(a, v)),
                         a, b, v):
        _close(got[0], np.linalg.solve(a, b), tol)
        _close(got[1], np.linalg.solve(a, v), tol)
    for got in _all_ways(lambda a: tnp.linalg.solve(a, a), a):     # one buffer, read twice
        _close(got, np.linalg.solve(a, a), tol)
    with pytest.raises(ValueError, match=r"\(3, 3\).*\(4, 2\)"):
        tp.jit(tnp.linalg.solve)(a, np.ones((4, 2)))
    with pytest.raises(np.linalg.LinAlgError, match=r"\(3, 4\)"):
        tp.jit(tnp.linalg.inv)(np.ones((3, 4)))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_solve_and_inv(dtype):
    """Complex systems (NPBench's contour_integral), batched, with a vector, a real
    right-hand side promoted, and in a loop whose carry starts at complex zeros."""
    a = (_matrix((2, 4, 4), np.float64) + 1j * _matrix((2, 4, 4), np.float64)).astype(dtype)
    b = (RNG.standard_normal((2, 4, 3)) + 1j * RNG.standard_normal((2, 4, 3))).astype(dtype)
    real_b = RNG.standard_normal(4).astype(np.float32 if dtype == np.complex64 else np.float64)
    tol = 10 * _tol(a.real + 0 * a.imag, np.float32 if dtype == np.complex64 else np.float64)
    want = (np.linalg.solve(a, b), np.linalg.inv(a), np.linalg.solve(a[0], real_b))
    for got in _all_ways(lambda a, b, v: (tnp.linalg.solve(a, b), tnp.linalg.inv(a),
                                          tnp.linalg.solve(a[0], v)), a, b, real_b):
        for g, w in zip(got, want):
            _close(np.asarray(g), w, tol)

    def summed(a, b):
        def step(i, total):
            return total.at[:, :].add(tnp.linalg.solve(a[i], b[i]))
        return tp.lax.fori_loop(0, 2, step, tnp.zeros((4, 3), dtype=dtype))
    _close(np.asarray(tp.jit(summed)(a, b)), want[0].sum(axis=0), tol)


def test_singular_and_indefinite_inputs_give_nan_not_errors():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    for inv_, det_ in _all_ways(lambda a: (tnp.linalg.inv(a), tnp.linalg.det(a)), singular):
        assert not np.all(np.isfinite(inv_))
        assert det_ == 0.0
    for sign, logdet in _all_ways(tnp.linalg.slogdet, singular):
        assert sign == 0.0 and logdet == -np.inf
    indefinite = np.array([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]])
    for got in _all_ways(tnp.linalg.cholesky, indefinite):
        np.testing.assert_allclose(got[0], np.linalg.cholesky(indefinite[0]), rtol=1e-14)
        assert np.all(np.isnan(got[1]))


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (5, 5), (3, 4, 4)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cholesky(shape, dtype):
    x = RNG.standard_normal(shape).astype(dtype)
    a = x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1], dtype=dtype)
    tol = _tol(a, dtype)
    for got in _all_ways(tnp.linalg.cholesky, a):
        _close(got, np.linalg.cholesky(a), tol)
    for got in _all_ways(lambda a: tnp.linalg.cholesky(a, upper=True), a):
        _close(got, np.linalg.cholesky(a, upper=True), tol)


def _all_qr(a):
    return [tnp.linalg.qr(a, mode=m) for m in ("reduced", "complete")] + \
        [tnp.linalg.qr(a, mode="r")]


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2), (0, 3), (3, 0)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_qr_matches_numpy_signs_included(shape, dtype):
    a = _matrix(shape, np.float64).astype(dtype) if shape[-1] == shape[-2] else \
        (RNG.standard_normal(shape) * 4).astype(dtype)
    want = [np.linalg.qr(a, mode=m) for m in ("reduced", "complete")] + \
        [(np.linalg.qr(a, mode="r"),)]
    tol = 1e3 * np.finfo(np.float32 if dtype == np.float32 else np.float64).eps
    for got in _all_ways(_all_qr, a):
        got[2] = (got[2],)
        for g_mode, w_mode in zip(got, want):
            for g, w in zip(g_mode, w_mode):
                _close(np.asarray(g), w, tol)


def test_qr_of_a_matrix_with_a_zero_column():
    a = np.array([[0.0, 1.0, 2.0], [0.0, 3.0, 1.0], [0.0, 0.0, 5.0], [0.0, 2.0, 2.0]])
    q, r = np.linalg.qr(a)
    for got_q, got_r in _all_ways(tnp.linalg.qr, a):
        np.testing.assert_allclose(got_q @ got_r, a, atol=1e-13)
        np.testing.assert_allclose(got_r, r, atol=1e-13)
        np.testing.assert_allclose(got_q[:, 1:], q[:, 1:], atol=1e-13)


VECTOR_ORDS = [None, 1, 2, np.inf, -np.inf, 0, 3, 0.5]
MATRIX_ORDS = [None, "fro", 1, -1, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_norms(dtype):
    v = (RNG.standard_normal(7) * 3).astype(dtype)
    m = (RNG.standard_normal((2, 4, 3)) * 3).astype(dtype)

    def fn(v, m):
        out = [tnp.linalg.norm(v, o) for o in VECTOR_ORDS]
        out += [tnp.linalg.norm(m, o, axis=(1, 2)) for o in MATRIX_ORDS]
        out += [tnp.linalg.norm(m, o, axis=(2, 0), keepdims=True) for o in MATRIX_ORDS]
        out += [tnp.linalg.norm(m), tnp.linalg.norm(m, axis=1), tnp.linalg.norm(m[0], 1),
                tnp.linalg.norm(m, keepdims=True), tnp.linalg.norm(m[0], "fro")]
        return out
    want = [np.linalg.norm(v, o) for o in VECTOR_ORDS]
    want += [np.linalg.norm(m, o, axis=(1, 2)) for o in MATRIX_ORDS]
    want += [np.linalg.norm(m, o, axis=(2, 0), keepdims=True) for o in MATRIX_ORDS]
    want += [np.linalg.norm(m), np.linalg.norm(m, axis=1), np.linalg.norm(m[0], 1),
             np.linalg.norm(m, keepdims=True), np.linalg.norm(m[0], "fro")]
    tol = 1e-5 if dtype == np.float32 else 1e-13
    for got in _all_ways(fn, v, m):
        for g, w in zip(got, want):
            g, w = np.asarray(g), np.asarray(w)
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=tol)


def test_array_api_names():
    a = RNG.standard_normal((2, 3, 3))
    v, w = RNG.standard_normal(3), RNG.standard_normal(4)

    def fn(a, v, w):
        L = tnp.linalg
        return (L.matrix_transpose(a), L.diagonal(a, offset=1), L.trace(a), L.outer(v, w),
                L.vecdot(a, v), L.vector_norm(a), L.vector_norm(a, axis=1, ord=1),
                L.matrix_norm(a, ord=np.inf), L.multi_dot([a[0], a[1], v]),
                L.cond(a[0], "fro"), L.tensordot(a, a[0], axes=2), L.matmul(a, a[1]),
                tnp.acos(v * 0.1), tnp.concat([v, v]), tnp.permute_dims(a, (2, 0, 1)))
    want = (np.linalg.matrix_transpose(a), np.linalg.diagonal(a, offset=1),
            np.linalg.trace(a), np.linalg.outer(v, w), np.linalg.vecdot(a, v),
            np.linalg.vector_norm(a), np.linalg.vector_norm(a, axis=1, ord=1),
            np.linalg.matrix_norm(a, ord=np.inf), np.linalg.multi_dot([a[0], a[1], v]),
            np.linalg.cond(a[0], "fro"), np.linalg.tensordot(a, a[0], axes=2),
            np.linalg.matmul(a, a[1]), np.acos(v * 0.1), np.concat([v, v]),
            np.permute_dims(a, (2, 0, 1)))
    for got in _all_ways(fn, a, v, w):
        for g, w_ in zip(got, want):
            _close(np.asarray(g), np.asarray(w_), 1e-12)


def test_matrix_power():
    a = _matrix((2, 3, 3), np.float64)
    i = RNG.integers(-3, 4, (3, 3))
    want = [np.linalg.matrix_power(a, n) for n in (0, 1, 2, 5, -2)] + \
        [np.linalg.matrix_power(i, n) for n in (0, 3)]
    for got in _all_ways(lambda a, i: [tnp.linalg.matrix_power(a, n) for n in (0, 1, 2, 5, -2)]
                         + [tnp.linalg.matrix_power(i, n) for n in (0, 3)], a, i):
        for g, w in zip(got, want):
            _close(np.asarray(g), w, _tol(a, np.float64) * 10)
