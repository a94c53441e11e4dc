"""The CUDA backend, run on the CPU through the emulation header (TRANSPILE_CUDA_EMULATE=1).

The generated .cu is the one a GPU would run; emulation builds it as host C++ with every
CUDA thread a fiber, so these tests check the backend's thread mapping, reductions,
barriers and host loops on any machine. Sizes stay around 1e4-1e5 elements (an emulated
thread costs about a microsecond). The op, differential and lax suites also run through
this backend in the `cuda-emulated` tox env.
"""
import ctypes
import json
import os
import re
import shutil

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import api as jit_api, lax
from transpile.runtime import cudart
from transpile.runtime.nvcc import EmulatedCudaCompiler, NvccCompiler
from conftest import assert_same, cuda_emulated

pytestmark = cuda_emulated
CUDA_JIT = jit_api.jit      # the real jit, even when conftest reroutes tp.jit to CUDA


def cuda_jit(fun, **kwargs):
    return CUDA_JIT(fun, backend="cuda", **kwargs)


def selu(x):
    return 1.05 * tnp.where(x > 0, x, 1.67 * tnp.exp(x) - 1.67)


def test_results_are_device_arrays_that_copy_to_the_host():
    x = np.random.default_rng(0).standard_normal(20_000).astype(np.float32)
    f = cuda_jit(selu)
    y = f(x)
    assert isinstance(y, tp.DeviceArray) and y.shape == x.shape and y.dtype == np.float32
    assert_same(np.asarray(y), selu(x), rtol=1e-6)
    assert y.block_until_ready() is y and tp.block_until_ready([y]) == [y]
    assert repr(f(x[:3])).startswith("Array([") and "dtype=float32" in repr(f(x[:3]))
    # A device array is an argument without a copy, and hits the same specialisation.
    z = f(y)
    assert isinstance(z, tp.DeviceArray)
    assert_same(np.asarray(z), selu(selu(x)), rtol=1e-6)
    assert f.cache_info().misses == 2        # x (20000,) and x[:3]; y reused the first


def test_reductions_in_every_layout_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((100, 300)).astype(np.float32)       # rows of 300: warp per row
    long_rows = rng.standard_normal((8, 3000))                     # rows of 3000: block per row
    ints = rng.integers(-100, 100, (64, 200), dtype=np.int8)
    x[3, 7] = x[3, 9] = np.nan                                     # first NaN wins
    x[5, :] = 1.0                                                  # ties: first index

    def f(x, long_rows, ints):
        return dict(full=tnp.sum(x), rows=tnp.sum(x, axis=1), cols=tnp.max(x, axis=0),
                    block=tnp.sum(long_rows, axis=1), argmax=tnp.argmax(x, axis=1),
                    argmin_cols=tnp.argmin(x, axis=0), argmax_all=tnp.argmax(x),
                    int_sum=tnp.sum(ints, axis=1), int_prod=tnp.prod(ints[:, :8], axis=1),
                    int_min=tnp.min(ints), any_rows=tnp.any(ints > 98, axis=1),
                    all_cols=tnp.all(ints > -100, axis=0), mean=tnp.mean(long_rows))
    g = cuda_jit(f)
    got = {k: np.asarray(v) for k, v in g(x, long_rows, ints).items()}
    with np.errstate(all="ignore"):
        want = dict(full=x.sum(dtype=np.float64).astype(np.float32), rows=x.sum(axis=1),
                    cols=x.max(axis=0), block=long_rows.sum(axis=1), argmax=x.argmax(axis=1),
                    argmin_cols=x.argmin(axis=0), argmax_all=x.argmax(),
                    int_sum=ints.sum(axis=1), int_prod=ints[:, :8].prod(axis=1),
                    int_min=ints.min(), any_rows=(ints > 98).any(axis=1),
                    all_cols=(ints > -100).all(axis=0), mean=long_rows.mean())
    for key, value in want.items():
        exact = value.dtype.kind != "f"
        assert_same(got[key], value, **({} if exact else {"rtol": 1e-5}), what=key)
    source = g.lower(x, long_rows, ints).source
    for layout in ("full reduction, pass 1", "one warp per row", "one block per row",
                   "one thread per output"):
        assert layout in source
    assert "atomic" not in source


def test_float_reductions_are_deterministic():
    x = np.random.default_rng(2).standard_normal(100_000).astype(np.float32)
    f = cuda_jit(lambda x: (tnp.sum(x), tnp.sum(x.reshape(100, 1000), axis=1)))
    first, second = f(x), f(x)
    for a, b in zip(first, second):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def test_tiled_matmul_matches_numpy():
    rng = np.random.default_rng(3)
    a32, b32 = rng.standard_normal((37, 50)).astype(np.float32), rng.standard_normal((50, 21))
    b32 = b32.astype(np.float32)
    batch = rng.standard_normal((3, 20, 17)), rng.standard_normal((3, 17, 18))
    ai, bi = rng.integers(-50, 50, (20, 30), dtype=np.int32), rng.integers(-50, 50, (30, 9),
                                                                         dtype=np.int32)
    f = cuda_jit(lambda a, b, c, d, e, g: (a @ b, c @ d, e @ g))
    r32, r64, ri = f(a32, b32, *batch, ai, bi)
    assert_same(np.asarray(r32), a32 @ b32, rtol=1e-5)
    assert_same(np.asarray(r64), batch[0] @ batch[1], rtol=1e-12)
    assert_same(np.asarray(ri), ai @ bi)
    assert "tp_matmul_tile<float, float>" in f.lower(a32, b32, *batch, ai, bi).source
    # Operands read in place: a transpose, a reversed slice, a broadcast batch.
    g = cuda_jit(lambda a, b, c, d: (a.T @ a[:, ::-2], c @ d[0],
                                     c[:, ::2].transpose(0, 2, 1) @ c[:, ::2]))
    t1, t2, t3 = g(a32, b32, *batch)
    c, d = batch
    assert_same(np.asarray(t1), a32.T @ a32[:, ::-2], rtol=1e-5)
    assert_same(np.asarray(t2), c @ d[0], rtol=1e-12)
    assert_same(np.asarray(t3), c[:, ::2].transpose(0, 2, 1) @ c[:, ::2], rtol=1e-12)


def test_control_flow_runs_as_host_loops_reading_flags_back():
    x = np.linspace(0.5, 2.0, 10_000)

    def f(x, n):
        doubled = lax.while_loop(lambda c: tnp.sum(c) < 1e6, lambda c: c * 2.0, x)
        looped = lax.fori_loop(0, n, lambda i, c: c + tnp.mean(c) * i, x)
        branch = lax.cond(tnp.max(x) > 1.0, lambda v: v - 1.0, lambda v: v + 1.0, x)
        carry, ys = lax.scan(lambda c, v: (c + v, c * v), 0.0, x[:50])
        return doubled, looped, branch, carry, ys
    got = cuda_jit(f)(x, 5)
    want = CUDA_JIT(f, backend="cpu")(x, 5)
    for g, w in zip(got, want):
        assert_same(np.asarray(g), np.asarray(w), rtol=1e-12)
    source = cuda_jit(f).lower(x, 5).source
    assert "tp_read(" in source and "for (;;)" in source


def test_device_put_get_and_zero_copy_interfaces():
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = tp.device_put(host, backend="cuda")
    assert isinstance(a, tp.DeviceArray) and a.shape == (3, 4) and a.dtype == np.int32
    assert_same(tp.device_get(a), host)
    assert tp.device_get({"k": [a]})["k"][0].tolist() == host.tolist()
    cai = a.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (3, 4) and cai["typestr"] == "<i4"
    assert cai["data"] == (a.ptr, False) and cai["strides"] is None
    # Emulated device memory is host memory, so DLPack exports it as a CPU tensor that
    # NumPy can import without a copy (on a GPU the device is kDLCUDA).
    assert a.__dlpack_device__() == (1, 0)
    view = np.from_dlpack(a)
    assert_same(view, host)
    assert view.ctypes.data == a.ptr
    on_host = tp.device_put(host, backend="cpu")     # a host copy, as JAX's CPU device_put
    assert isinstance(on_host, np.ndarray) and not np.shares_memory(on_host, host)
    assert_same(on_host, host)


def test_generated_cuda_is_kept_beside_its_binary_with_the_header():
    x = np.ones(10_000, np.float32)
    executable = cuda_jit(selu).lower(x).compile()
    assert executable.source_path.endswith("module.cu")
    with open(executable.source_path) as f:
        text = f.read()
    assert text.startswith("/*\n * Generated by transpile") and "signature: x: f32[10000]" in text
    assert '#include "tp_cuda.h"' in text and "__global__" in text
    assert re.search(r"/\* test_cuda_emulated\.py:\d+ \*/", text)      # Python line comments
    with open(os.path.join(os.path.dirname(executable.source_path), "manifest.json")) as f:
        built = json.load(f)["built"]           # how it was built: in the manifest
    assert "tp_cuda_emulate.h" in built["command"] and "module.cu" in built["command"]


def test_backend_from_the_environment(monkeypatch):
    monkeypatch.setenv("TRANSPILE_BACKEND", "cuda")
    y = CUDA_JIT(lambda x: x * 2 + 1)(np.arange(5.0))
    assert isinstance(y, tp.DeviceArray) and np.asarray(y).tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]


def test_cache_key_names_nvcc_arch_and_flags():
    nvcc = NvccCompiler("/bin/sh", "sm_90")
    assert nvcc.identity != NvccCompiler("/bin/sh", "sm_80").identity
    command = nvcc.command("m.cu", "m.so")
    assert "-arch=sm_90" in command and "--fmad=false" in command
    assert not any("fast" in flag or "ftz=true" in flag for flag in command)


def test_no_gpu_is_a_clear_error_never_a_fallback(monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "0")
    monkeypatch.setenv("TRANSPILE_CUDART", "/nonexistent/libcudart.so")
    x = np.ones(4)
    f = cuda_jit(lambda x: x + 1)
    assert "__global__" in f.lower(x).source       # the source needs no GPU
    with pytest.raises(cudart.CudaError, match="could not load the CUDA runtime"):
        f(x)
    with pytest.raises(cudart.CudaError):
        tp.device_put(x, backend="cuda")
    assert type(tp.device_put(x)) is not tp.DeviceArray   # no GPU: device_put's default: CPU


def test_no_driver_reports_cudarts_own_message(monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "0")
    try:
        path = cudart.find_cudart()
    except cudart.CudaError:
        pytest.skip("no libcudart installed here")
    try:
        cudart.Runtime(path, False)
    except cudart.CudaError as err:
        assert re.search(r"cudaError\w+ \(\d+\): ", str(err)), err    # cudart's name and text
    else:
        pytest.skip("a usable GPU is present: the no-device error cannot be provoked")


def test_the_real_gpu_after_emulation_in_one_process_is_refused(monkeypatch):
    """Emulation's cudart is loaded RTLD_GLOBAL and shadows libcudart for modules loaded
    later; a device found after it must be a clear error, not host pointers in kernels."""
    class Device:                                  # stands in for a working libcudart
        emulated = False

        def __init__(self, path, is_emulated):
            pass
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "0")
    monkeypatch.setattr(cudart, "Runtime", Device)
    monkeypatch.setattr(cudart, "find_cudart", lambda: "libcudart.so")
    monkeypatch.setattr(cudart, "_runtime", None)
    monkeypatch.setattr(cudart, "_emulation_loaded", False)
    assert isinstance(cudart.runtime(), Device)    # no emulation before: the device is used
    monkeypatch.setattr(cudart, "_runtime", None)
    monkeypatch.setattr(cudart, "_emulation_loaded", True)
    with pytest.raises(cudart.CudaError, match="another process"):
        cudart.runtime()


def _scripted_runtime(malloc_results, pool):
    """A Runtime whose cudart calls are recorded and answered from a script."""
    rt, calls = object.__new__(cudart.Runtime), []

    def call(name, *args):
        calls.append(name)
        return malloc_results.pop(0) if name == "cudaMallocAsync" else 0
    rt._call, rt._pool, rt.describe = call, pool, lambda err: f"error {err}"
    return rt, calls


def test_an_allocation_that_fails_hands_the_pools_memory_back_and_tries_again():
    rt, calls = _scripted_runtime([2, 0], pool=object())       # out of memory, then success
    rt.malloc(1 << 30)
    assert calls == ["cudaMallocAsync", "cudaGetLastError", "cudaDeviceSynchronize",
                     "cudaMemPoolTrimTo", "cudaMallocAsync"]
    rt, calls = _scripted_runtime([2, 2], pool=object())       # still out of memory: raised
    with pytest.raises(cudart.CudaError, match="cudaMallocAsync of 1073741824 bytes"):
        rt.malloc(1 << 30)
    rt, calls = _scripted_runtime([2], pool=None)              # emulation keeps no pool
    with pytest.raises(cudart.CudaError):
        rt.malloc(1 << 30)
    assert calls == ["cudaMallocAsync"]


BARRIER_KERNEL = r"""
#include "tp_cuda.h"
/* A shared-memory tree sum of 128 values; BARRIER between the levels. */
__global__ void tree_sum(const int *in, int *out) {
    __shared__ int s[128];
    s[threadIdx.x] = in[threadIdx.x];
    BARRIER;
    for (unsigned int half = 64; half > 0; half /= 2) {
        int v = threadIdx.x < half ? s[threadIdx.x] + s[threadIdx.x + half] : 0;
        BARRIER;
        if (threadIdx.x < half) s[threadIdx.x] = v;
        BARRIER;
    }
    if (threadIdx.x == 0) *out = s[0];
}
extern "C" void run(const int *in, int *out) { TP_LAUNCH(tree_sum, 1, 128, in, out); }
"""


@pytest.mark.parametrize("barrier", ["__syncthreads()", "(void)0"])
def test_a_missing_barrier_gives_a_deterministic_wrong_answer(tmp_path, barrier):
    src = tmp_path / "tree.cu"
    src.write_text(BARRIER_KERNEL.replace("BARRIER", barrier))
    so = str(tmp_path / "tree.so")
    EmulatedCudaCompiler.from_environment().compile(str(src), so)
    values = (ctypes.c_int * 128)(*range(1, 129))
    results = []
    for copy in range(2):     # two copies of the library: each starts with fresh __shared__
        path = str(tmp_path / f"tree{copy}.so")
        shutil.copy(so, path)
        out = ctypes.c_int(0)
        ctypes.CDLL(path).run(values, ctypes.byref(out))
        results.append(out.value)
    assert results[0] == results[1]                  # fibers run in a fixed order
    assert (results[0] == 128 * 129 // 2) == (barrier == "__syncthreads()")


def test_source_reads_device_scalars_only_through_checked_helpers():
    x = np.ones(1000)
    src = cuda_jit(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * 1.5, x)).lower(x, 3).source
    entry = src[src.index('extern "C"'):]
    assert not re.search(r"\b(in|t)\d+\[0\]", entry)     # never a device load on the host
    assert "tp_launched(status)" in entry and "cudaFreeAsync" in entry
    assert os.path.basename(cudart.emulated_library()).startswith("libcudart-")


def test_cache_commands_list_and_show_cuda_entries(cache_dir, capsys):
    from transpile.cli import main
    cuda_jit(lambda v: v * 3 + 1)(np.arange(4.0))
    assert main(["cache", "list"]) == 0
    listing = capsys.readouterr().out
    assert "<lambda>" in listing
    assert main(["show", listing.split()[0]]) == 0
    assert '#include "tp_cuda.h"' in capsys.readouterr().out
