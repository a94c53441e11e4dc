"""Real-GPU tests (`pytest -m gpu`): skipped, with the reason, where no CUDA device is usable.

They run the op, differential and lax suites on the device (the same switch the
`cuda-emulated` tox env uses, without emulation), compute-sanitizer's memcheck and
racecheck on a program with every kernel kind when it is installed, and zero-copy
exchange with CuPy and PyTorch through __cuda_array_interface__ and DLPack when importable.
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
from transpile import api as jit_api
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
           "tests/test_ops.py", "tests/test_differential.py", "tests/test_lax.py"]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1800,
                          env=_env(TRANSPILE_TEST_BACKEND="cuda",
                                   TRANSPILE_CACHE_DIR=str(tmp_path / "cache")))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


SANITIZED_PROGRAM = textwrap.dedent("""
    import numpy as np, transpile as tp, transpile.numpy as tnp
    from transpile import lax
    def f(x, m):
        return (tnp.sum(x), tnp.sum(x, axis=1), tnp.max(x, axis=0), tnp.argmax(x, axis=1),
                tnp.sum(m, axis=1), x[:64, :64] @ x[:64, :64].T,
                lax.while_loop(lambda c: tnp.sum(c) < 1e7, lambda c: c * 2.0, x))
    rng = np.random.default_rng(0)
    out = tp.jit(f, backend="cuda")(rng.random((512, 300), dtype=np.float32),
                                    rng.random((8, 5000)))
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
    assert "ERROR SUMMARY: 0 errors" in proc.stdout + proc.stderr


def test_results_match_numpy_and_stay_on_the_device():
    x = np.random.default_rng(1).standard_normal(1_000_000).astype(np.float32)
    f = jit_api.jit(lambda x: (x * 2 + 1, tnp.sum(x)), backend="cuda")
    y, s = f(x)
    assert isinstance(y, tp.Array) and y.__dlpack_device__() == (2, 0)
    np.testing.assert_array_equal(np.asarray(y), x * 2 + 1)
    np.testing.assert_allclose(np.asarray(s), x.sum(dtype=np.float64), rtol=1e-6)
    y2, _ = f(y)                                   # a device array in, no host round trip
    np.testing.assert_array_equal(np.asarray(y2), (x * 2 + 1) * 2 + 1)


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
