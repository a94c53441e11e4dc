"""Kernel-IR expressions evaluated with NumPy, to the bit of what the C module computes.

The first-call executor (program_executor.py) runs a lowered program while its C module is
still being built, so everything here must give exactly the bits the compiled kernel gives:
the same IEEE operations in the same order, the module's own definitions where NumPy's
differ (maximum's choice between -0.0 and +0.0; a zero max reduction's sign), wrapping
integer arithmetic. Only operations whose result does not depend on how the C compiler
schedules them are here. Transcendental functions are not NumPy's (the module's tp_expf is
not NumPy's exp): the runtime library's maps (tp_elementwise.h) compute them with the
module's own helpers. No float sum or product: the module's order is the vectoriser's. A
kernel using anything else is not run here (`unsupported`), and its program waits for the
compiler.

One table, OPS, keyed by primitive: (the dtype kinds it covers, the NumPy spelling); the
maps' operations are listed in tp_runtime.h (runtime_calls.map_spellings).
"""
from __future__ import annotations

import numpy as np

from ..codegen.c_ops import TAG
from ..codegen.c_reductions import SUM_LANES
from ..codegen.kernel_ir import Affine, Expr, children, walk
from ..runtime import runtime_calls

_FLOAT, _INT, _BOOL = "f", "iu", "b"


def _wrapping(ufunc, bool_ufunc):
    """+, -, * as the module spells them: integers wrap (NumPy's arrays do too), bools are
    | for + and & otherwise (c_ops._wrapping)."""
    def rule(a, b):
        return bool_ufunc(a, b) if a.dtype == np.bool_ else ufunc(a, b)
    return rule


def _maximum(a, b):
    """tp_maximum: NaN from either side, else a if a > b, else b (so max(-0.0, +0.0) is
    +0.0 and max(+0.0, -0.0) is -0.0, where NumPy's maximum returns its first operand)."""
    if a.dtype.kind != "f":
        return np.where(a > b, a, b)
    return np.where(b != b, b, np.where((a > b) | (a != a), a, b))


def _minimum(a, b):
    if a.dtype.kind != "f":
        return np.where(a < b, a, b)
    return np.where(b != b, b, np.where((a < b) | (a != a), a, b))


def _absolute(a):
    return a if a.dtype.kind in "ub" else np.abs(a)


def _not(a):
    return np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)


def _reciprocal(a):
    return np.divide(a.dtype.type(1), a)


# primitive -> (dtype kinds of its operands it is exact for, NumPy spelling)
OPS = {
    "add": (_FLOAT + _INT + _BOOL, _wrapping(np.add, np.logical_or)),
    "sub": (_FLOAT + _INT + _BOOL, _wrapping(np.subtract, np.logical_and)),
    "mul": (_FLOAT + _INT + _BOOL, _wrapping(np.multiply, np.logical_and)),
    "div": (_FLOAT, np.divide),
    "max": (_FLOAT + _INT, _maximum),
    "min": (_FLOAT + _INT, _minimum),
    "eq": (_FLOAT + _INT + _BOOL, np.equal),
    "ne": (_FLOAT + _INT + _BOOL, np.not_equal),
    "lt": (_FLOAT + _INT + _BOOL, np.less),
    "le": (_FLOAT + _INT + _BOOL, np.less_equal),
    "gt": (_FLOAT + _INT + _BOOL, np.greater),
    "ge": (_FLOAT + _INT + _BOOL, np.greater_equal),
    "and": (_INT + _BOOL, np.bitwise_and),
    "or": (_INT + _BOOL, np.bitwise_or),
    "xor": (_INT + _BOOL, np.bitwise_xor),
    "not": (_INT + _BOOL, _not),
    "neg": (_FLOAT + _INT, np.negative),
    "abs": (_FLOAT + _INT, _absolute),
    "sqrt": (_FLOAT, np.sqrt),               # correctly rounded in both
    "floor": (_FLOAT, np.floor),
    "ceil": (_FLOAT, np.ceil),
    "trunc": (_FLOAT, np.trunc),
    "round": (_FLOAT, np.rint),              # the module's rint: ties to even
    "is_nan": (_FLOAT, np.isnan),
    "is_inf": (_FLOAT, np.isinf),
    "is_finite": (_FLOAT, np.isfinite),
    "reciprocal": (_FLOAT, _reciprocal),
    "copysign": (_FLOAT, np.copysign),
}

# The dtypes evaluated here (no half floats, which the module computes in float32, and no
# complex numbers, whose helpers are the module's own).
DTYPES = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float32, np.float64))


def _cast_problem(src: np.dtype, dst: np.dtype) -> str | None:
    # float -> int is the module's own defined conversion (tp_cast_f64_*), not NumPy's
    if src.kind == "f" and dst.kind in "iu":
        return f"a {src} -> {dst} conversion"
    return None


def node_problem(e: Expr) -> str | None:
    """Why this node cannot be evaluated here to the module's bits, or None."""
    if np.dtype(e.dtype) not in DTYPES:
        return f"{e.dtype} values"
    if e.kind == "var":
        return "a register variable"
    if e.kind in ("load", "index") and e.args[-1 if e.kind == "index" else 1].dyn:
        return "a run-time offset"
    if e.kind == "cast":
        src = np.dtype(e.args[0].dtype)
        return f"{src} values" if src not in DTYPES else _cast_problem(src, np.dtype(e.dtype))
    if e.kind == "op":
        name, operands, loop = e.args
        kinds = OPS[name][0] if name in OPS else \
            _FLOAT if name in runtime_calls.map_spellings() else None
        if kinds is None:
            return f"the operation {name!r}"
        if any(np.dtype(d) != np.dtype(x.dtype) for d, x in zip(loop, operands)) or \
                len({np.dtype(d) for d in loop}) > 1:
            return f"{name!r} on mixed operand types"
        if any(np.dtype(d).kind not in kinds for d in loop):
            return f"{name!r} on {loop[0]}"
    return None


def uses_runtime_maps(expr: Expr) -> bool:
    """Does evaluating `expr` call the runtime library's maps (tp_elementwise.h)?"""
    maps = runtime_calls.map_spellings()
    return any(e.kind == "op" and e.args[0] in maps for e in walk(expr))


def unsupported(expr: Expr) -> str | None:
    """The first reason some node of `expr` cannot be evaluated here, or None."""
    for e in walk(expr):
        problem = node_problem(e)
        if problem is not None:
            return problem
    return None


def strided_view(flat: np.ndarray, shape: tuple, index: Affine) -> np.ndarray:
    """The elements flat[index(i)] for every i in `shape`, as a view (no copy): an affine
    index without run-time terms is a start and one stride per loop variable."""
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[index.const:], shape=shape, strides=tuple(c * item for c in index.coeffs))


def _index_values(index: Affine, shape: tuple) -> np.ndarray:
    total = np.full((1,) * len(shape), index.const, dtype=np.int64)
    for d, (c, n) in enumerate(zip(index.coeffs, shape)):
        if c:
            axis = [1] * len(shape)
            axis[d] = n
            total = total + c * np.arange(n, dtype=np.int64).reshape(axis)
    return total


def _literal(e: Expr):
    value, raw = e.args[0], e.args[1] if len(e.args) > 1 else None
    if isinstance(raw, bytes) and len(raw) == np.dtype(e.dtype).itemsize:
        return np.frombuffer(raw, dtype=e.dtype).reshape(())
    return np.asarray(value, dtype=e.dtype)


def from_row(index: Affine, start: int) -> Affine:
    """`index` for the loop nest's block starting at row `start` of its outermost loop."""
    if not start or not index.coeffs:
        return index
    return Affine(index.coeffs, index.const + index.coeffs[0] * start, index.dyn)


def evaluate(expr: Expr, shape: tuple, flat_of, runtime=None, start: int = 0) -> np.ndarray:
    """`expr` at every point of a loop nest over `shape` (broadcast to it where it does not
    vary), the outermost loop counted from `start` (a block of a larger nest); `flat_of
    (buffer)` is the buffer's memory as a flat array; `runtime` the loaded runtime library
    (RuntimeLibrary.handle), for the functions computed by its maps. Iterative, each shared
    node once (expressions are deep DAGs)."""
    values: dict[int, np.ndarray] = {}
    stack = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in values:
            continue
        if not ready:
            stack.append((node, True))
            stack.extend((c, False) for c in children(node) if id(c) not in values)
            continue
        values[id(node)] = _node_value(node, shape, flat_of, values, runtime, start)
    result = values[id(expr)]
    return result if np.shape(result) == tuple(shape) else np.broadcast_to(result, shape)


def _node_value(e: Expr, shape, flat_of, values, runtime, start) -> np.ndarray:
    kind = e.kind
    if kind == "load":
        buf, index = e.args
        return strided_view(flat_of(buf), shape, from_row(index, start))
    if kind == "lit":
        return _literal(e)
    if kind == "index":
        return _index_values(from_row(e.args[0], start), shape).astype(e.dtype)
    if kind == "cast":
        return np.asarray(values[id(e.args[0])]).astype(e.dtype)
    if kind == "select":
        p, t, f = (values[id(x)] for x in e.args)
        return np.where(p, t, f).astype(e.dtype, copy=False)
    name, operands, _ = e.args
    if name not in OPS:
        return _mapped(name, [values[id(x)] for x in operands], shape, e.dtype, runtime)
    result = OPS[name][1](*(np.asarray(values[id(x)]) for x in operands))
    return np.asarray(result).astype(e.dtype, copy=False)


def _mapped(name: str, operands, shape, dtype, runtime) -> np.ndarray:
    """A function the module computes inline, computed by the runtime library's map of the
    same spelling over contiguous copies of the operands (tp_elementwise.h)."""
    dtype = np.dtype(dtype)
    inputs = [np.ascontiguousarray(np.broadcast_to(x, shape), dtype=dtype) for x in operands]
    out = np.empty(shape, dtype)
    if out.size:
        address = runtime_calls.address
        runtime_calls.elementwise_map(runtime, name, TAG[dtype])(
            *map(address, inputs), address(out), out.size)
    return out


# -- reductions ---------------------------------------------------------------------------

def reduction_problem(combiner: str, body_dtype, out_dtype, plan) -> str | None:
    """Why a reduction cannot be run here to the module's bits, or None. `plan` is its CPU
    KernelPlan: a float sum or product is taken in the order its layout fixes, except when
    threads split the reduced loop (their partial sums combine in the runtime's order)."""
    dt, out = np.dtype(body_dtype), np.dtype(out_dtype)
    if combiner in ("and", "or"):
        return None
    if combiner in ("max", "min") and dt.kind in "fiu" and dt == out:
        return None
    if combiner in ("sum", "prod") and dt.kind in "iu" and dt == out:
        return None     # wrapping integer arithmetic: any order gives the same bits
    if combiner in ("sum", "prod") and dt.kind == "f" and plan.threads != "reduction" and \
            plan.layout in ("lanes", "in_order", "rows_outside"):
        return None
    how = " split across threads" if plan.threads == "reduction" else \
        " in the vectoriser's order" if plan.layout == "nest" else ""
    return f"a {combiner} reduction of {dt}{how}"


def reduce(combiner: str, values: np.ndarray, n_out: int, out_dtype, plan=None,
           group_shape=None) -> np.ndarray:
    """Combine `values` (output dims, then reduced dims) over its last dims: the module's
    result, bit for bit, for what `reduction_problem` accepts. `plan` and `group_shape` (the
    extents of its merged loops) say in which order the module takes a float sum."""
    rows = values.reshape(values.shape[:n_out] + (-1,))
    if combiner == "and":
        return np.all(rows, axis=-1)
    if combiner == "or":
        return np.any(rows, axis=-1)
    if rows.dtype.kind == "f" and combiner in ("sum", "prod"):
        return _float_fold(combiner, values, plan, group_shape, out_dtype)
    if combiner in ("sum", "prod"):
        with np.errstate(over="ignore"):
            fold = np.add if combiner == "sum" else np.multiply
            return fold.reduce(rows, axis=-1, dtype=out_dtype)
    return _extreme(combiner, rows)


# Up to this many terms along the folded axis, a Python loop of whole-array updates; beyond,
# one accumulate (which writes every partial result: memory the size of the terms).
_LOOPED_FOLD_MAX = 256


def _in_order(combiner: str, terms: np.ndarray, axis: int, acc_dtype) -> np.ndarray:
    """The fold along `axis` in order from the identity (0 or 1), in `acc_dtype`, as a C loop
    `acc += x` (`acc *= x`) takes it: starting from the identity gives 0 + -0.0 = +0.0 as the
    loop does; an accumulate is sequential by definition (a reduce may be pairwise)."""
    fold = np.add if combiner == "sum" else np.multiply
    identity = 0 if combiner == "sum" else 1
    n = terms.shape[axis]
    if n <= _LOOPED_FOLD_MAX:
        acc = np.full(terms.shape[:axis] + terms.shape[axis + 1:], identity, dtype=acc_dtype)
        lead = (slice(None),) * axis
        for i in range(n):
            fold(acc, terms[lead + (i,)], out=acc, casting="safe")
        return acc
    start = np.full(terms.shape[:axis] + (1,) + terms.shape[axis + 1:], identity, acc_dtype)
    chain = np.concatenate([start, terms.astype(acc_dtype, copy=False)], axis=axis)
    return fold.accumulate(chain, axis=axis).take(-1, axis=axis)


def _float_fold(combiner, values, plan, group_shape, out_dtype) -> np.ndarray:
    """A float sum or product in the module's order: in order (layouts in_order and
    rows_outside), or by SUM_LANES lanes along the innermost reduced loop (layout lanes:
    c_reductions.SUM_LANES, c_render._lane_sum). float32 sums accumulate in double, as the
    module's do."""
    out_dtype = np.dtype(out_dtype)
    acc_dtype = np.dtype(np.float64) if combiner == "sum" else values.dtype
    n_out = plan.out_loops
    grouped = values.reshape(group_shape)
    out_shape = grouped.shape[:n_out]
    if grouped.size == 0:                                 # nothing reduced: the identity
        return np.full(out_shape, 0 if combiner == "sum" else 1, dtype=out_dtype)
    if plan.layout != "lanes":
        terms = grouped.reshape(out_shape + (-1,))
        return _in_order(combiner, terms, n_out, acc_dtype).astype(out_dtype)
    n = grouped.shape[-1]
    terms = grouped.reshape(out_shape + (-1, n))          # (outputs, outer reduced, inner)
    full = n - n % SUM_LANES
    blocks = terms[..., :full].reshape(terms.shape[:-1] + (full // SUM_LANES, SUM_LANES))
    lanes = _in_order("sum", blocks, blocks.ndim - 2, acc_dtype)
    for j in range(n - full):                             # the last n % L terms
        lanes[..., j] += terms[..., full + j]
    parts = [lanes[..., i] for i in range(SUM_LANES)]
    while len(parts) > 1:                                 # c_reductions.lane_tree's order
        parts = [a + b for a, b in zip(parts[0::2], parts[1::2])]
    return _in_order("sum", parts[0], n_out, acc_dtype).astype(out_dtype)


def _extreme(combiner: str, rows: np.ndarray) -> np.ndarray:
    """max/min as the module folds it, in order from -inf (+inf) with tp_max (tp_min): the
    first NaN wins; ties go to the later element, so a zero result has the sign of the last
    zero in its row. Integers: the plain extreme (the identity where a row is empty)."""
    dt = rows.dtype
    if rows.shape[-1] == 0:
        if dt.kind == "f":
            identity = -np.inf if combiner == "max" else np.inf
        else:
            info = np.iinfo(dt)
            identity = info.min if combiner == "max" else info.max
        return np.full(rows.shape[:-1], identity, dtype=dt)
    result = (np.max if combiner == "max" else np.min)(rows, axis=-1)
    if dt.kind != "f":
        return result
    zero = result == 0
    if np.any(zero):
        is_zero = rows == 0
        last = rows.shape[-1] - 1 - np.argmax(is_zero[..., ::-1], axis=-1)
        signed = np.take_along_axis(rows, last[..., None], axis=-1)[..., 0]
        result = np.where(zero, signed, result)
    return result
