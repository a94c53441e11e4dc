"""jnp.fft against JAX's recorded values (tests/convfft_cases.py, tools/record_jax_convfft.py),
eagerly, under jit (C) and on the interpret backend; the C FFT against NumPy's over many
lengths; errors."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from convfft_cases import fft_cases
from convfft_data import assert_matches

CASES = fft_cases(tnp)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_jax(name):
    f, args = CASES[name]
    assert_matches(f(*args), name)


@pytest.fixture(scope="module")
def jitted():
    """Every case's result from one jitted program (one C build for the whole table: a build
    per case would dominate the suite's time)."""
    def all_cases(arguments):
        return {name: CASES[name][0](*args) for name, args in arguments.items()}
    return tp.jit(all_cases)({name: args for name, (_, args) in CASES.items()})


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_matches_jax(name, jitted):
    assert_matches(jitted[name], name)


@pytest.mark.parametrize("name", ["fft_12", "irfft_7", "rfftn", "fftn_norm_ortho"])
def test_interpret_matches_jax(name):
    f, args = CASES[name]
    assert_matches(tp.jit(f, backend="interpret")(*args), name)


# Lengths whose factorisations reach every path: radix 4, 2, 3, 5, generic primes (7, 11,
# 13), Bluestein (large primes, and a large prime in the packed real half), and mixtures.
LENGTHS = [1, 2, 11, 13, 16, 18, 25, 27, 45, 60, 77, 128, 143, 210, 243, 256, 509, 625, 1000,
           1018, 1024, 2 * 3 * 5 * 7 * 11, 4099]


def _spectra(x, z):
    n = x.shape[-1]
    return (tnp.fft.fft(z), tnp.fft.ifft(z), tnp.fft.rfft(x),
            tnp.fft.irfft(tnp.fft.rfft(x), n=n))


@pytest.fixture(scope="module")
def by_length():
    """Inputs and jitted spectra for every length, from one C build."""
    inputs = {}
    for n in LENGTHS:
        rng = np.random.default_rng(n)
        x = rng.standard_normal((3, n))
        inputs[n] = (x, x + 1j * rng.standard_normal((3, n)))
    got = tp.jit(lambda ins: {n: _spectra(*xz) for n, xz in ins.items()})(inputs)
    return inputs, got


@pytest.mark.parametrize("n", LENGTHS)
def test_every_length_matches_numpy(n, by_length):
    inputs, got = by_length
    x, z = inputs[n]
    want = (np.fft.fft(z), np.fft.ifft(z), np.fft.rfft(x), x)
    for g, w in zip(got[n], want):
        np.testing.assert_allclose(g, w, rtol=0,
                                   atol=1e-12 * np.sqrt(n) * max(1, np.abs(w).max()))


def test_float32_single_precision_and_accuracy():
    x = np.random.default_rng(0).standard_normal((4, 1000)).astype(np.float32)
    got = tp.jit(tnp.fft.rfft)(x)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.fft.rfft(x.astype(np.float64)), rtol=0, atol=2e-4)


def test_batched_rows_run_in_parallel_and_agree():
    """Enough rows for the OpenMP split (each thread its own scratch)."""
    z = np.random.default_rng(1).standard_normal((64, 1024)) + 0j
    np.testing.assert_allclose(tp.jit(tnp.fft.fft)(z), np.fft.fft(z), atol=1e-10)


def test_generated_c_calls_the_runtime_library_helper():
    """The transform is compiled once into the runtime library (issue 22): the module holds
    only its declaration."""
    source = tp.jit(tnp.fft.rfft).lower(np.zeros((2, 8))).source
    assert "tp_fft_r2c_c128(" in source and '#include "tp_runtime.h"' in source
    assert "tp_fft.h" not in source


def test_vmap_of_fft_is_the_batched_transform():
    z = np.random.default_rng(2).standard_normal((5, 6)) + 0j
    got = tp.jit(tp.vmap(tnp.fft.fft))(z)
    np.testing.assert_allclose(got, np.fft.fft(z), atol=1e-12)
    got = tp.vmap(lambda r: tnp.fft.rfft(r, n=8), in_axes=1)(z.real)
    np.testing.assert_allclose(got, np.fft.rfft(z.real.T, n=8), atol=1e-12)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="norm"):
        tnp.fft.fft(np.ones(4), norm="bad")
    with pytest.raises(ValueError, match="invalid number of data points"):
        tnp.fft.fft(np.ones(4), n=0)
    with pytest.raises(TypeError, match="real operand"):
        tnp.fft.rfft(np.ones(4, complex))
    with pytest.raises(np.exceptions.AxisError):
        tnp.fft.fft(np.ones(4), axis=1)


def test_empty_batch_is_empty():
    got = tp.jit(tnp.fft.fft)(np.zeros((0, 4)))
    assert got.shape == (0, 4) and got.dtype == np.complex128


def test_cuda_backend_says_fft_is_cpu_only(monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")
    with pytest.raises(NotImplementedError, match="backend='cpu'"):
        tp.jit(tnp.fft.fft, backend="cuda")(np.zeros(4, complex))


def _finite_difference(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("kind", ["fft", "rfft_ortho", "irfft", "fft_axis0"])
def test_grad_matches_finite_differences(kind):
    """JVP and transpose rules (autodiff/spectral_rules.py), under jit."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((3, 4))
    losses = {
        "fft": lambda x: tnp.sum(tnp.real(tnp.fft.fft(x + 0j)) * w[:2]),
        "rfft_ortho": lambda x: tnp.sum(tnp.imag(tnp.fft.rfft(x, norm="ortho")) * w[:2, :3]),
        "irfft": lambda x: tnp.sum(tnp.fft.irfft(tnp.fft.rfft(x) * (1 + 2j)) * w[:2]),
        "fft_axis0": lambda x: tnp.sum(tnp.abs(tnp.fft.fft(x, axis=0)) * w[:2]),
    }
    loss = losses[kind]
    x = rng.standard_normal((2, 4))
    got = tp.jit(tp.grad(loss))(x)
    np.testing.assert_allclose(got, _finite_difference(lambda v: float(loss(v)), x),
                               atol=1e-7)
