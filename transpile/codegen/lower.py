"""Lowering: a simplified IR becomes a Program of kernels (loop nests).

Each materialised value (see schedule.py) gets one kernel. Its scalar body is
built by walking producers backwards from the kernel's output, carrying the
multi-index at which each value is needed: view primitives only rewrite that
index, elementwise primitives become expression nodes, and materialised values
and inputs become loads.
"""
from __future__ import annotations

import math
import os

import numpy as np

from ..ir import IR, Literal, Var
from ..primitives import ARG_REDUCTIONS, REDUCTIONS, ELEMENTWISE_UFUNC
from ..rules.abstract import elementwise_dtypes
from .kernel_ir import (Affine, Buffer, Expr, LoopKernel, MatmulKernel, Program, ReduceKernel,
                        linearize)
from .schedule import is_trivial_reshape, materialised_vars

_COMBINER = {"reduce_sum": "sum", "reduce_prod": "prod", "reduce_max": "max",
             "reduce_min": "min", "reduce_and": "and", "reduce_or": "or",
             "argmax": "argmax", "argmin": "argmin"}


# Integers are never NaN or infinite: these predicates are constants on them.
_CONSTANT_ON_INTEGERS = {"is_nan": False, "is_inf": False, "is_finite": True}


class _Lowering:
    def __init__(self, ir: IR, name: str):
        self.ir = ir
        self.name = name
        self.producers = {eqn.outputs[0]: eqn for eqn in ir.eqns}
        self.buffers: dict[Var, Buffer] = {}
        self.inputs: list[Buffer] = []
        self.temps: list[Buffer] = []
        self.outputs: list[Buffer] = []
        self.kernels: list = []
        self._memo: dict = {}

    # -- buffers ---------------------------------------------------------------------------
    def _buffer(self, var: Var, name: str, role: str) -> Buffer:
        buf = Buffer(name, var.aval.shape, var.aval.dtype, role)
        self.buffers[var] = buf
        return buf

    def declare_buffers(self, roots):
        for i, v in enumerate(self.ir.constvars):
            self.inputs.append(self._buffer(v, f"c{i}", "const"))
        for i, v in enumerate(self.ir.invars):
            if v not in self.buffers:
                self.inputs.append(self._buffer(v, f"in{i}", "input"))
        sources = []
        for atom in self.ir.outvars:
            if isinstance(atom, Literal):
                sources.append(("literal", atom.value))
            elif atom in self.buffers and self.buffers[atom].role in ("input", "const"):
                sources.append(("input", self.inputs.index(self.buffers[atom])))
            elif atom in self.buffers:      # the same value returned twice
                sources.append(("buffer", self.outputs.index(self.buffers[atom])))
            else:
                self.outputs.append(self._buffer(atom, f"out{len(self.outputs)}", "output"))
                sources.append(("buffer", len(self.outputs) - 1))
        for eqn in self.ir.eqns:
            v = eqn.outputs[0]
            if v in roots and v not in self.buffers:
                self.temps.append(self._buffer(v, f"t{len(self.temps)}", "temp"))
        return sources

    # -- scalar expressions ----------------------------------------------------------------
    def value_at(self, atom, idx: tuple[Affine, ...], nvars: int) -> Expr:
        """The scalar expression for `atom` at multi-index `idx` (memoised: IRs are DAGs)."""
        if isinstance(atom, Literal):
            return literal_expr(atom.value, atom.aval.dtype)
        key = (atom, idx, nvars)
        expr = self._memo.get(key)
        if expr is None:
            expr = self._memo[key] = self._value_at(atom, idx, nvars)
        return expr

    def _value_at(self, atom, idx, nvars) -> Expr:
        buf = self.buffers.get(atom)
        if buf is not None:
            return Expr("load", (buf.name, linearize(idx, buf.shape, nvars)), buf.dtype)
        return self.compute(atom, idx, nvars)

    def compute(self, var: Var, idx, nvars) -> Expr:
        """`var` computed from its producer (even when `var` itself has a buffer)."""
        eqn = self.producers[var]
        rule = _INDEX_RULES.get(eqn.prim.name)
        if rule is not None:
            return rule(self, eqn, idx, nvars)
        return self._elementwise(eqn, idx, nvars)

    def _elementwise(self, eqn, idx, nvars) -> Expr:
        name, out = eqn.prim.name, eqn.outputs[0].aval
        operands = [self.value_at(a, idx if a.aval.shape else (), nvars) for a in eqn.inputs]
        src = eqn.source
        if name == "select":
            pred, t, f = operands
            return Expr("select", (pred, _cast(t, out.dtype, src), _cast(f, out.dtype, src)),
                        out.dtype, src)
        if name == "convert_element_type":
            return _cast(operands[0], out.dtype, src, force=True)
        if name not in ELEMENTWISE_UFUNC:
            raise NotImplementedError(f"no lowering for primitive '{name}'")
        loop, _ = elementwise_dtypes(name, [a.aval for a in eqn.inputs])
        if name in _CONSTANT_ON_INTEGERS and not np.dtype(loop[0]).kind == "f":
            return literal_expr(_CONSTANT_ON_INTEGERS[name], out.dtype)
        cast = tuple(_cast(o, dt, src) for o, dt in zip(operands, loop))
        return Expr("op", (name, cast, tuple(loop)), out.dtype, src)

    # -- kernels ---------------------------------------------------------------------------
    def emit_kernel(self, var: Var):
        eqn, buf = self.producers[var], self.buffers[var]
        name = eqn.prim.name
        where = f" at {_short(eqn.source)}" if eqn.source else ""
        comment = f"{var.aval.str_short()} = {name}{where}"
        if name in REDUCTIONS or name in ARG_REDUCTIONS:
            self.kernels.append(self._reduce_kernel(eqn, buf, comment))
        elif name == "dot_general":
            self.kernels.append(self._matmul_kernel(eqn, buf, comment))
        elif name == "concatenate":
            self.kernels.extend(self._concat_kernels(eqn, buf, comment))
        else:
            shape = var.aval.shape
            n = len(shape)
            idx = tuple(Affine.var(d, n) for d in range(n))
            self.kernels.append(LoopKernel(shape, buf, linearize(idx, shape, n),
                                           self.compute(var, idx, n), comment))

    def _reduce_kernel(self, eqn, buf, comment):
        (x,) = eqn.inputs
        if eqn.prim.name in ARG_REDUCTIONS:
            axes = (eqn.params["axis"],)
        else:
            axes = eqn.params["axes"]
        kept = [d for d in range(x.aval.ndim) if d not in axes]
        order = kept + list(axes)            # loop vars: output dims, then reduced dims
        nvars = len(order)
        idx = [None] * x.aval.ndim
        for loop_var, dim in enumerate(order):
            idx[dim] = Affine.var(loop_var, nvars)
        body = self.value_at(x, tuple(idx), nvars)
        combiner = _COMBINER[eqn.prim.name]
        if x.aval.dtype == np.bool_:        # on booleans, max is "any" and min is "all"
            combiner = {"max": "or", "min": "and"}.get(combiner, combiner)
        return ReduceKernel(tuple(x.aval.shape[d] for d in kept),
                            tuple(x.aval.shape[d] for d in axes), buf, combiner, body, comment,
                            eqn.source)

    def _matmul_kernel(self, eqn, buf, comment):
        lhs, rhs = (self._as_buffer(a) for a in eqn.inputs)
        *batch, m, k = lhs.shape
        n = rhs.shape[-1]
        return MatmulKernel(lhs, rhs, buf, math.prod(batch), m, k, n, comment)

    def _as_buffer(self, atom) -> Buffer:
        if isinstance(atom, Literal):
            raise NotImplementedError("dot_general of a literal")
        return self.buffers[atom]

    def _concat_kernels(self, eqn, buf, comment):
        dim, offset, kernels = eqn.params["dimension"], 0, []
        out_shape = eqn.outputs[0].aval.shape
        for operand in eqn.inputs:
            shape = operand.aval.shape
            n = len(shape)
            idx = tuple(Affine.var(d, n) for d in range(n))
            store_idx = tuple(a.shift(offset) if d == dim else a for d, a in enumerate(idx))
            value = _cast(self.value_at(operand, idx, n), buf.dtype, eqn.source)
            kernels.append(LoopKernel(shape, buf, linearize(store_idx, out_shape, n), value,
                                      f"{comment} (part at offset {offset})"))
            offset += shape[dim]
        return kernels


def _cast(e: Expr, dtype, source, force=False) -> Expr:
    if e.dtype == dtype and not force:
        return e
    if e.dtype == dtype:
        return e
    if e.kind == "lit":
        return literal_expr(e.args[0], dtype)   # weak literals take their partner's dtype
    return Expr("cast", (e,), dtype, source)


def _short(source) -> str:
    return f"{os.path.basename(source.filename)}:{source.lineno}"


def literal_expr(value, dtype) -> Expr:
    # The exact bits are part of the node's identity: 0.0 and -0.0 compare equal in Python
    # but must not be shared as one value.
    return Expr("lit", (value, np.asarray(value).astype(dtype).tobytes()), dtype)


# -- index rules for the view primitives: rewrite the index, recurse into the operand ---------

def _broadcast_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    dims = eqn.params["broadcast_dimensions"]
    sub = tuple(Affine.constant(0, nvars) if x.aval.shape[i] == 1 else idx[d]
                for i, d in enumerate(dims))
    return low.value_at(x, sub, nvars)


def _transpose_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    sub = [None] * x.aval.ndim
    for out_dim, in_dim in enumerate(eqn.params["permutation"]):
        sub[in_dim] = idx[out_dim]
    return low.value_at(x, tuple(sub), nvars)


def _slice_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    p = eqn.params
    sub = tuple(a.scale(st).shift(lo) for a, lo, st in
                zip(idx, p["start_indices"], p["strides"]))
    return low.value_at(x, sub, nvars)


def _rev_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    dims = eqn.params["dimensions"]
    sub = tuple(a.scale(-1).shift(x.aval.shape[d] - 1) if d in dims else a
                for d, a in enumerate(idx))
    return low.value_at(x, sub, nvars)


def _reshape_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    old, new = x.aval.shape, eqn.params["new_sizes"]
    if is_trivial_reshape(old, new):
        kept = iter([a for a, d in zip(idx, new) if d != 1])
        sub = tuple(next(kept) if d != 1 else Affine.constant(0, nvars) for d in old)
        return low.value_at(x, sub, nvars)
    # The schedule guarantees x has a contiguous buffer: reuse the flat offset.
    buf = low.buffers[x]
    return Expr("load", (buf.name, linearize(idx, new, nvars)), buf.dtype)


def _iota_index(low, eqn, idx, nvars):
    return Expr("index", (idx[eqn.params["dimension"]],), eqn.outputs[0].aval.dtype,
                eqn.source)


_INDEX_RULES = {"broadcast_in_dim": _broadcast_index, "transpose": _transpose_index,
                "slice": _slice_index, "rev": _rev_index, "reshape": _reshape_index,
                "iota": _iota_index}


def lower(ir: IR, name: str) -> Program:
    roots = materialised_vars(ir)
    low = _Lowering(ir, name)
    sources = low.declare_buffers(roots)
    for eqn in ir.eqns:
        v = eqn.outputs[0]
        if v in roots:
            low.emit_kernel(v)
    return Program(name, low.inputs, low.outputs, low.temps, low.kernels, sources)


