"""Compile-only checks of generated CUDA with the real nvcc (no GPU needed).

One module samples every kernel kind (elementwise, each reduction layout with argmax,
matmul, an interchanged loop, host control flow); it must compile for sm_90 with every
warning an error, and ptxas must report no local-memory spills for the elementwise and
reduction kernels. Skipped, with the reason, where nvcc is not installed.
"""
import re
import subprocess

import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api, lax
from transpile.runtime import INCLUDE_DIR
from transpile.runtime.nvcc import find_nvcc

NVCC = find_nvcc()
pytestmark = pytest.mark.skipif(NVCC is None, reason="nvcc (the CUDA toolkit) is not installed")


def sample(x, rows, ints, n):
    selu = 1.05 * tnp.where(x > 0, x, 1.67 * tnp.exp(x) - 1.67)
    mixed = (ints // 3 + ints % 5, ints.astype(np.float64) ** 2, ints << 2)
    reductions = (tnp.sum(x), tnp.sum(x, axis=1), tnp.max(x, axis=0), tnp.argmax(x, axis=1),
                  tnp.argmin(x), tnp.sum(rows, axis=1), tnp.all(ints > 0, axis=1),
                  tnp.prod(ints, axis=0))
    product = x[:64, :32] @ x[:32, :48]
    escape = lax.fori_loop(0, 20, lambda i, z: z * z * 0.5 + x, x)       # interchanged
    grown = lax.while_loop(lambda c: tnp.sum(c) < 1e6, lambda c: c * 2.0, x)
    stepped = lax.fori_loop(0, n, lambda i, c: c - tnp.mean(c), rows)
    return selu, mixed, reductions, product, escape, grown, stepped


@pytest.fixture(scope="module")
def ptxas_report(tmp_path_factory):
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((256, 300)).astype(np.float32), rng.standard_normal((16, 5000)),
            rng.integers(-9, 9, (64, 100), dtype=np.int16), 3)
    source = jit_api.jit(sample, backend="cuda").lower(*args).source
    path = tmp_path_factory.mktemp("nvcc") / "sample.cu"
    path.write_text(source)
    cmd = [NVCC, "-arch=sm_90", "--fmad=false", "-std=c++17", "-Werror", "all-warnings",
           "--ptxas-options=-v", "-c", "-Xcompiler", "-fPIC", "-I", INCLUDE_DIR,
           "-o", str(path.with_suffix(".o")), str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}{proc.stdout}"
    return source, proc.stderr + proc.stdout


def kernel_reports(report: str) -> dict:
    """ptxas -v lines per kernel: 'Compiling entry function' ... 'spill stores'."""
    kernels, current = {}, None
    for line in report.splitlines():
        match = re.search(r"Compiling entry function '(\w+)'", line)
        if match:
            current = match.group(1)
        elif current and "spill" in line:
            kernels[current] = line
    return kernels


def test_sample_module_compiles_warning_free_for_sm90(ptxas_report):
    source, report = ptxas_report
    assert "warning" not in report.lower()
    for layout in ("full reduction", "one warp per row", "one block per row",
                   "one thread per output", "tp_matmul_tile", "interchanged"):
        assert layout in source


def test_elementwise_and_reduction_kernels_do_not_spill(ptxas_report):
    _, report = ptxas_report
    kernels = kernel_reports(report)      # every kernel, the matmul tile included
    assert len(kernels) >= 10, kernels
    for name in kernels:
        assert re.search(r"\b0 bytes spill stores, 0 bytes spill loads", kernels[name]), \
            f"{name}: {kernels[name]}"
