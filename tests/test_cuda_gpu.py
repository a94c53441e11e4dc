"""Real-GPU tests (`pytest -m gpu`): skipped, with the reason, where no CUDA device is usable.

They run the op, differential, lax, sorting, linalg and scatter suites on the device (the
same switch the `cuda-emulated` tox env uses, without emulation), compute-sanitizer's
memcheck and racecheck on a program with every kernel kind when it is installed, the
helper kernels and grids past CUDA's y/z limit against the CPU backend, and zero-copy
exchange with CuPy and PyTorch through __cuda_array_interface__ and DLPack when importable.

On a machine with a GPU, one command runs these and then the benchmarks:
    tox -e gpu
or, without tox:
    python -m pytest -m gpu -v tests/test_cuda_gpu.py && python benchmarks/bench_cuda.py
"""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import api as jit_api, debug, lax
from transpile.runtime import cudart

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _gpu_reason():
    if cudart.emulated():
        return "TRANSPILE_CUDA_EMULATE is set: these tests need the real device"
    try:
        cudart.runtime()
    except cudart.CudaError as err:
        return str(err)
    return None


_REASON = _gpu_reason()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(_REASON is not None, reason=str(_REASON))]


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("TRANSPILE_CUDA_EMULATE", None)
    env.update(extra)
    return env


def test_op_differential_and_lax_suites_pass_on_the_device(tmp_path):
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
           "tests/test_ops.py", "tests/test_differential.py", "tests/test_lax.py",
           "tests/test_sorting.py", "tests/test_linalg.py", "tests/test_scatter.py"]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1800,
                          env=_env(TRANSPILE_TEST_BACKEND="cuda",
                                   TRANSPILE_CACHE_DIR=str(tmp_path / "cache")))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


SANITIZED_PROGRAM = textwrap.dedent("""
    import numpy as np, transpile as tp, transpile.numpy as tnp
    from transpile import debug, lax
    def f(x, m, idx):
        debug.print("corner {}", x[0, :2])
        a = m[:, :16].reshape(8, 4, 4) + 4 * np.eye(4)
        return (tnp.sum(x), tnp.sum(x, axis=1), tnp.max(x, axis=0), tnp.argmax(x, axis=1),
                tnp.sum(m, axis=1), x[:64, :64] @ x[:64, :64].T,
                lax.while_loop(lambda c: tnp.sum(c) < 1e7, lambda c: c * 2.0, x),
                tnp.sort(x, axis=1), tnp.argsort(m, axis=0), tnp.linalg.solve(a, a[..., :1]),
                tnp.linalg.cholesky(a @ a.transpose(0, 2, 1)), tnp.linalg.qr(a)[0],
                m[0].at[idx].add(1.0),
                x.reshape(-1, 1, 2) @ x[:2, :3])       # 76800 matrices: grid z loops
    rng = np.random.default_rng(0)
    out = tp.jit(f, backend="cuda")(rng.random((512, 300), dtype=np.float32),
                                    rng.random((8, 5000)), rng.integers(0, 5000, 10000))
    print(float(np.asarray(out[0])))
""")


@pytest.mark.parametrize("tool", ["memcheck", "racecheck"])
def test_compute_sanitizer_is_clean(tmp_path, tool):
    sanitizer = shutil.which("compute-sanitizer")
    if sanitizer is None:
        pytest.skip("compute-sanitizer is not installed")
    script = tmp_path / "program.py"
    script.write_text(SANITIZED_PROGRAM)
    proc = subprocess.run([sanitizer, f"--tool={tool}", "--error-exitcode=3", sys.executable,
                           str(script)], capture_output=True, text=True, timeout=900,
                          env=_env(TRANSPILE_CACHE_DIR=str(tmp_path / "cache")))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    # memcheck ends with "ERROR SUMMARY: 0 errors", racecheck with "RACECHECK SUMMARY: 0
    # hazards displayed (0 errors, 0 warnings)" (compute-sanitizer of CUDA 13.0).
    summary = "RACECHECK SUMMARY: 0 hazards" if tool == "racecheck" else "ERROR SUMMARY: 0 errors"
    assert summary in proc.stdout + proc.stderr


def test_results_match_numpy_and_stay_on_the_device():
    x = np.random.default_rng(1).standard_normal(1_000_000).astype(np.float32)
    f = jit_api.jit(lambda x: (x * 2 + 1, tnp.sum(x)), backend="cuda")
    y, s = f(x)
    assert isinstance(y, tp.DeviceArray) and y.__dlpack_device__() == (2, 0)
    np.testing.assert_array_equal(np.asarray(y), x * 2 + 1)
    np.testing.assert_allclose(np.asarray(s), x.sum(dtype=np.float64), rtol=1e-6)
    y2, _ = f(y)                                   # a device array in, no host round trip
    np.testing.assert_array_equal(np.asarray(y2), (x * 2 + 1) * 2 + 1)


def test_one_value_returned_twice_is_two_device_arrays():
    # The case: the CPU backend always returned two arrays; the device must too, and
    # writing through one output's __cuda_array_interface__ must leave the other alone.
    f = jit_api.jit(lambda x: (x * 2, x * 2, x), backend="cuda")
    x = np.arange(4.0)
    a, b, c = f(x)
    ptrs = {v.__cuda_array_interface__["data"][0] for v in (a, b, c)}
    assert len(ptrs) == 3
    cudart.runtime().copy_to_device(a.__cuda_array_interface__["data"][0], np.full(4, -1.0))
    np.testing.assert_array_equal(np.asarray(a), np.full(4, -1.0))
    np.testing.assert_array_equal(np.asarray(b), x * 2)
    np.testing.assert_array_equal(np.asarray(c), x)


def _on_both(fun, *args):
    got = [np.asarray(v) for v in jit_api.jit(fun, backend="cuda")(*args)]
    want = [np.asarray(v) for v in jit_api.jit(fun, backend="cpu")(*args)]
    return got, want


def test_sorts_scatters_and_factorizations_equal_the_cpu_backends():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3000, 257)).astype(np.float32)
    x[5, 3] = np.nan
    a = rng.standard_normal((1000, 6, 6)) + 6 * np.eye(6)
    idx, upd = rng.integers(-10, 3000, 100_000), rng.standard_normal(100_000)

    def f(x, a, idx, upd):
        return (tnp.sort(x, axis=1), tnp.argsort(x, axis=0), tnp.quantile(x, 0.3, axis=1),
                tnp.linalg.solve(a, a[..., :2]), tnp.linalg.inv(a), tnp.linalg.det(a),
                tnp.linalg.cholesky(a @ a.transpose(0, 2, 1)), *tnp.linalg.qr(a),
                x[:, 0].astype(np.float64).at[idx].add(upd),
                tnp.bincount(tnp.abs(idx) % 9, length=9))
    got, want = _on_both(f, x, a, idx, upd)
    # Sorts, quantiles and counts are exact on both. The factorizations use only + - * / and
    # sqrt (IEEE, no FMA contraction on either), but the two backends sum in different
    # orders (the CPU's blocked GEMM and factorizations against a thread per matrix; seen on
    # an H200: cholesky of a @ a.T 1 ulp apart in 54 of 36000 elements), as does the
    # scatter-add of 100000 updates.
    exact = {0, 1, 2, 10}
    for k, (g, w) in enumerate(zip(got, want)):
        if k in exact:
            np.testing.assert_array_equal(g, w, err_msg=f"output {k}")
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"output {k}")


def test_debug_print_on_the_device_prints_what_the_cpu_prints(capfd):
    def body(i, c):
        debug.print("{i} {s}", i=i, s=tnp.sum(c))
        return c * 2.0

    def f(x):
        return lax.fori_loop(0, 3, body, x)
    x = np.arange(1000.0)
    jit_api.jit(f, backend="cuda")(x).block_until_ready()
    on_device = capfd.readouterr().out
    jit_api.jit(f, backend="cpu")(x)
    assert on_device == capfd.readouterr().out and len(on_device.splitlines()) == 3


def test_grids_past_the_y_and_z_limits():
    rng = np.random.default_rng(3)
    many = rng.standard_normal((70_000, 2, 3)), rng.standard_normal((70_000, 3, 2))
    tall = rng.standard_normal((1_100_000, 3)), rng.standard_normal((3, 2))   # 68750 tiles
    f = jit_api.jit(lambda a, b, c, d: (a @ b, c @ d), backend="cuda")
    batched, rows = f(*many, *tall)
    # Within a few roundings of the terms' size: a sum of three products may cancel (seen on
    # an H200: -3.5108873829293e-06 against NumPy's ...9338e-06, which may contract to FMA).
    for got, (a, b) in ((batched, many), (rows, tall)):
        want = a @ b
        bound = 4e-16 * (np.abs(a) @ np.abs(b)) + 2 * np.spacing(np.abs(want))
        np.testing.assert_array_less(np.abs(np.asarray(got) - want), bound)


def test_cupy_interop_through_cai_and_dlpack():
    cupy = pytest.importorskip("cupy")
    a = tp.device_put(np.arange(10, dtype=np.float32))
    viewed = cupy.asarray(a)                       # __cuda_array_interface__, no copy
    assert viewed.data.ptr == a.ptr
    np.testing.assert_array_equal(cupy.asnumpy(viewed), np.arange(10, dtype=np.float32))
    imported = cupy.from_dlpack(a)
    assert imported.data.ptr == a.ptr
    back = jit_api.jit(lambda v: v * 3, backend="cuda")(np.asarray(cupy.asnumpy(imported)))
    np.testing.assert_array_equal(np.asarray(back), np.arange(10, dtype=np.float32) * 3)


def test_torch_interop_through_dlpack():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA support here")
    a = tp.device_put(np.arange(6, dtype=np.int64).reshape(2, 3))
    t = torch.from_dlpack(a)
    assert t.is_cuda and t.data_ptr() == a.ptr
    assert t.cpu().numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    t2 = torch.as_tensor(a, device="cuda")          # __cuda_array_interface__
    assert t2.data_ptr() == a.ptr


FAULTING_PROGRAM = textwrap.dedent("""
    import numpy as np, transpile as tp
    from transpile.runtime.cudart import CudaError
    f = tp.jit(lambda x: x + 1, backend="cuda")
    x = tp.device_put(np.ones(1 << 20, np.float32))
    x._buffer.ptr = 8                # a deliberately invalid device address
    try:
        y = f(x)                     # the launch itself succeeds: the fault is asynchronous
        y.block_until_ready()
    except CudaError as err:
        print("CudaError:", err)
""")


def test_a_kernel_fault_surfaces_as_an_exception_at_the_next_sync(tmp_path):
    # In a child process: a fault leaves the CUDA context unusable for the rest of it.
    script = tmp_path / "fault.py"
    script.write_text(FAULTING_PROGRAM)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=600, env=_env(TRANSPILE_CACHE_DIR=str(tmp_path / "cache")))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "CudaError:" in proc.stdout and "cudaError" in proc.stdout
