"""How the CUDA backend's host code launches kernels: grid dimension limits and host loops.

CUDA refuses a grid with more than 65535 blocks along y or z. The emulation lowers that
limit to 3 (TP_GRID_YZ_MAX, and it refuses a launch over it as a device does), so small
shapes just below and above it reach the loops that cover the rest; the geometry function
itself is checked at CUDA's own limit. Host loops keep their carries in swapped pointers or
update them in place: no device-to-device copy per iteration, no synchronising read of a
loop bound per iteration, and no copy of a loop index that the body never reads.
"""
import ctypes
import re

import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api, lax
from transpile.runtime.nvcc import EmulatedCudaCompiler

COMPILER = EmulatedCudaCompiler.from_environment()
pytestmark = pytest.mark.skipif(COMPILER is None,
                                reason="CUDA emulation needs a C++ compiler (g++)")
EMULATED_LIMIT = 3


@pytest.fixture(autouse=True)
def emulated(monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")


def cuda_jit(fun):
    return jit_api.jit(fun, backend="cuda")


def matmul(a, b):
    return a @ b


@pytest.mark.parametrize("batch", [EMULATED_LIMIT, EMULATED_LIMIT + 1, 2 * EMULATED_LIMIT + 1])
@pytest.mark.parametrize("rows", [16 * EMULATED_LIMIT, 16 * EMULATED_LIMIT + 1])
def test_matmul_batches_and_row_tiles_beyond_the_grid_limit(batch, rows):
    rng = np.random.default_rng(batch * rows)
    a = rng.standard_normal((batch, rows, 9))
    b = rng.standard_normal((batch, 9, 5))
    got = np.asarray(cuda_jit(matmul)(a, b))
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)


def test_broadcast_batch_beyond_the_grid_limit():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((2, 5, 3, 4)).astype(np.float32)    # 10 matrices: z loops
    b = rng.standard_normal((5, 4, 6)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(cuda_jit(matmul)(a, b)), a @ b, rtol=1e-5,
                               atol=1e-6)


def test_a_source_for_65536_matrices_keeps_grid_z_within_cudas_limit():
    a = np.ones((65536, 1, 1), np.float32)
    source = cuda_jit(matmul).lower(a, a).source
    assert "tp_grid_dim(65536, TP_GRID_YZ_MAX)" in source
    assert "for (int64_t matrix = blockIdx.z; matrix < 65536; matrix += gridDim.z)" in source


GEOMETRY = r"""
#include "tp_cuda.h"
extern "C" unsigned grid_yz(long long n) { return tp_grid_dim(n, TP_GRID_YZ_MAX); }
"""


def test_the_grid_geometry_at_cudas_own_limit(tmp_path):
    src = tmp_path / "geometry.cu"
    src.write_text(GEOMETRY)
    so = str(tmp_path / "geometry.so")
    EmulatedCudaCompiler(COMPILER.cxx, COMPILER.flags + ("-DTP_GRID_YZ_MAX=65535",)).compile(
        str(src), so)
    grid_yz = ctypes.CDLL(so).grid_yz
    grid_yz.argtypes, grid_yz.restype = [ctypes.c_longlong], ctypes.c_uint
    assert [grid_yz(n) for n in (0, 1, 65534, 65535, 65536, 10**9)] == \
        [1, 1, 65534, 65535, 65535, 65535]


def entry_of(source: str) -> str:
    return source[source.index('extern "C" int tp_entry'):]


def loop_body(entry: str, header: str) -> str:
    """The text of the loop opened by the line containing `header` (to its closing brace)."""
    start = entry.index(header)
    depth, position = 0, entry.index("{", start)
    for position in range(position, len(entry)):
        depth += {"{": 1, "}": -1}.get(entry[position], 0)
        if depth == 0:
            break
    return entry[start:position]


def test_fori_loop_swaps_carry_pointers_and_reads_its_bound_once():
    def f(x, n):
        return lax.fori_loop(0, n, lambda i, c: c - tnp.mean(c), x)
    x = np.linspace(0.0, 1.0, 1000)
    g = cuda_jit(f)
    np.testing.assert_allclose(np.asarray(g(x, 3)), jit_api.jit(f, backend="cpu")(x, 3),
                               rtol=1e-12, atol=1e-15)
    entry = entry_of(g.lower(x, 3).source)
    header = re.search(r"for \(int64_t (it\d+) = 0; \1 < (\w+); \1\+\+\)", entry)
    assert header and header.group(2).endswith("_end"), entry    # read before the loop
    body = loop_body(entry, header.group(0))
    assert "tp_read" not in body and "cudaMemcpy" not in body
    assert "tp_write" not in body            # the body never reads its index: not stored
    # Three launches per step (the mean's two passes, the update into the spare buffer),
    # then the pointers swap: the copy kernel runs once, after the loop, if at all.
    assert body.count("TP_LAUNCH(") == 3 and "*swap = " in body
    after = entry[entry.index(header.group(0)) + len(body):]
    assert re.search(r"if \(odd\d+\) \{\s+TP_LAUNCH", after)


def test_element_updates_in_a_loop_are_one_element_kernels_in_place():
    def f(x):
        return lax.fori_loop(0, 10, lambda i, c: c.at[i].set(tnp.sum(c)), x)
    x = np.arange(1000.0)
    g = cuda_jit(f)
    np.testing.assert_array_equal(np.asarray(g(x)), jit_api.jit(f, backend="cpu")(x))
    entry = entry_of(g.lower(x).source)
    body = loop_body(entry, "for (int64_t it0 = 0; it0 < 10; it0++)")
    assert "*swap" not in body                   # the carry is updated where it lives
    assert "tp_write(" in body                   # the index is read: stored each step
    launches = re.findall(r"TP_LAUNCH\((\w+), (tp_\w*blocks\([^)]*\)|\w+),", body)
    # The sum's two passes, then the store of one element (not a pass over the array).
    assert [blocks for _, blocks in launches] == ["tp_blocks(1000, TP_THREADS)", "1",
                                                  "tp_blocks(1, TP_THREADS)"], launches


def test_an_over_limit_launch_is_refused_as_on_a_device(tmp_path):
    src = tmp_path / "over.cu"
    src.write_text(r"""
#include "tp_cuda.h"
__global__ void touch(int *out) { out[blockIdx.z] = 1; }
extern "C" int run(int *out) {
    TP_LAUNCH(touch, dim3(1, 1, TP_GRID_YZ_MAX + 1), 1, out);
    return tp_launched(0);
}
""")
    so = str(tmp_path / "over.so")
    COMPILER.compile(str(src), so)
    out = (ctypes.c_int * 8)()
    assert ctypes.CDLL(so).run(out) == 9 and list(out) == [0] * 8   # InvalidConfiguration
