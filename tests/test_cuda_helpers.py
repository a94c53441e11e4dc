"""Sorts, factorizations, scatters and debug prints through the CUDA backend, emulated.

These kernels call the runtime's helper headers (tp_sort.h, tp_linalg.h, tp_spectral.h,
tp_scatter.h) from device code: one thread per row or matrix, a scatter on a single thread
(in order).
They run the same arithmetic in the same order as the CPU backend's OpenMP drivers, so the
emulated results must equal the CPU backend's bit for bit, and NumPy's within rounding.
"""
import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api, debug, lax
from conftest import assert_same, cuda_emulated

pytestmark = cuda_emulated


def on_both(fun, *args):
    """(CUDA results on the host, CPU results, the CUDA source)."""
    cuda = jit_api.jit(fun, backend="cuda")
    got = [np.asarray(v) for v in cuda(*args)]
    want = [np.asarray(v) for v in jit_api.jit(fun, backend="cpu")(*args)]
    return got, want, cuda.lower(*args).source


def test_sorts_match_numpy_and_the_cpu_backend():
    rng = np.random.default_rng(0)
    # 600 rows: more than the emulated grid's 512 threads, so threads take several rows.
    rows = rng.standard_normal((600, 7)).astype(np.float32)
    rows[3, 2] = rows[5, 0] = np.nan
    rows[7, :] = 1.0                                    # ties keep their input order
    ints = rng.integers(-5, 5, (40, 33), dtype=np.int16)
    # Rows of 256 or more get a block each (a merge path per level): ties and NaN across
    # the threads' shares, and more rows (5) than the emulated grid's blocks (4).
    long_rows = rng.integers(-9, 9, (5, 700)).astype(np.float64)
    long_rows[1, ::3] = np.nan

    def f(rows, ints, long_rows):
        return (tnp.sort(rows, axis=1), tnp.argsort(rows, axis=0), tnp.sort(ints, axis=None),
                tnp.argsort(ints, axis=1), tnp.median(rows, axis=1),
                tnp.argsort(long_rows, axis=1), tnp.sort(long_rows, axis=1))
    got, want, source = on_both(f, rows, ints, long_rows)
    with np.errstate(all="ignore"):
        numpy = (np.sort(rows, axis=1), np.argsort(rows, axis=0, kind="stable"),
                 np.sort(ints, axis=None), np.argsort(ints, axis=1, kind="stable"),
                 np.median(rows, axis=1), np.argsort(long_rows, axis=1, kind="stable"),
                 np.sort(long_rows, axis=1))
    for k, (g, w, n) in enumerate(zip(got, want, numpy)):
        np.testing.assert_array_equal(g, w, err_msg=f"output {k} vs the CPU backend")
        assert_same(g, n, what=f"output {k} vs NumPy")
    assert "tp_sort_f32_item(" in source and "tp_sort_i16_item(" in source
    assert "tp_sort_i16_block(" in source and "tp_sort_f64_block(" in source


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_factorizations_match_the_cpu_backend_bit_for_bit(dtype):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((3, 5, 5)) + 4 * np.eye(5)).astype(dtype)
    b = rng.standard_normal((3, 5, 2)).astype(dtype)
    tall = rng.standard_normal((2, 6, 4)).astype(dtype)

    def f(a, b, tall):
        spd = a @ a.transpose(0, 2, 1) + np.eye(5, dtype=dtype)
        q, r = tnp.linalg.qr(tall)
        sign, logdet = tnp.linalg.slogdet(a)
        return (tnp.linalg.solve(a, b), tnp.linalg.inv(a), tnp.linalg.det(a), sign, logdet,
                tnp.linalg.cholesky(spd), q, r)
    got, want, source = on_both(f, a, b, tall)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"output {k}")
    spd = a @ a.transpose(0, 2, 1) + np.eye(5, dtype=dtype)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(got[0], np.linalg.solve(a, b), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got[2], np.linalg.det(a), rtol=rtol)
    np.testing.assert_allclose(got[5], np.linalg.cholesky(spd), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got[6] @ got[7], tall, rtol=rtol, atol=rtol)
    for helper in ("solve", "det", "slogdet", "cholesky", "qr_q", "qr_r"):
        assert f"tp_{helper}_{'f32' if dtype == np.float32 else 'f64'}_item(" in source


def test_scatters_run_in_order_on_one_thread():
    rng = np.random.default_rng(2)
    x = rng.standard_normal(50)
    idx = rng.integers(-3, 53, 400)                    # duplicates, and some out of range
    upd = rng.standard_normal(400)
    counts = rng.integers(0, 20, 300)

    def f(x, idx, upd, counts):
        return (x.at[idx].add(upd), x.at[idx].set(upd), x.at[idx].max(upd),
                tnp.bincount(counts, length=20), x.astype(np.int32).at[idx].multiply(3))
    got, want, source = on_both(f, x, idx, upd, counts)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"output {k}")    # the same float order
    wrapped = np.where(idx < 0, idx + 50, idx)          # negative indices count from the end
    inside = wrapped < 50                               # beyond the end: dropped, as in JAX
    expected = x.copy()
    np.add.at(expected, wrapped[inside], upd[inside])
    assert_same(got[0], expected, rtol=1e-12)
    assert_same(got[3], np.bincount(counts, minlength=20))
    assert "one thread: in order" in source and "atomic" not in source


def test_debug_prints_copy_device_values_to_the_host(capfd):
    def f(x, n):
        debug.print("start {} {}", x[:3], n)

        def body(i, c):
            debug.print("step {i}: {s}", i=i, s=tnp.sum(c))
            return c * 2.0
        return lax.fori_loop(0, n, body, x)
    x = np.arange(5.0)
    cuda = jit_api.jit(f, backend="cuda")
    np.testing.assert_array_equal(np.asarray(cuda(x, 3)), x * 8)
    printed = capfd.readouterr().out
    jit_api.jit(f, backend="cpu")(x, 3)
    assert printed == capfd.readouterr().out
    assert printed.splitlines() == ["start [0. 1. 2.] 3", "step 0: 10.0", "step 1: 20.0",
                                    "step 2: 40.0"]
    assert "tp_host_copy(" in cuda.lower(x, 3).source


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eigh_and_svd_match_the_cpu_backend_bit_for_bit(dtype):
    """tp_spectral.h's Jacobi sweeps, a thread per matrix; one matrix of NaN in the batch
    gives NaN for that matrix only (each item returns on its own)."""
    rng = np.random.default_rng(3)
    sym = rng.standard_normal((4, 5, 5)).astype(dtype)
    sym = sym + sym.transpose(0, 2, 1)
    sym[2, 1, 0] = np.nan
    wide = rng.standard_normal((3, 3, 6)).astype(dtype)

    def f(sym, wide):
        return (*tnp.linalg.eigh(sym), *tnp.linalg.svd(wide),
                *tnp.linalg.svd(wide.transpose(0, 2, 1), full_matrices=False),
                tnp.linalg.svdvals(wide), tnp.linalg.pinv(wide))
    got, want, source = on_both(f, sym, wide)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"output {k}")
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    ok = [0, 1, 3]
    assert np.isnan(got[0][2]).all() and np.isnan(got[1][2]).all()
    np.testing.assert_allclose(got[0][ok], np.linalg.eigvalsh(sym[ok]), rtol=rtol, atol=rtol)
    values = np.linalg.svd(wide, compute_uv=False)
    for k in (3, 6, 8):
        np.testing.assert_allclose(got[k], values, rtol=rtol, atol=rtol)
    np.testing.assert_allclose((got[2][..., :3] * got[3][:, None, :]) @ got[4][:, :3], wide,
                               rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got[9], np.linalg.pinv(wide), rtol=10 * rtol, atol=10 * rtol)
    tag = "f32" if dtype == np.float32 else "f64"
    assert f"tp_eigh_{tag}_item(" in source and f"tp_svd_{tag}_item(" in source
