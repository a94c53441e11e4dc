"""Accumulators, identities and OpenMP reduction clauses for reduction kernels."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .c_ops import C_TYPE, TAG, render_cast, render_literal, unsigned_work_type

# Complex sums accumulate in complex128 (as float32 sums do in double); products, max and min
# (NumPy's lexicographic order, tp_complex.h) in their own dtype. argmax/argmin are not
# compiled for complex. The helper each combiner folds with:
_COMPLEX_COMBINERS = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}


def _check_complex(combiner: str, dt) -> None:
    if dtypes.is_complex(dt) and combiner not in _COMPLEX_COMBINERS:
        raise NotImplementedError(
            f"reduction '{combiner}' on {np.dtype(dt)} has no C rendering (complex numbers "
            "are ordered lexicographically by NumPy); use backend='interpret' or reduce the "
            ".real and .imag parts")


def accumulator_dtype(combiner: str, dt):
    """The dtype a complex accumulator holds (None: not complex)."""
    if not dtypes.is_complex(dt):
        return None
    _check_complex(combiner, dt)
    return dtypes.complex128 if combiner == "sum" else np.dtype(dt)


def accumulator_type(combiner: str, dt) -> str:
    _check_complex(combiner, dt)
    if dtypes.is_complex(dt):
        return C_TYPE[accumulator_dtype(combiner, dt)]
    if combiner == "sum" and dtypes.is_float(dt):
        return "double"          # float32 sums accumulate in double: at least NumPy's accuracy
    if combiner in ("sum", "prod") and dtypes.is_int(dt):
        return unsigned_work_type(dt)
    if combiner in ("max", "min") and dtypes.is_int(dt) and np.dtype(dt).itemsize < 4:
        # gcc 12 -O3 vectorises a uint8/uint16 max/min reduction of `c ? 1 : x` wrongly
        # (the identity comes out: fuzz seed 540293, tests/test_narrow_int_reductions.py);
        # a 32-bit accumulator is exact and compiles correctly.
        return "int32_t" if np.dtype(dt).kind == "i" else "uint32_t"
    return C_TYPE[dt]


def reduction_init(combiner: str, dt) -> str:
    if dtypes.is_complex(dt):
        # max/min: the least (greatest) value in the lexicographic order, which maximum
        # (minimum) replaces by the first element, NaN or not
        identity = {"sum": 0, "prod": 1, "max": complex(-np.inf, -np.inf),
                    "min": complex(np.inf, np.inf)}[combiner]
        return render_literal(identity, accumulator_dtype(combiner, dt))
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
    acc_dt = accumulator_dtype(combiner, dt)
    if acc_dt is not None:
        op = _COMPLEX_COMBINERS[combiner]
        return f"{acc} = tp_{op}_{TAG[acc_dt]}({acc}, {render_cast(v, np.dtype(dt), acc_dt)});"
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


def accumulator_result(combiner: str, dt, acc: str) -> str:
    """The accumulator converted back to the result dtype `dt`."""
    acc_dt = accumulator_dtype(combiner, dt)
    if acc_dt is not None:
        return render_cast(acc, acc_dt, np.dtype(dt))
    return f"({C_TYPE[dt]}){acc}"


def declared_reduction(name: str, combiner: str, dt) -> str:
    """The `omp declare reduction` of a reduction clause that names a tp_ helper (complex
    accumulators only: float max/min use the built-in clause, see NAN_SEEN)."""
    acc_dt = accumulator_dtype(combiner, dt)
    t, op = C_TYPE[acc_dt], _COMPLEX_COMBINERS[combiner]
    return (f"#pragma omp declare reduction({name} : {t} : omp_out = tp_{op}_{TAG[acc_dt]}"
            f"(omp_out, omp_in)) initializer(omp_priv = {reduction_init(combiner, dt)})")


# A float max/min under a reduction clause: OpenMP's built-in max/min, with NaNs counted
# aside. The clause combines lanes and threads out of order anyway, so only the value can be
# kept, and the built-in operators keep it for every input but NaN (which they may drop) and
# zeros of either sign (equal to them): a row with a NaN or a zero result is folded again in
# order by one serial pass (c_render's `_in_order_pass`). An `omp declare reduction` over
# tp_max_f32 computed the same values, but gcc compiled it slowly and into slow code:
# softmax's row max took 50 ms of cc1 time (the built-in clause 15 ms) and ran 5x slower
# (one thread, 32768 rows of 128 f32: 1.6 against 0.32 ms).
NAN_SEEN = "any_nan"


def uses_builtin_extreme(combiner: str, dt) -> bool:
    """Whether a reduction clause of `combiner` on `dt` is OpenMP's max/min with a NaN flag."""
    return combiner in ("max", "min") and dtypes.is_float(dt) and not dtypes.is_complex(dt)


def extreme_update(combiner: str, acc: str, v: str) -> str:
    """The update of a float max/min accumulated under `reduction(max|min:acc)`: the value,
    and whether a NaN went by (NaN compares false, so it never replaces `acc` here)."""
    op = ">" if combiner == "max" else "<"
    return f"{acc} = {v} {op} {acc} ? {v} : {acc}; {NAN_SEEN} |= {v} != {v};"


def omp_reduction_clause(combiner: str, dt) -> str:
    if dtypes.is_complex(dt):
        return f"tp_{combiner}_{TAG[accumulator_dtype(combiner, dt)]}"   # declared, as below
    if combiner in ("sum", "prod", "and", "or"):
        return {"sum": "+", "prod": "*", "and": "&&", "or": "||"}[combiner]
    return combiner       # integers; floats with a NaN flag beside (see NAN_SEEN)


# A float sum laid out as "lanes" (loop_schedule: straight-line programs) is taken in one
# order along the innermost reduced loop, written out in the C (c_render._lane_sum) rather
# than left to the vectoriser: SUM_LANES lanes, lane l
# summing the terms at positions l, l + SUM_LANES, ... in order (the last n % SUM_LANES
# terms go to lanes 0, 1...), then the lanes combined by `lane_tree`. The same bits on every
# compiler and CPU, and an order the first-call executor can reproduce exactly
# (backends/numpy_kernels.py). Eight doubles are one AVX-512 register or two AVX2 ones.
SUM_LANES = 8


def lane_tree(part: str, lanes: int = SUM_LANES) -> str:
    """The lanes' sum as a balanced tree, neighbours first: ((p0 + p1) + (p2 + p3)) + ..."""
    terms = [f"{part}[{i}]" for i in range(lanes)]
    while len(terms) > 1:
        terms = [f"({a} + {b})" for a, b in zip(terms[0::2], terms[1::2])]
    return terms[0][1:-1] if terms[0].startswith("(") else terms[0]
