"""NumPy's answers where the CUDA backend's thread mapping or its own math could differ from
the C backend's, run through the emulated backend (TRANSPILE_CUDA_EMULATE=1):

- reductions whose answer depends on the order of the terms: a zero max/min has the sign of
  the last zero, complex max/min keep the first of equal values or of NaNs (both combined
  as (value, position) pairs, whatever order a tree of threads combines them in), and float
  products multiply in order (a thread per output);
- tp_complex.h's own exp/log/sqrt (CUDA has no C99 complex library) at special values:
  |z| near overflow, |z| near 1, and Annex G's signed zeros;
- matrix products bounded by a loop index (codegen/loop_ranges.py) in the tile kernel;
- transpile.h's float64 exp, fused as on a device.
"""
import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api, lax
from conftest import assert_same, cuda_emulated

pytestmark = cuda_emulated


def on_cuda(fun, *args):
    """(results on the host, the generated source)."""
    f = jit_api.jit(fun, backend="cuda")
    result = f(*args)
    return {k: np.asarray(v) for k, v in result.items()}, f.lower(*args).source


def assert_parts(got, want, max_ulp=0, what=""):
    for part in ("real", "imag"):
        assert_same(getattr(got, part), getattr(want, part), max_ulp=max_ulp,
                    what=f"{what} ({part} part)")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_zero_max_min_has_the_sign_of_the_last_zero_in_every_layout(dtype):
    rng = np.random.default_rng(0)
    zeros = np.where(rng.random((40, 1200)) < 0.5, -0.0, 0.0).astype(dtype)
    mixed = np.where(rng.random((40, 64)) < 0.3, dtype(-1), zeros[:, :64])

    def f(zeros, mixed):
        return {"full": zeros.max(), "full_min": zeros[:, :64].min(),
                "warp": zeros[:, :64].max(axis=1), "block": zeros.min(axis=1),
                "thread": zeros[:, :64].max(axis=0), "mixed_full": mixed.max(),
                "mixed_thread": (-mixed).min(axis=0)}
    got, source = on_cuda(f, zeros, mixed)
    for key, want in f(zeros, mixed).items():
        assert_same(got[key], np.asarray(want), what=key)
    for layout in ("full reduction", "one warp per row", "one block per row",
                   "one thread per output"):
        assert layout in source


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_max_min_keep_the_first_equal_value_or_nan(dtype):
    part = np.dtype(dtype).type(0).real.dtype.type
    values = np.array([complex(0.0, -0.0), complex(-0.0, 0.0), complex(np.nan, 1.0),
                       complex(1.0, np.nan), complex(2.0, 0.0), complex(2.0, -0.0)], dtype)
    values.real[2], values.imag[3] = part(np.nan), part(np.nan)
    x = np.random.default_rng(1).choice(values, size=(50, 40))

    def f(x):
        finite = x[:, :2].real + 0j * x[:, :2].imag      # no NaN: ties of signed zeros
        return {"max": x.max(), "min": x.min(), "rows": x.max(axis=1),
                "cols": x.min(axis=0), "finite": finite.max(), "finite_min": finite.min()}
    got, _ = on_cuda(f, x)
    with np.errstate(all="ignore"):
        want = f(x)
    for key in want:
        assert_parts(got[key], np.asarray(want[key]), what=key)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_products_multiply_in_order(dtype):
    info = np.finfo(dtype)
    terms = np.array([info.smallest_subnormal, 3.0, info.max / 2, 0.7, 1 / info.max, info.max,
                      1.3, 0.1, 7.0, info.tiny], dtype=dtype)
    rng = np.random.default_rng(2)
    with np.errstate(all="ignore"):
        x = (rng.choice(terms, size=(300, 10)) * rng.uniform(0.5, 1.5, (300, 10))).astype(dtype)

        def f(x):
            return {"all": x.prod(), "rows": x.prod(axis=1), "cols": x[:, :7].prod(axis=0)}
        want = f(x)
    got, source = on_cuda(f, x)
    for key in want:
        assert_same(got[key], np.asarray(want[key]), what=key)
    assert "full reduction" not in source


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_exp_log_sqrt_near_overflow_near_one_and_signed_zeros(dtype):
    part = np.dtype(dtype).type(0).real.dtype
    big = np.finfo(part).max
    z = np.array([complex(big, big), complex(-big, 1.0), complex(big, 0.0), complex(1.0, big),
                  complex(0.6, 0.8), complex(0.8, -0.6), complex(0.999, 0.04), complex(1.5, 0.5),
                  complex(-np.inf, -np.inf), complex(-np.inf, np.inf), complex(-np.inf, np.nan),
                  complex(3.0, -4.0), complex(1e-30, 2e-30)], dtype)

    def f(z):
        return {"exp": tnp.exp(z), "log": tnp.log(z), "sqrt": tnp.sqrt(z)}
    got, _ = on_cuda(f, z)
    with np.errstate(all="ignore"):
        want = {"exp": np.exp(z), "log": np.log(z), "sqrt": np.sqrt(z)}
    for key in want:
        assert_parts(got[key], want[key], max_ulp=2, what=key)
    assert np.signbit(got["exp"].imag[8]) and not np.signbit(got["exp"].imag[9])


def test_products_bounded_by_a_loop_index_are_bounded_on_the_device():
    """codegen/loop_ranges.py's row and depth limits, honoured by the tile kernel: the
    factor still equals NumPy's, the rows above the index are zeros."""
    m = np.random.default_rng(3).standard_normal((20, 20))
    a = m @ m.T / 20 + np.eye(20)

    def cholesky(a):
        rows = tnp.arange(a.shape[0])

        def step(j, low):
            v = a[:, j] - low @ low[j]
            return low.at[:, j].set(tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0))
        return {"low": lax.fori_loop(0, a.shape[0], step, tnp.zeros_like(a))}
    got, source = on_cuda(cholesky, a)
    np.testing.assert_allclose(got["low"], np.linalg.cholesky(a), rtol=1e-12, atol=1e-12)
    assert "const int64_t depth" in source and "const int64_t first" in source


def test_float64_exp_fuses_as_the_device_does():
    """transpile.h's tp_exp uses fma where the hardware has one; a GPU always has, so the
    emulation fuses too (unfused, exp(1.0) was one ulp above NumPy's)."""
    x = np.linspace(-30, 30, 601)
    got, _ = on_cuda(lambda x: {"exp": tnp.exp(x)}, x)
    assert got["exp"][310] == np.exp(1.0) == np.e
    assert_same(got["exp"], np.exp(x), max_ulp=1)
