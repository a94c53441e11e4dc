"""Reference semantics: each primitive evaluated on NumPy arrays.

This table is both the eager path (tnp functions called outside `jit`) and the
`interpret` backend that the test suite uses as its reference.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from ..core import aval_of, register_eager_evaluator
from ..eager_array import as_weak, eager
from ..ir import Literal
from ..primitives import ELEMENTWISE_UFUNC
from .abstract import abstract_rules, elementwise_dtypes
from .effects import debug_print_impl
from .convolution import conv_impl
from .fourier import fft_impl
from .eig import eig_impl
from .special import SPECIAL_IMPLS

impl_rules: dict[str, callable] = {}


def _ufunc_rule(name: str):
    ufunc = getattr(np, ELEMENTWISE_UFUNC[name])

    def rule(avals, *args):
        out = abstract_rules[name](*avals)
        loop_dtypes, _ = elementwise_dtypes(name, avals)
        # Cast to the loop dtypes first: a weakly typed value must compute at its partner's
        # precision even when it arrives here as a float64 NumPy scalar.
        with np.errstate(all="ignore"):   # a weak 1e39 with float32 is inf, silently as in C
            operands = [np.asarray(a).astype(dt, copy=False) for a, dt in zip(args, loop_dtypes)]
            result = ufunc(*operands)
        return np.asarray(result, dtype=out.dtype) if np.ndim(result) else out.dtype.type(result)
    return rule


for _name in ELEMENTWISE_UFUNC:
    impl_rules[_name] = _ufunc_rule(_name)


def _integer_power_rule():
    ufunc_rule = impl_rules["pow"]

    def pow_impl(avals, x, y):
        # NumPy raises on negative integer exponents; the compiled code defines them as
        # JAX does (1 / x**-y truncated), and so must the reference.
        out_dtype = abstract_rules["pow"](*avals).dtype
        if dtypes.is_int(out_dtype):
            with np.errstate(over="ignore"):   # the exponent as the loop sees it (wrapped)
                y_loop = np.asarray(y).astype(out_dtype)
            if np.any(y_loop < 0):
                return _int_pow_with_negative_exponents(out_dtype, x, y_loop)
        return ufunc_rule(avals, x, y)
    return pow_impl


def _int_pow_with_negative_exponents(out_dtype, x, y):
    xb, yb = np.broadcast_arrays(np.asarray(x, out_dtype), np.asarray(y, out_dtype))
    safe = np.where(yb < 0, 0, yb)
    with np.errstate(all="ignore"):
        positive = np.power(xb, safe)
    neg = np.where(xb == 1, 1, np.where(xb == -1, np.where(yb % 2 == 0, 1, -1), 0))
    return np.where(yb < 0, neg, positive).astype(out_dtype)


impl_rules["pow"] = _integer_power_rule()
impl_rules.update(SPECIAL_IMPLS)
impl_rules["debug_print"] = debug_print_impl
impl_rules["real"] = lambda avals, x: np.real(np.asarray(x)).copy()
impl_rules["imag"] = lambda avals, x: np.imag(np.asarray(x)).copy()


def bitcast_convert_type_impl(avals, x, *, new_dtype):
    return np.array(x, avals[0].dtype).view(new_dtype)     # a copy, 0-d stays 0-d


impl_rules["bitcast_convert_type"] = bitcast_convert_type_impl


def select_impl(avals, pred, on_true, on_false):
    out = abstract_rules["select"](*avals)
    # Convert each branch to the result dtype first: np.where would promote uint64 with
    # int64 to float64 and lose precision.
    with np.errstate(all="ignore"):
        on_true, on_false = (np.asarray(v).astype(out.dtype) for v in (on_true, on_false))
    return np.where(pred, on_true, on_false)


def convert_element_type_impl(avals, x, *, new_dtype, weak_type=False):
    # NumPy warns on NaN/inf/out-of-range float->int casts; the reference stays silent.
    # Complex -> real keeps the real part; the tnp/lax wrappers warn once, at trace time.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return np.asarray(x).astype(dtypes.canonicalize(new_dtype))   # as abstract: JAX narrows


def broadcast_in_dim_impl(avals, x, *, shape, broadcast_dimensions):
    x = np.asarray(x)
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = x.shape[i]
    return np.broadcast_to(x.reshape(expanded), shape).copy()


def reshape_impl(avals, x, *, new_sizes):
    return np.reshape(np.asarray(x), new_sizes)


def transpose_impl(avals, x, *, permutation):
    return np.transpose(np.asarray(x), permutation)


def slice_impl(avals, x, *, start_indices, limit_indices, strides):
    return np.asarray(x)[tuple(slice(a, b, s) for a, b, s in zip(start_indices, limit_indices,
                                                                 strides))]


def rev_impl(avals, x, *, dimensions):
    return np.flip(np.asarray(x), dimensions) if dimensions else np.asarray(x)


def concatenate_impl(avals, *xs, dimension):
    out = abstract_rules["concatenate"](*avals, dimension=dimension)
    return np.concatenate([np.asarray(x, out.dtype) for x in xs], axis=dimension)


def iota_impl(avals, *, dtype, shape, dimension):
    idx = np.arange(shape[dimension], dtype=dtypes.canonicalize(dtype))
    view = [1] * len(shape)
    view[dimension] = shape[dimension]
    return np.broadcast_to(idx.reshape(view), shape).copy()


def _reduction_impl(np_fn):
    def rule(avals, x, *, axes):
        x = np.asarray(x)
        with np.errstate(all="ignore"):
            return np.asarray(np_fn(_accumulable(x), axis=tuple(axes)), dtype=x.dtype)
    return rule


def _accumulable(x: np.ndarray) -> np.ndarray:
    """What a reduction of x accumulates in eagerly, as compiled code does (passes/
    half_float.py): float32 for bfloat16 (ml_dtypes would add in bfloat16) and, under JAX's
    rules, for float16 too; NumPy's own float16 sums stay NumPy's under its rules."""
    if dtypes.is_bfloat16(x.dtype) or (x.dtype == np.float16 and dtypes.config.jax_rules()):
        return x.astype(np.float32)
    return x


impl_rules.update({
    "reduce_sum": _reduction_impl(np.sum), "reduce_prod": _reduction_impl(np.prod),
    "reduce_max": _reduction_impl(np.max), "reduce_min": _reduction_impl(np.min),
    "reduce_and": _reduction_impl(np.all), "reduce_or": _reduction_impl(np.any),
})


def argmax_impl(avals, x, *, axis, index_dtype):
    return np.asarray(np.argmax(np.asarray(x), axis=axis), dtype=dtypes.canonicalize(index_dtype))


def argmin_impl(avals, x, *, axis, index_dtype):
    return np.asarray(np.argmin(np.asarray(x), axis=axis), dtype=dtypes.canonicalize(index_dtype))


def dot_general_impl(avals, lhs, rhs):
    out = abstract_rules["dot_general"](*avals)
    with np.errstate(all="ignore"):
        # NumPy multiplies ml_dtypes' bfloat16 in float32 and returns float32: round back
        return np.asarray(np.matmul(np.asarray(lhs, out.dtype), np.asarray(rhs, out.dtype)),
                          out.dtype)


for _fn in (select_impl, convert_element_type_impl, broadcast_in_dim_impl, reshape_impl,
            transpose_impl, slice_impl, rev_impl, concatenate_impl, iota_impl, argmax_impl,
            argmin_impl, dot_general_impl):
    impl_rules[_fn.__name__[:-len("_impl")]] = _fn


def eager_apply(prim, args, params):
    """Run a primitive on concrete values (outside any trace). Array results are EagerArrays
    (views, no copy), so that `.at` works on them as on traced values."""
    avals = [aval_of(a) for a in args]
    out_avals = abstract_rules[prim.name](*avals, **params)   # the same errors as under jit
    out = eager(impl_rules[prim.name](avals, *args, **params))
    return _as_abstract_values_say(out, out_avals) if dtypes.config._token else out


def _as_abstract_values_say(out, out_avals):
    """Under JAX's rules, eager results as their abstract values say: of the aval's dtype
    (NumPy computes `real` of a Python complex in float64, JAX without x64 in float32), and
    WeakEagerArrays where the aval is weakly typed (an operation on Python scalars or weak
    values), as JAX's eager results carry their weak types."""
    if isinstance(out, (list, tuple)):
        avals = out_avals if isinstance(out_avals, (list, tuple)) else [out_avals] * len(out)
        return type(out)(_as_abstract_values_say(o, a) for o, a in zip(out, avals))
    if not isinstance(out, np.ndarray) or not hasattr(out_avals, "weak_type"):
        return out
    if out.dtype != out_avals.dtype:
        out = eager(out.astype(out_avals.dtype))
    return as_weak(out) if out_avals.weak_type else out


# -- dynamic indexing: start indices are clamped so the window fits (as in JAX) -------------

def clamp_starts(starts, shape, sizes):
    return tuple(int(min(max(int(s), 0), d - n)) for s, d, n in zip(starts, shape, sizes))


def dynamic_slice_impl(avals, operand, *starts, slice_sizes):
    operand = np.asarray(operand)
    lo = clamp_starts(starts, operand.shape, slice_sizes)
    return operand[tuple(slice(a, a + n) for a, n in zip(lo, slice_sizes))].copy()


def dynamic_update_slice_impl(avals, operand, update, *starts):
    out = np.array(operand, copy=True)
    update = np.asarray(update)
    lo = clamp_starts(starts, out.shape, update.shape)
    out[tuple(slice(a, a + n) for a, n in zip(lo, update.shape))] = update
    return out


def _sortable(x: np.ndarray) -> np.ndarray:
    """NumPy sorts NaN last only for its own float types: bfloat16 (ml_dtypes) compares NaN
    as unordered and leaves it anywhere, so it sorts through float32 (exact, order-keeping)."""
    return x.astype(np.float32) if dtypes.is_bfloat16(x.dtype) else x


def sort_impl(avals, operand):
    x = np.asarray(operand)
    order = np.argsort(_sortable(x), axis=-1, kind="stable")
    return np.take_along_axis(x, order, axis=-1)


def argsort_impl(avals, operand):
    return np.argsort(_sortable(np.asarray(operand)), axis=-1, kind="stable").astype(np.int64)


def gather_impl(avals, operand, indices, *, axis):
    operand, n = np.asarray(operand), avals[0].shape[axis]
    idx = np.asarray(indices).astype(np.int64)
    idx = np.clip(np.where(idx < 0, idx + n, idx), 0, max(n - 1, 0))   # clamped, as in JAX
    return np.take(operand, idx, axis=axis)


_SCATTER_UFUNC = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}


def scatter_impl(avals, operand, indices, updates, *, mode):
    # A C-ordered copy, so that `flat` is a view of it: the copy of a transposed operand
    # would keep its Fortran order, and reshaping that would write into a second copy.
    out = np.array(operand, copy=True, order="C")
    flat = out.reshape(-1)
    idx, upd = np.asarray(indices).reshape(-1), np.asarray(updates).reshape(-1)
    keep = (idx >= 0) & (idx < flat.size)
    idx, upd = idx[keep], upd[keep]
    if mode == "set":
        # The last of duplicate positions wins, as in the compiled serial loop.
        last = idx.size - 1 - np.unique(idx[::-1], return_index=True)[1]
        flat[idx[last]] = upd[last]
    else:
        _SCATTER_UFUNC[mode].at(flat, idx, upd)
    return out


# -- dense linear algebra: JAX's results under jit (NaN, no LinAlgError) ------------------

def _per_matrix(fn, a, *rest):
    """fn over the batch; a matrix that NumPy's LAPACK rejects gives NaNs, as JAX does."""
    a = np.asarray(a)
    with np.errstate(all="ignore"):
        try:
            return fn(a, *rest)
        except np.linalg.LinAlgError:
            pass
        batch = a.shape[:-2]
        flat = [x.reshape((-1,) + x.shape[len(batch):]) for x in (a,) + rest]
        outs = []
        for parts in zip(*flat):
            try:
                outs.append(fn(*parts))
            except np.linalg.LinAlgError:
                outs.append(np.full_like(fn(np.eye(len(parts[0]), dtype=a.dtype), *parts[1:]),
                                         np.nan))
        return np.stack(outs).reshape(batch + outs[0].shape) if outs else fn(a, *rest)


def linalg_solve_impl(avals, a, b):
    return _per_matrix(np.linalg.solve, a, np.asarray(b)).astype(avals[0].dtype)


def linalg_det_impl(avals, a):
    with np.errstate(all="ignore"):
        return np.asarray(np.linalg.det(np.asarray(a))).astype(avals[0].dtype)


def linalg_slogdet_impl(avals, a):
    with np.errstate(all="ignore"):
        sign, logdet = np.linalg.slogdet(np.asarray(a))
    return np.stack([sign, logdet], axis=-1).astype(avals[0].dtype)


def cholesky_impl(avals, a):
    return _per_matrix(np.linalg.cholesky, a).astype(avals[0].dtype)


def qr_q_impl(avals, a, *, complete):
    return np.linalg.qr(np.asarray(a), mode="complete" if complete else "reduced")[0].astype(avals[0].dtype)


def qr_r_impl(avals, a, *, complete):
    return np.linalg.qr(np.asarray(a), mode="complete" if complete else "reduced")[1].astype(avals[0].dtype)


def eigh_impl(avals, a):
    """NumPy's eigh (lower triangle: LAPACK's xSYEVD, as the compiled helper follows) packed
    as the helper's (..., n + 1, n) result."""
    a = np.asarray(a)
    with np.errstate(all="ignore"):
        try:
            w, v = np.linalg.eigh(a)
        except np.linalg.LinAlgError:
            n = a.shape[-1]
            return np.full(a.shape[:-2] + (n + 1, n), np.nan, avals[0].dtype)
    return np.concatenate([w[..., None, :], v], axis=-2).astype(avals[0].dtype)


def svd_impl(avals, a, *, full_matrices, compute_uv):
    a = np.asarray(a)
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    with np.errstate(all="ignore"):
        if not compute_uv:
            try:
                return np.linalg.svd(a, compute_uv=False).astype(avals[0].dtype)
            except np.linalg.LinAlgError:
                return np.full(batch + (min(m, n),), np.nan, a.dtype)
        try:
            u, s, vt = np.linalg.svd(a, full_matrices=full_matrices)
        except np.linalg.LinAlgError:
            from .abstract import svd_packed_size
            size = svd_packed_size(m, n, full_matrices, compute_uv)
            return np.full(batch + (size,), np.nan, a.dtype)
    parts = [x.reshape(batch + (-1,)) for x in (u, s, vt)]
    return np.concatenate(parts, axis=-1).astype(avals[0].dtype)


# -- control flow: regions run with the interpreter ------------------------------------------

def evaluate(ir, consts, args) -> list[np.ndarray]:
    """Run `ir` equation by equation through this table (the interpret backend, and the
    bodies of control flow in eager mode)."""
    env = {}

    def read(atom):
        if isinstance(atom, Literal):
            return np.asarray(atom.value, dtype=atom.aval.dtype)
        return env[atom]

    for var, value in zip(ir.constvars, consts):
        env[var] = value
    for var, value in zip(ir.invars, args):
        env[var] = np.asarray(value, dtype=var.aval.dtype)
    for eqn in ir.eqns:
        avals = [a.aval for a in eqn.inputs]
        result = impl_rules[eqn.prim.name](avals, *map(read, eqn.inputs), **eqn.params)
        results = result if len(eqn.outputs) > 1 or isinstance(result, list) else [result]
        for var, value in zip(eqn.outputs, results):
            env[var] = np.asarray(value, dtype=var.aval.dtype)
    return [np.array(read(v), dtype=v.aval.dtype) for v in ir.outvars]


def _run(ir, args):
    return evaluate(ir, [], args)


def cond_impl(avals, index, *operands, branches):
    i = min(max(int(index), 0), len(branches) - 1)
    return _run(branches[i], operands)


def while_impl(avals, *inputs, cond, body, n_carry):
    carry, captured = list(inputs[:n_carry]), list(inputs[n_carry:])
    while bool(_run(cond, carry + captured)[0]):
        carry = _run(body, carry + captured)
    return carry


def for_loop_impl(avals, lower, upper, *inputs, body, n_carry):
    carry, captured = list(inputs[:n_carry]), list(inputs[n_carry:])
    index_dtype = body.invars[0].aval.dtype
    for i in range(int(lower), int(upper)):
        carry = _run(body, [np.asarray(i, index_dtype)] + carry + captured)
    return carry


def scan_impl(avals, *inputs, body, n_carry, n_xs, length, reverse):
    carry = list(inputs[:n_carry])
    xs, captured = inputs[n_carry:n_carry + n_xs], list(inputs[n_carry + n_xs:])
    ys = [[] for _ in body.outvars[n_carry:]]
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        out = _run(body, carry + [np.asarray(x)[i] for x in xs] + captured)
        carry = out[:n_carry]
        for acc, y in zip(ys, out[n_carry:]):
            acc.append(y)
    stacked = []
    for acc, var in zip(ys, body.outvars[n_carry:]):
        if reverse:
            acc.reverse()
        stacked.append(np.stack(acc) if acc else np.zeros((0,) + var.aval.shape, var.aval.dtype))
    return carry + stacked


for _fn in (dynamic_slice_impl, dynamic_update_slice_impl, gather_impl, sort_impl, argsort_impl,
            scatter_impl, linalg_solve_impl, linalg_det_impl, linalg_slogdet_impl, cholesky_impl,
            qr_q_impl, qr_r_impl, eigh_impl, svd_impl,
            cond_impl, for_loop_impl, scan_impl):
    impl_rules[_fn.__name__[:-len("_impl")]] = _fn
impl_rules["while"] = while_impl
impl_rules["fft"] = fft_impl
impl_rules["eig"] = eig_impl
impl_rules["conv"] = conv_impl



# -- differentiation markers: their values (the interpreter meets them only in IR printed or
# run before a transformation replaced them) ---------------------------------------------------

def stop_gradient_impl(avals, x):
    return np.array(x, copy=True)


def custom_jvp_call_impl(avals, *args, call, rule, n_args):
    return _run(call, args)


def custom_vjp_call_impl(avals, *args, call, fwd, bwd, n_args, remat=False):
    return _run(call, args)


def custom_vjp_lin_impl(avals, *args, bwd, out_avals, n_residuals, forward=None):
    if forward is not None:          # a checkpoint's linear part: its body's JVP
        return forward(list(args[:n_residuals]), list(args[n_residuals:]))
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function: "
                    "differentiate it in reverse mode (grad, vjp, jacrev) instead")


for _fn in (stop_gradient_impl, custom_jvp_call_impl, custom_vjp_call_impl, custom_vjp_lin_impl):
    impl_rules[_fn.__name__[:-len("_impl")]] = _fn

register_eager_evaluator(eager_apply)
