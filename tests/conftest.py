"""Shared test set-up: a private disk cache, dtype lists, edge values and comparisons."""
import os
import tempfile

import numpy as np
import pytest

if "TRANSPILE_CACHE_DIR" not in os.environ:     # never touch the user's own cache
    os.environ["TRANSPILE_CACHE_DIR"] = tempfile.mkdtemp(prefix="transpile-test-cache-")
# First calls wait for their modules here, so that a test calling once tests the module;
# tests/test_first_call_executor.py turns the executor on (and checks it gives the same bits).
os.environ.setdefault("TRANSPILE_FIRST_CALL_EXECUTOR", "0")

try:
    from hypothesis import settings
    settings.register_profile("default", max_examples=40, deadline=None)
    settings.register_profile("ubsan", max_examples=25, deadline=None)
    settings.register_profile("cuda-emulated", max_examples=8, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
except ImportError:   # hypothesis is a test dependency; only test_differential needs it
    pass

def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a real CUDA device (run with pytest -m gpu); "
                                       "skipped where none is usable")
    config.addinivalue_line("markers", "slow: takes more than a few seconds (deselect with "
                                       "-m 'not slow')")


# On a real device (not emulated: emulation calls the host's libm), CUDA's math library
# rounds exp, log, sin, cos, pow... within its own documented 1-2 ulp per call (CUDA C++
# Programming Guide, "Mathematical Functions"), not glibc's; complex formulas compound them
# (seen on an H200: complex128 power 7 ulp from NumPy, complex64 exp 2 ulp). Tests of
# transcendental results allow this many ulp there (of the value's size: tests/test_complex).
DEVICE_LIBM_ULP = (8 if os.environ.get("TRANSPILE_TEST_BACKEND") == "cuda"
                   and not os.environ.get("TRANSPILE_CUDA_EMULATE") else 0)

# TRANSPILE_TEST_BACKEND=cuda (tox env cuda-emulated) runs the op, differential and lax suites
# through the CUDA backend: every jit the tests make that would compile for the CPU compiles
# for CUDA instead, and its device results come back as NumPy arrays for the comparisons.
if os.environ.get("TRANSPILE_TEST_BACKEND") == "cuda":
    import functools

    import transpile as tp
    from transpile.pytree import tree_map

    _cpu_jit = tp.jit

    class _OnHost:
        def __init__(self, jitted):
            self._jitted = jitted

        def __call__(self, *args, **kwargs):
            return tree_map(lambda x: np.asarray(x) if isinstance(x, tp.DeviceArray) else x,
                            self._jitted(*args, **kwargs))

        def __getattr__(self, name):
            return getattr(self._jitted, name)

    def _cuda_jit(fun=None, *, backend=None, **kwargs):
        if fun is None:
            return functools.partial(_cuda_jit, backend=backend, **kwargs)
        if backend in (None, "cpu"):
            backend = "cuda"
        jitted = _cpu_jit(fun, backend=backend, **kwargs)
        return _OnHost(jitted) if backend == "cuda" else jitted

    tp.jit = _cuda_jit


BOOL = [np.dtype(np.bool_)]
SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UNSIGNED = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
FLOATS = [np.dtype(np.float32), np.dtype(np.float64)]
ALL_DTYPES = BOOL + SIGNED + UNSIGNED + FLOATS


def edge_values(dtype, n_random=12, seed=0):
    """Boundary values of `dtype` plus a few random ones, as a 1-D array."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return np.array([True, False, True, False])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.max // 2]
        if dtype.kind == "i":
            vals += [-1, -2, -3, -7, info.min, info.min + 1, info.min // 2]
        rand = rng.integers(info.min, info.max, size=n_random, dtype=dtype, endpoint=True)
        return np.concatenate([np.array(vals, dtype=dtype), rand])
    info = np.finfo(dtype)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, -7.25, 100.0, 1e-30,
            float(info.tiny), float(info.max), float(-info.max), np.inf, -np.inf, np.nan]
    rand = rng.standard_normal(n_random) * 10
    return np.concatenate([np.array(vals, dtype=dtype), rand.astype(dtype)])


def ulp_distance(a, b):
    """Distance in units in the last place between float arrays of one dtype (NaN==NaN: 0)."""
    a, b = np.asarray(a), np.asarray(b)
    itype = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    ai, bi = a.view(itype).astype(np.int64), b.view(itype).astype(np.int64)
    # Map the sign-magnitude bit patterns onto a monotonic integer line.
    ai = np.where(ai < 0, np.iinfo(itype).min - ai, ai)
    bi = np.where(bi < 0, np.iinfo(itype).min - bi, bi)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, np.abs(ai - bi))


def assert_same(actual, expected, max_ulp=0, rtol=None, what=""):
    """Same dtype and shape, and values equal: bit-exact (up to NaN payload) unless a float
    tolerance (in ulp or relative) is given. Signed zeros must match exactly when max_ulp=0."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != NumPy's {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if actual.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
        return
    nan_a, nan_e = np.isnan(actual), np.isnan(expected)
    np.testing.assert_array_equal(nan_a, nan_e, err_msg=f"{what}: NaN positions differ")
    if rtol is not None:
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol, err_msg=what)
        return
    dist = ulp_distance(actual, expected)
    if max_ulp == 0:       # the ulp line maps -0.0 and +0.0 to one point: compare signs too
        dist = np.where((np.signbit(actual) != np.signbit(expected)) & ~nan_e, 1, dist)
    bad = dist > max_ulp
    if bad.any():
        i = np.flatnonzero(bad.ravel())[:5]
        raise AssertionError(f"{what}: {bad.sum()} values differ by more than {max_ulp} ulp; "
                             f"e.g. got {actual.ravel()[i]} expected {expected.ravel()[i]} "
                             f"(ulp {dist.ravel()[i]})")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(d))
    return d


def _cuda_emulation_available() -> bool:
    from transpile.runtime.nvcc import EmulatedCudaCompiler
    return EmulatedCudaCompiler.from_environment() is not None


# For test modules that run the CUDA backend emulated on the CPU (TRANSPILE_CUDA_EMULATE):
# `pytestmark = cuda_emulated`.
cuda_emulated = [pytest.mark.skipif(not _cuda_emulation_available(),
                                    reason="CUDA emulation needs a C++ compiler (g++)"),
                 pytest.mark.usefixtures("cuda_emulation")]


@pytest.fixture
def cuda_emulation(monkeypatch):
    if os.environ.get("TRANSPILE_TEST_BACKEND") == "cuda" and \
            not os.environ.get("TRANSPILE_CUDA_EMULATE"):
        pytest.skip("this run uses the real GPU: a process that loads the emulated CUDA "
                    "runtime cannot use the real one after it (runtime/cudart.py)")
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")
