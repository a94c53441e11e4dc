"""float16 and bfloat16 on the CUDA backend, run through the emulation header: the same
16-bit storage and float32 arithmetic as the C backend (tp_half.h's helpers are
`__host__ __device__`), so results equal the C backend's bit for bit, in elementwise kernels,
grid reductions and host loops."""
import os
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import api as jit_api, lax
from conftest import cuda_emulated

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import half_cases as cases  # noqa: E402

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

pytestmark = cuda_emulated
HALVES = ["float16", pytest.param("bfloat16", marks=pytest.mark.skipif(
    ml_dtypes is None, reason="bfloat16 needs ml_dtypes (optional), not installed"))]


def program(x, y):
    # Constants of x's dtype: under NumPy's rules bfloat16 * 0.5 is float32 (ml_dtypes' answer)
    half, tenth = tnp.asarray(0.5, x.dtype), tnp.asarray(0.1, x.dtype)
    s = x * y + tenth
    loop = lax.fori_loop(0, 4, lambda i, c: c * half + x, tnp.zeros_like(x))
    return (s, tnp.sin(x), x < y, tnp.sum(s), tnp.max(x, axis=1), loop,
            x.astype(tnp.float32), tnp.where(x > y, x, y))


@pytest.mark.parametrize("name", HALVES)
def test_cuda_matches_the_c_backend_bit_for_bit(name):
    dt = np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
    xs, ys = cases.edge_pairs(name)
    rng = np.random.default_rng(5)
    x = np.concatenate([xs, rng.standard_normal(4 * 64 - len(xs)) * 8]).astype(dt)
    y = np.concatenate([ys, rng.standard_normal(4 * 64 - len(ys)) * 8]).astype(dt)
    x, y = x.reshape(4, 64), y.reshape(4, 64)
    on_cpu = jit_api.jit(program, backend="cpu")(x, y)
    cuda = jit_api.jit(program, backend="cuda")
    on_gpu = [np.asarray(r) for r in cuda(x, y)]
    assert "tp_half.h" in cuda.lower(x, y).source
    for c, g in zip(on_cpu, on_gpu):
        assert c.dtype == g.dtype and c.shape == g.shape
        # Bits equal, but a NaN's sign is the order of operations' (x86 makes negative ones)
        if c.dtype.itemsize in (2, 4) and c.dtype != np.int32 and c.dtype != bool:
            nan = np.isnan(c.astype(np.float32))
            assert np.array_equal(nan, np.isnan(g.astype(np.float32)))
            c, g = c[~nan], g[~nan]
        assert c.tobytes() == g.tobytes()


def test_half_module_compiles_with_nvcc_warning_free(tmp_path):
    """The same program's .cu for sm_90 with every warning an error (compile only)."""
    from transpile.runtime.nvcc import find_nvcc
    if find_nvcc() is None:
        pytest.skip("nvcc (the CUDA toolkit) is not installed")
    from test_cuda_nvcc import nvcc_compile
    x = np.linspace(-4, 4, 256).astype(np.float16).reshape(4, 64)
    source, _ = nvcc_compile(program, (x, x[::-1]), tmp_path)
    assert '#include "tp_half.h"' in source
