"""Transpile's results for the cases of jax_dtype_cases.py as the recorder's tokens, under the
dtype rules in force: eagerly (dtype, and weak type from the result's `.weak_type`: under JAX's
rules eager results carry theirs) and traced (dtype and weak type, from the IR's outputs)."""
from __future__ import annotations

import warnings

import numpy as np

import transpile as tp
import transpile.numpy as tnp

import jax_dtype_cases as table


def _split(kinds):
    operands = [table.operand(k) for k in kinds]
    return operands, [x for x in operands if isinstance(x, np.ndarray)]


def eager_token(call, kinds) -> str:
    operands, _ = _split(kinds)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call(tnp, *operands)
    except (TypeError, ValueError, OverflowError, NotImplementedError):
        return table.ERROR
    return table.encode(np.asarray(out).dtype, getattr(out, "weak_type", False) is True)


def traced_token(call, kinds) -> str:
    operands, arrays = _split(kinds)

    def traced(*given):
        it = iter(given)
        return call(tnp, *(next(it) if isinstance(x, np.ndarray) else x for x in operands))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lowered = tp.jit(traced, backend="interpret").lower(*arrays)
    except (TypeError, ValueError, OverflowError, NotImplementedError):
        return table.ERROR
    (out,) = lowered.ir.outvars
    return table.encode(out.aval.dtype, out.aval.weak_type)
