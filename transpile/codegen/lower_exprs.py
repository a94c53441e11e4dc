"""The expression and kernel builders every lowering module shares (lower.py, its control
flow, updates, helpers and loop interchange). They sit underneath all of them and import none,
so the lowering modules form no import circle (tests/test_layering.py)."""
from __future__ import annotations

import os
import warnings

import numpy as np

from .kernel_ir import Affine, Buffer, Expr, LoopKernel, linearize

I64 = np.dtype(np.int64)


def op_expr(name, operands, loop, out_dtype, source=None) -> Expr:
    return Expr("op", (name, tuple(operands), tuple(np.dtype(d) for d in loop)),
                np.dtype(out_dtype), source)


def cast(e: Expr, dtype, source, force=False) -> Expr:
    if e.dtype == dtype:
        return e
    if e.kind == "lit":
        return literal_expr(e.args[0], dtype)   # weak literals take their partner's dtype
    return Expr("cast", (e,), np.dtype(dtype), source)


def short_source(source) -> str:
    """`file.py:12`: where a kernel came from, for its comment (never the full path)."""
    return f"{os.path.basename(source.filename)}:{source.lineno}"


def literal_expr(value, dtype) -> Expr:
    """A literal converted to `dtype` as NumPy converts it (-1 -> uint64 wraps, 1e39 ->
    float32 is inf): the value node holds the converted number, never the Python one.
    The exact bits are part of the node's identity: 0.0 and -0.0 compare equal in Python
    but must not be shared as one value."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)   # keeps the real part
        converted = np.asarray(value).astype(dtype)
    return Expr("lit", (converted.item(), converted.tobytes()), np.dtype(dtype))


def clamp_expr(e: Expr, lo: int, hi: int) -> Expr:
    """min(max(e, lo), hi) in int64, for clamping traced indices as JAX does. An unsigned
    index is first clamped to `hi` in its own type: cast to int64 first, 2**64 - 1 would
    become -1 and clamp to `lo`."""
    if e.dtype.kind == "u" and hi >= 0:
        u = np.dtype(np.uint64)
        e = op_expr("min", [cast(e, u, None), literal_expr(hi, u)], (u, u), u)
    e = cast(e, I64, None)
    lower = op_expr("max", [e, literal_expr(lo, I64)], (I64, I64), I64)
    return op_expr("min", [lower, literal_expr(hi, I64)], (I64, I64), I64)


def clamped_starts(low, eqn, operand_shape, sizes):
    """The start indices of a dynamic slice or update (its last inputs), each clamped so
    that the window stays inside `operand_shape`, as JAX clamps them."""
    return [clamp_expr(low.scalar(s), 0, d - n)
            for s, d, n in zip(eqn.inputs[-len(operand_shape):], operand_shape, sizes)]


def copy_kernel(dst: Buffer, src: Buffer, why: str) -> LoopKernel:
    n = len(dst.shape)
    idx = tuple(Affine.var(d, n) for d in range(n))
    flat = linearize(idx, dst.shape, n)
    return LoopKernel(dst.shape, dst, flat, Expr("load", (src, flat), src.dtype),
                      f"{dst.name} = {src.name}: {why}")
