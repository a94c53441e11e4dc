"""Accumulators, identities and OpenMP reduction clauses for reduction kernels."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .c_ops import C_TYPE, TAG, render_literal, unsigned_work_type


def accumulator_type(combiner: str, dt) -> str:
    if combiner == "sum" and dtypes.is_float(dt):
        return "double"          # float32 sums accumulate in double: at least NumPy's accuracy
    if combiner in ("sum", "prod") and dtypes.is_int(dt):
        return unsigned_work_type(dt)
    return C_TYPE[dt]


def reduction_init(combiner: str, dt) -> str:
    if combiner in ("sum",):
        return "0"
    if combiner == "prod":
        return "1"
    if combiner == "and":
        return "true"
    if combiner == "or":
        return "false"
    big = combiner == "min"
    if dtypes.is_float(dt):
        return f"{'' if big else '-'}INFINITY"
    info = np.iinfo(dt)
    return render_literal(info.max if big else info.min, dt)


def reduction_update(combiner: str, dt, acc: str, v: str) -> str:
    if combiner == "sum":
        cast = accumulator_type(combiner, dt)
        return f"{acc} += ({cast}){v};"
    if combiner == "prod":
        return f"{acc} *= ({accumulator_type(combiner, dt)}){v};"
    if combiner == "and":
        return f"{acc} = {acc} && {v};"
    if combiner == "or":
        return f"{acc} = {acc} || {v};"
    if dtypes.is_float(dt):
        return f"{acc} = tp_{combiner}_{TAG[dt]}({acc}, {v});"
    op = ">" if combiner == "max" else "<"
    return f"{acc} = {v} {op} {acc} ? {v} : {acc};"


def omp_reduction_clause(combiner: str, dt) -> str:
    if combiner in ("sum", "prod", "and", "or"):
        return {"sum": "+", "prod": "*", "and": "&&", "or": "||"}[combiner]
    if dtypes.is_float(dt):
        return f"tp_{combiner}_{TAG[dt]}"      # declared with `omp declare reduction`
    return combiner
