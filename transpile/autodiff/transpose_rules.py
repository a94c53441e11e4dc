"""Transpose rules for the linear primitives, one per primitive: `rule(ct, args, **params)`
returns one cotangent per input (None for inputs that are not linear ones, or whose
cotangent is zero). `ct` is the output's cotangent (a list for multi-output primitives);
linear inputs arrive as `Linear(aval)` placeholders, the others as their values."""
from __future__ import annotations

import math

import numpy as np

from .. import primitives as P
from ..core import ShapedArray, bind
from . import ops


class Linear:
    """An input of a linear equation whose value is a tangent (what transposition solves
    for): only its shape and dtype are known."""
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval


def is_linear(x) -> bool:
    return isinstance(x, Linear)


transpose_rules: dict[str, callable] = {}


def transpose_rule(name: str):
    rule = transpose_rules.get(name)
    if rule is None:
        raise NotImplementedError(
            f"Transpose rule (for reverse-mode differentiation) for '{name}' not implemented: "
            f"the tangent program applies '{name}' to a tangent, which grad/vjp cannot "
            "transpose; use forward mode (jvp, jacfwd) for this function")
    return rule


def nonlinear(name: str, args):
    return NotImplementedError(
        f"reverse-mode differentiation met '{name}' applied to tangents "
        f"({sum(map(is_linear, args))} of its operands): it is not linear in them")


def _for_linear(args, *cts):
    return [ct if is_linear(a) else None for a, ct in zip(args, cts)]


def neg_transpose(ct, args):
    return [ops.neg(ct)]


def add_transpose(ct, args):
    return [ops.sum_to(ct, a.aval) if is_linear(a) else None for a in args]


def sub_transpose(ct, args):
    x, y = args
    return [ops.sum_to(ct, x.aval) if is_linear(x) else None,
            ops.sum_to(ops.neg(ct), y.aval) if is_linear(y) else None]


def mul_transpose(ct, args):
    x, y = args
    if is_linear(x) and is_linear(y):
        raise nonlinear("mul", args)
    if is_linear(x):
        return [ops.sum_to(ops.mul(ct, y), x.aval), None]
    return [None, ops.sum_to(ops.mul(x, ct), y.aval)]


def div_transpose(ct, args):
    x, y = args
    if is_linear(y):
        raise nonlinear("div", args)
    return [ops.sum_to(ops.div(ct, y), x.aval), None]


def convert_element_type_transpose(ct, args, *, new_dtype, weak_type=False):
    x, = args
    return [ops.fit_dtype(ct, x.aval)]


def select_transpose(ct, args):
    pred, a, b = args
    if is_linear(pred):
        raise nonlinear("select", args)
    zero = ops.scalar(0, ops.aval(ct).dtype)
    return [None,
            ops.sum_to(ops.select(pred, ct, zero), a.aval) if is_linear(a) else None,
            ops.sum_to(ops.select(pred, zero, ct), b.aval) if is_linear(b) else None]


def broadcast_in_dim_transpose(ct, args, *, shape, broadcast_dimensions):
    x, = args
    dims = broadcast_dimensions
    kept = [i for i, d in enumerate(dims) if not (x.aval.shape[i] == 1 and shape[d] != 1)]
    summed = [d for d in range(len(shape)) if d not in {dims[i] for i in kept}]
    out = ops.reduce_sum(ct, summed)
    order = sorted(kept, key=lambda i: dims[i])      # kept axes in the result's order
    out = ops.transpose(out, [order.index(i) for i in kept])
    return [ops.reshape(out, x.aval.shape)]


def reshape_transpose(ct, args, *, new_sizes):
    return [ops.reshape(ct, args[0].aval.shape)]


def transpose_transpose(ct, args, *, permutation):
    return [ops.transpose(ct, np.argsort(permutation).tolist())]


def rev_transpose(ct, args, *, dimensions):
    return [bind(P.rev, ct, dimensions=dimensions)]


def psum_transpose(ct, args, *, axis_name):
    # y_i = sum_j x_j over the members: each x_j's cotangent is the sum of the y_i's
    return [bind(P.psum, ct, axis_name=axis_name)]


def reduce_sum_transpose(ct, args, *, axes):
    x, = args
    kept = tuple(i for i in range(x.aval.ndim) if i not in axes)
    return [ops.broadcast_in_dim(ct, x.aval.shape, kept)]


def slice_transpose(ct, args, *, start_indices, limit_indices, strides):
    x, = args
    shape = x.aval.shape
    if all(s == 1 for s in strides):
        return [_pad_with_zeros(ct, shape, start_indices)]
    positions = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    taken = positions[tuple(slice(a, b, s) for a, b, s in
                            zip(start_indices, limit_indices, strides))]
    return [ops.scatter(ops.zeros(ShapedArray(shape, ops.aval(ct).dtype)), taken, ct, "add")]


def _pad_with_zeros(ct, shape, starts):
    """`ct` placed at `starts` in zeros of `shape`, one concatenation per padded axis."""
    dtype = ops.aval(ct).dtype
    for axis, start in enumerate(starts):
        cur = ops.aval(ct).shape
        after = shape[axis] - start - cur[axis]
        pieces = []
        for width in (start, None, after):
            if width is None:
                pieces.append(ct)
            elif width:
                pad = cur[:axis] + (width,) + cur[axis + 1:]
                pieces.append(ops.zeros(ShapedArray(pad, dtype)))
        ct = ops.concatenate(pieces, axis)
    return ct


def concatenate_transpose(ct, args, *, dimension):
    cts, start = [], 0
    full = ops.aval(ct).shape
    for a in args:
        shape = (a.aval if is_linear(a) else ops.aval(a)).shape
        stop = start + shape[dimension]
        if is_linear(a):
            lo = [0] * len(full)
            hi = list(full)
            lo[dimension], hi[dimension] = start, stop
            cts.append(ops.fit_dtype(ops.slice_(ct, lo, hi), a.aval))
        else:
            cts.append(None)
        start = stop
    return cts


def dot_general_transpose(ct, args):
    x, y = args
    if is_linear(x) and is_linear(y):
        raise nonlinear("dot_general", args)
    if is_linear(x):
        return [ops.fit_dtype(ops.matmul(ct, ops.swap_last(y)), x.aval), None]
    return [None, ops.fit_dtype(ops.matmul(ops.swap_last(x), ct), y.aval)]


def dynamic_slice_transpose(ct, args, *, slice_sizes):
    x, *starts = args
    zeros = ops.zeros(ShapedArray(x.aval.shape, ops.aval(ct).dtype))
    return [bind(P.dynamic_update_slice, zeros, ct, *starts)] + [None] * len(starts)


def dynamic_update_slice_transpose(ct, args):
    x, update, *starts = args
    ua = update.aval if is_linear(update) else ops.aval(update)
    ct_x = ct_u = None
    if is_linear(x):
        ct_x = bind(P.dynamic_update_slice, ct, ops.zeros(ShapedArray(ua.shape, ops.aval(ct).dtype)),
                    *starts)
    if is_linear(update):
        ct_u = bind(P.dynamic_slice, ct, *starts, slice_sizes=ua.shape)
    return [ct_x, ct_u] + [None] * len(starts)


def gather_transpose(ct, args, *, axis):
    """Each gathered element's cotangent added back at the (clamped) position it came from."""
    x, indices = args
    shape = x.aval.shape
    n = shape[axis]
    pre, post = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    count = ops.aval(indices).size
    grid = (pre, count, post)
    idx = ops.convert(ops.reshape(indices, (count,)), np.int64)
    idx = ops.select(ops.binary("lt", idx, 0), ops.add(idx, n), idx)
    idx = ops.binary("min", ops.binary("max", idx, ops.scalar(0, np.int64)),
                     ops.scalar(max(n - 1, 0), np.int64))
    idx = ops.broadcast_in_dim(idx, grid, (1,))
    row = ops.mul(ops.iota(np.int64, grid, 0), n)
    flat = ops.add(ops.mul(ops.add(row, idx), post), ops.iota(np.int64, grid, 2))
    zeros = ops.zeros(ShapedArray(shape, ops.aval(ct).dtype))
    return [ops.scatter(zeros, flat, ops.reshape(ct, grid), "add"), None]


def _in_range(indices, size):
    return ops.binary("and", ops.binary("ge", indices, 0), ops.binary("lt", indices, size))


def _gather_flat(ct, indices):
    size = ops.aval(ct).size
    picked = ops.gather(ops.reshape(ct, (size,)), indices, 0)
    zero = ops.scalar(0, ops.aval(ct).dtype)
    return ops.select(_in_range(indices, size), picked, zero)


def _winning_updates(indices, size):
    """Which updates a `set` scatter keeps: the last of duplicate positions, in range."""
    ia = ops.aval(indices)
    ids = ops.reshape(ops.iota(np.int64, (ia.size,), 0), ia.shape)
    owner = ops.scatter(ops.full(-1, ShapedArray((size,), np.dtype(np.int64))), indices, ids,
                        "set")
    return ops.binary("and", _in_range(indices, size),
                      ops.binary("eq", ops.gather(owner, indices, 0), ids))


def scatter_transpose(ct, args, *, mode):
    x, indices, updates = args
    size = ops.aval(ct).size
    zero = ops.scalar(0, ops.aval(ct).dtype)
    if mode == "mul":
        if is_linear(updates):
            raise nonlinear("scatter (multiply)", args)
        return [ops.scatter(ct, indices, updates, "mul"), None, None]
    if mode not in ("add", "set"):
        raise nonlinear(f"scatter ({mode})", args)
    ua = updates.aval if is_linear(updates) else ops.aval(updates)
    ct_x = ct_u = None
    if is_linear(x):
        ct_x = ct if mode == "add" else ops.scatter(
            ct, indices, ops.zeros(ShapedArray(ua.shape, ops.aval(ct).dtype)), "set")
    if is_linear(updates):
        ct_u = _gather_flat(ct, indices)
        if mode == "set":
            ct_u = ops.select(_winning_updates(indices, size), ct_u, zero)
    return [ct_x, None, ct_u]


def real_transpose(ct, args):
    """Re is real-linear: its transpose puts the cotangent in the real part (JAX's)."""
    return [ops.convert(ct, args[0].aval.dtype)]


def imag_transpose(ct, args):
    return [ops.mul(ops.convert(ct, args[0].aval.dtype), -1j)]


def conj_transpose(ct, args):
    x, = args
    if not ops.aval(ct).dtype.kind == "c":
        return [ops.fit_dtype(ct, x.aval)]
    return [ops.fit_dtype(ops.unary("conj", ct), x.aval)]


def linalg_solve_transpose(ct, args):
    a, b = args
    if is_linear(a):
        raise nonlinear("linalg_solve", args)
    return [None, bind(P.linalg_solve, ops.swap_last(a), ct)]


def custom_vjp_lin_transpose(cts, args, *, bwd, out_avals, n_residuals, forward=None):
    residuals = args[:n_residuals]
    cts = cts if isinstance(cts, list) else [cts]      # one output: given alone
    cts = [ops.instantiate(c, a) for c, a in zip(cts, out_avals)]
    return [None] * n_residuals + list(bwd(residuals, cts))


for _fn in (neg_transpose, add_transpose, sub_transpose, mul_transpose, div_transpose,
            convert_element_type_transpose, select_transpose, broadcast_in_dim_transpose,
            reshape_transpose, transpose_transpose, rev_transpose, reduce_sum_transpose,
            slice_transpose, concatenate_transpose, dot_general_transpose,
            dynamic_slice_transpose, dynamic_update_slice_transpose, gather_transpose,
            scatter_transpose, linalg_solve_transpose, custom_vjp_lin_transpose,
            real_transpose, imag_transpose, conj_transpose, psum_transpose):
    transpose_rules[_fn.__name__[:-len("_transpose")]] = _fn


def _spectral_rules():
    from .spectral_rules import conv_transpose, fft_transpose
    transpose_rules.update({"fft": fft_transpose, "conv": conv_transpose})


_spectral_rules()


def _control_flow_rules():
    from .control_flow import cond_transpose
    from .loops import scan_transpose, while_transpose
    transpose_rules.update({"cond": cond_transpose, "scan": scan_transpose,
                            "while": while_transpose, "for_loop": while_transpose})


_control_flow_rules()
