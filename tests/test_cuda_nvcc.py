"""Compile-only checks of generated CUDA with the real nvcc (no GPU needed).

One module samples every kernel kind (elementwise, each reduction layout with argmax,
matmul, an interchanged loop, host control flow); it must compile for sm_90 with every
warning an error, and ptxas must report no local-memory spills for the elementwise and
reduction kernels. A second module samples the kernels that call the runtime's helper
headers from device code (sorts, factorizations, eigh and svd, scatters, a product bounded by
a loop index) and a debug print: it must compile with every warning an error too. Skipped,
with the reason, where nvcc is not installed.
"""
import re
import subprocess

import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api, debug, lax
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


def helpers(x, a, idx, counts):
    debug.print("first {}", x[0, :2])
    spd = a @ a.transpose(0, 2, 1) + np.eye(4, dtype=a.dtype)
    sign, logdet = tnp.linalg.slogdet(a)
    q, r = tnp.linalg.qr(a)
    small = x[:6, :6]
    spectral = (tnp.linalg.eigh(a), tnp.linalg.svd(a[:, :3]), tnp.linalg.eigh(small + small.T),
                tnp.linalg.svd(x[:4, :7], full_matrices=False), tnp.linalg.svdvals(x[:5, :3]))
    rows = tnp.arange(4)

    def cholesky_step(j, low):       # a product bounded by the loop index (loop_ranges.py)
        v = spd[0, :, j] - low @ low[j]
        return low.at[:, j].set(tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0))
    bounded = lax.fori_loop(0, 4, cholesky_step, tnp.zeros_like(spd[0]))
    return (tnp.sort(x, axis=1), tnp.argsort(x, axis=0), tnp.median(x),
            tnp.linalg.solve(a, a[..., :2]), tnp.linalg.inv(a), tnp.linalg.det(a), sign,
            logdet, tnp.linalg.cholesky(spd), q, r, x[0].at[idx].add(1.0),
            counts.at[idx].max(counts[:6]), tnp.bincount(counts, length=8), spectral, bounded)


def nvcc_compile(fun, args, directory):
    """(the generated source, nvcc's and ptxas's report) of `fun` compiled for sm_90."""
    source = jit_api.jit(fun, backend="cuda").lower(*args).source
    path = directory / f"{fun.__name__}.cu"
    path.write_text(source)
    cmd = [NVCC, "-arch=sm_90", "--fmad=false", "-std=c++17", "-Werror", "all-warnings",
           "--ptxas-options=-v", "-c", "-Xcompiler", "-fPIC", "-I", INCLUDE_DIR,
           "-o", str(path.with_suffix(".o")), str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}{proc.stdout}"
    return source, proc.stderr + proc.stdout


@pytest.fixture(scope="module")
def ptxas_report(tmp_path_factory):
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((256, 300)).astype(np.float32), rng.standard_normal((16, 5000)),
            rng.integers(-9, 9, (64, 100), dtype=np.int16), 3)
    return nvcc_compile(sample, args, tmp_path_factory.mktemp("nvcc"))


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


def test_helper_kernels_compile_warning_free_for_sm90(tmp_path):
    rng = np.random.default_rng(1)
    args = (rng.standard_normal((8, 50)).astype(np.float32), rng.standard_normal((3, 4, 4)),
            rng.integers(-2, 10, 6), rng.integers(0, 8, 40))
    source, report = nvcc_compile(helpers, args, tmp_path)
    assert "warning" not in report.lower()
    for call in ("tp_sort_f32_item(", "tp_sort_f32_block(", "tp_solve_f64_item(",
                 "tp_cholesky_f64_item(",
                 "tp_qr_q_f64_item(", "tp_scatter_add_f32(", "tp_scatter_max_i64(",
                 "tp_host_copy(", "tp_eigh_f64_item(", "tp_svd_f64_item(", "tp_eigh_f32_item(",
                 "tp_svd_f32_item(", "const int64_t first", "const int64_t depth"):
        assert call in source, call
    assert len(kernel_reports(report)) >= 16


def complex_numbers(z, w, x):
    return (z * w + z / w - 1j * x, tnp.exp(z), tnp.log(w), tnp.sqrt(z), tnp.abs(z),
            tnp.angle(w), z.real, z.imag, z.conj(), tnp.sum(z), tnp.sum(w, axis=1),
            tnp.prod(z, axis=0), z @ w.T, tnp.mean(z), z == w, z < w, tnp.maximum(z, w),
            tnp.max(z), tnp.argmin(w, axis=1))


def test_complex_kernels_compile_warning_free_for_sm90(tmp_path):
    """tp_complex.h's helpers as device code: arithmetic, libm-free exp/log/sqrt, struct
    reductions and the matmul tile on structs."""
    rng = np.random.default_rng(2)
    z = (rng.standard_normal((64, 50)) + 1j * rng.standard_normal((64, 50))).astype(np.complex64)
    w = rng.standard_normal((64, 50)) + 1j * rng.standard_normal((64, 50))
    x = rng.standard_normal((64, 50)).astype(np.float32)
    source, report = nvcc_compile(complex_numbers, (z, w, x), tmp_path)
    assert "warning" not in report.lower()
    for call in ("tp_mul_c128(", "tp_div_c128(", "tp_exp_c64(", "tp_max_c128(", "tp_lt_c128("):
        assert call in source, call
