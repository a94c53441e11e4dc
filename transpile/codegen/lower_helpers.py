"""Lowering of the primitives that call a run-time helper over whole buffers (one table,
keyed by primitive): scatters (runtime/include/tp_scatter.h) and dense factorizations
(runtime/include/tp_linalg.h; eigh and svd in tp_spectral.h). The schedule gives every
operand a contiguous buffer.
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..rules.fourier import SCALES
from .kernel_ir import Affine, Expr, HelperKernel, LoopKernel, linearize

I64 = np.dtype(np.int64)
_SCATTER_MODES = ("set", "add", "mul", "min", "max")


def _scatter(low, eqn, buf, comment):
    """A copy of the operand into the result (explicit, so that buffer assignment may later
    write in place when the operand is dead), then the updates applied serially in order."""
    x, indices, updates = eqn.inputs
    shape, n = buf.shape, len(buf.shape)
    idx = tuple(Affine.var(d, n) for d in range(n))
    copy = LoopKernel(shape, buf, linearize(idx, shape, n), low.value_at(x, idx, n),
                      f"{comment}: copy of the operand (the input is never mutated)")
    mode = eqn.params["mode"]
    assert mode in _SCATTER_MODES
    if dtypes.is_complex(buf.dtype) and mode in ("min", "max"):
        raise NotImplementedError(f".at[...].{mode} on {buf.dtype} has no C rendering (NumPy "
                                  "orders complex numbers lexicographically); use "
                                  "backend='interpret'")
    positions, widen = _int64_positions(low, indices, comment)
    call = HelperKernel(f"scatter_{mode}", buf.dtype,
                        [positions, low.buffers[updates]], [buf],
                        (math.prod(indices.aval.shape), buf.size),
                        f"{comment}: {mode} at data-dependent positions, in order")
    return [copy, *widen, call]


def _int64_positions(low, indices, comment):
    """The scatter helpers read int64 positions; JAX's dtype rules make int32 ones, which
    are widened into a temporary first (passing them as they are would read past them).
    (buffer, kernels that fill it)."""
    if indices.aval.dtype == I64:
        return low.buffers[indices], []
    shape = indices.aval.shape
    n = len(shape)
    idx = tuple(Affine.var(d, n) for d in range(n))
    wide = low.builder.temp((math.prod(shape),), I64, "positions")
    value = Expr("cast", (low.value_at(indices, idx, n),), I64)
    return wide, [LoopKernel(shape, wide, linearize(idx, shape, n), value,
                             f"{comment}: positions widened to int64")]


def _square(eqn):
    *batch, m, n = eqn.inputs[0].aval.shape
    return math.prod(batch), m, n


def _scratch(low, name, dtype, batch, m, n) -> list:
    """Working space of each helper: a copy of each matrix (and LU's pivots, QR's taus)."""
    if name in ("linalg_solve", "linalg_det", "linalg_slogdet"):
        return [low.builder.temp((batch * m * n,), dtype, "scratch"),
                low.builder.temp((batch * m,), I64, "pivots")]
    if name in ("qr_q", "qr_r"):
        return [low.builder.temp((batch * (m * n + min(m, n)),), dtype, "scratch")]
    if name == "eigh":      # the matrix, and tp_se_syevd's 4 n (tp_symmetric_eigen_impl.h)
        return [low.builder.temp((batch * (n * n + 4 * n),), dtype, "scratch")]
    if name == "svd":       # TP_SVD_WORK in tp_spectral.h: LAPACK's route up to order 25
        big, small = max(m, n), min(m, n)
        per = big * big + big * small + 3 * small * small + 12 * small if small <= 25 else \
            big * big + small * small
        return [low.builder.temp((batch * per,), dtype, "scratch")]
    return []


def _factorization(operation):
    def lower(low, eqn, buf, comment):
        batch, m, n = _square(eqn)
        reads = [low.buffers[a] for a in eqn.inputs]
        scratch = _scratch(low, eqn.prim.name, reads[0].dtype, batch, m, n)
        scalars = (batch, m, n)
        if eqn.prim.name == "linalg_solve":
            scalars += (eqn.inputs[1].aval.shape[-1],)
        if eqn.prim.name in ("qr_q", "qr_r"):
            scalars += (int(eqn.params["complete"]),)
        if eqn.prim.name == "svd":
            scalars += (int(eqn.params["full_matrices"]), int(eqn.params["compute_uv"]))
        # Each matrix is an item (a device thread each on CUDA).
        return [HelperKernel(operation, reads[0].dtype, reads, [buf] + scratch, scalars,
                             comment, items=batch)]
    return lower


def _fft(low, eqn, buf, comment):
    """One call of tp_fft.h: the operand as (outer, length, inner) around the axis."""
    (x,) = eqn.inputs
    fft_type, length, axis = (eqn.params[k] for k in ("fft_type", "length", "axis"))
    complex_dtype = x.aval.dtype if fft_type != "rfft" else buf.dtype
    kind = {"fft": "c2c", "ifft": "c2c", "rfft": "r2c", "irfft": "c2r"}[fft_type]
    shape = x.aval.shape
    scalars = (math.prod(shape[:axis]), length, math.prod(shape[axis + 1:]))
    scalars += (int(fft_type == "ifft"),) if kind == "c2c" else ()
    scalars += (SCALES[eqn.params["scale"]],)
    return [HelperKernel(f"fft_{kind}", complex_dtype, [low.buffers[x]], [buf], scalars,
                         comment)]


def _conv(low, eqn, buf, comment):
    """One call of tp_conv.h: the operands' shapes, then each spatial axis' parameters."""
    lhs, rhs = eqn.inputs
    p = eqn.params
    scalars = (*lhs.aval.shape, *rhs.aval.shape, *buf.shape[1:4], *p["window_strides"],
               *(lo for lo, _ in p["padding"]), *p["lhs_dilation"], *p["rhs_dilation"],
               p["feature_group_count"])
    return [HelperKernel("conv", buf.dtype, [low.buffers[lhs], low.buffers[rhs]], [buf],
                         scalars, comment)]


def _eig(low, eqn, buf, comment):
    """One call of tp_eig.h over the batch, with 6 n^2 + 4 n doubles of work per matrix."""
    (a,) = eqn.inputs
    batch, _, n = _square(eqn)
    work = low.builder.temp((batch * (6 * n * n + 4 * n),), np.dtype(np.float64), "work")
    return [HelperKernel("eig", a.aval.dtype, [low.buffers[a]], [buf, work], (batch, n),
                         comment, items=batch)]


HELPER_LOWERINGS = {
    "scatter": _scatter,
    "linalg_solve": _factorization("solve"),
    "linalg_det": _factorization("det"),
    "linalg_slogdet": _factorization("slogdet"),
    "cholesky": _factorization("cholesky"),
    "qr_q": _factorization("qr_q"),
    "qr_r": _factorization("qr_r"),
    "eigh": _factorization("eigh"),                         # LAPACK's xSYEVD route
    "svd": _factorization("svd"),
    "fft": _fft,                                            # Stockham / Bluestein
    "conv": _conv,                                          # direct, channels last
    "eig": _eig,                                            # Hessenberg QR
}
