"""Abstract evaluation: the shape and dtype each primitive produces (one rule per primitive)."""
from __future__ import annotations

import math


from .. import dtypes
from ..core import ShapedArray
from .convolution import conv_abstract
from .fourier import fft_abstract
from .eig import eig_abstract
from ..primitives import (ARG_REDUCTIONS, COMPLEX_PARTS, ELEMENTWISE_UFUNC, REDUCTIONS,
                          SPECIAL_UNARY)

abstract_rules: dict[str, callable] = {}



def elementwise_shape(name: str, avals) -> tuple[int, ...]:
    """Elementwise inputs share one shape; 0-d inputs (scalars) broadcast implicitly."""
    shapes = {a.shape for a in avals if a.shape != ()}
    if len(shapes) > 1:
        raise ValueError(f"'{name}' needs operands of one shape (or 0-d), got "
                         + " and ".join(str(a.shape) for a in avals))
    return shapes.pop() if shapes else ()


def elementwise_dtypes(name: str, avals):
    """(input compute dtypes, result dtype) for an elementwise primitive, as NumPy decides."""
    return dtypes.ufunc_loop(ELEMENTWISE_UFUNC[name], [a.dtype for a in avals],
                             [a.weak_type for a in avals])


def _elementwise_rule(name: str):
    def rule(*avals):
        shape = elementwise_shape(name, avals)
        _, out = elementwise_dtypes(name, avals)
        weak = dtypes.ufunc_result_weak(
            ELEMENTWISE_UFUNC[name], [a.dtype for a in avals], [a.weak_type for a in avals], out)
        return ShapedArray(shape, out, weak)
    rule.__name__ = f"{name}_abstract"
    return rule


for _name in ELEMENTWISE_UFUNC:
    abstract_rules[_name] = _elementwise_rule(_name)


def _special_rule(name: str):
    def rule(x):
        if not dtypes.is_float(x.dtype):
            raise TypeError(f"lax.{name} requires a floating-point operand (float32 or "
                            f"float64), got {x.dtype}; convert it first, e.g. x.astype(float)")
        return x
    rule.__name__ = f"{name}_abstract"
    return rule


for _name in SPECIAL_UNARY:
    abstract_rules[_name] = _special_rule(_name)


def _complex_part_rule(name: str):
    def rule(x):
        if not dtypes.is_complex(x.dtype):
            raise TypeError(f"lax.{name} requires a complex operand (complex64 or complex128), "
                            f"got {x.dtype}")
        return ShapedArray(x.shape, dtypes.COMPLEX_PART[x.dtype], x.weak_type)
    rule.__name__ = f"{name}_abstract"
    return rule


for _name in COMPLEX_PARTS:
    abstract_rules[_name] = _complex_part_rule(_name)


def bitcast_convert_type_abstract(x, *, new_dtype):
    new = dtypes.canonicalize(new_dtype)
    if new.itemsize != x.dtype.itemsize or dtypes.bool_ in (new, x.dtype):
        raise TypeError(f"bitcast_convert_type: {x.dtype} and {new} differ in width (only "
                        "same-width numeric casts are supported)")
    return ShapedArray(x.shape, new)


def debug_print_abstract(*values, fmt, treedef):
    return []          # an effect: no values out


abstract_rules["bitcast_convert_type"] = bitcast_convert_type_abstract
abstract_rules["debug_print"] = debug_print_abstract
abstract_rules["eig"] = eig_abstract


def select_abstract(pred, on_true, on_false):
    if pred.dtype != dtypes.bool_:
        raise TypeError(f"select needs a boolean predicate, got {pred.dtype}")
    shape = elementwise_shape("select", (pred, on_true, on_false))
    out, weak = dtypes.promote([on_true.dtype, on_false.dtype],
                               [on_true.weak_type, on_false.weak_type])
    return ShapedArray(shape, out, weak)


def convert_element_type_abstract(x, *, new_dtype, weak_type=False):
    return ShapedArray(x.shape, dtypes.canonicalize(new_dtype), weak_type)


def broadcast_in_dim_abstract(x, *, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim or any(
            x.shape[i] not in (1, shape[d]) for i, d in enumerate(broadcast_dimensions)):
        raise ValueError(f"cannot broadcast shape {x.shape} to {shape} "
                         f"(dimensions {broadcast_dimensions})")
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


def reshape_abstract(x, *, new_sizes):
    if math.prod(new_sizes) != x.size:
        raise ValueError(f"cannot reshape array of shape {x.shape} (size {x.size}) "
                         f"into shape {tuple(new_sizes)}")
    return ShapedArray(tuple(new_sizes), x.dtype, x.weak_type)


def transpose_abstract(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ValueError(f"transpose permutation {permutation} does not match shape {x.shape}")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


def slice_abstract(x, *, start_indices, limit_indices, strides):
    shape = tuple(max(0, -(-(hi - lo) // st))
                  for lo, hi, st in zip(start_indices, limit_indices, strides))
    return ShapedArray(shape, x.dtype, x.weak_type)


def rev_abstract(x, *, dimensions):
    return x


def concatenate_abstract(*xs, dimension):
    base = xs[0].shape
    for x in xs[1:]:
        if x.ndim != len(base) or any(a != b for i, (a, b) in enumerate(zip(x.shape, base))
                                      if i != dimension):
            raise ValueError("concatenate needs equal shapes except along axis "
                             f"{dimension}, got " + ", ".join(str(x.shape) for x in xs))
    out, weak = dtypes.promote([x.dtype for x in xs], [x.weak_type for x in xs])
    shape = list(base)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(tuple(shape), out, weak)


def iota_abstract(*, dtype, shape, dimension):
    return ShapedArray(tuple(shape), dtypes.canonicalize(dtype))


def _reduction_rule(name):
    def rule(x, *, axes):
        if name in ("reduce_max", "reduce_min") and any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"zero-size array to reduction operation {name[7:]} which has "
                             "no identity")
        if name in ("reduce_and", "reduce_or") and x.dtype != dtypes.bool_:
            raise TypeError(f"{name} needs a boolean operand, got {x.dtype}")
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        return ShapedArray(shape, x.dtype, x.weak_type)
    rule.__name__ = f"{name}_abstract"
    return rule


for _name in REDUCTIONS:
    abstract_rules[_name] = _reduction_rule(_name)


def _arg_reduction_rule(name):
    def rule(x, *, axis, index_dtype):
        if x.shape[axis] == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        return ShapedArray(shape, dtypes.canonicalize(index_dtype))
    return rule


for _name in ARG_REDUCTIONS:
    abstract_rules[_name] = _arg_reduction_rule(_name)


def dot_general_abstract(lhs, rhs):
    """Canonical batched matmul: (*batch, m, k) @ (*batch, k, n) -> (*batch, m, n)."""
    if lhs.ndim != rhs.ndim or lhs.ndim < 2 or lhs.shape[:-2] != rhs.shape[:-2] \
            or lhs.shape[-1] != rhs.shape[-2]:
        raise ValueError(f"dot_general: shapes {lhs.shape} and {rhs.shape} are not aligned "
                         "as (..., m, k) @ (..., k, n)")
    out, weak = dtypes.promote([lhs.dtype, rhs.dtype], [lhs.weak_type, rhs.weak_type])
    if out == dtypes.bool_:
        raise TypeError("dot_general on booleans: convert to an integer dtype first")
    return ShapedArray(lhs.shape[:-1] + rhs.shape[-1:], out, weak)


for _fn in (select_abstract, convert_element_type_abstract, broadcast_in_dim_abstract,
            reshape_abstract, transpose_abstract, slice_abstract, rev_abstract,
            concatenate_abstract, iota_abstract, dot_general_abstract):
    abstract_rules[_fn.__name__[:-len("_abstract")]] = _fn




# -- dynamic indexing -----------------------------------------------------------------------

def _check_indices(what, starts, ndim):
    if len(starts) != ndim:
        raise ValueError(f"{what}: {len(starts)} start indices for an array of rank {ndim}")
    for s in starts:
        if s.shape != () or not dtypes.is_int(s.dtype):
            raise TypeError(f"{what}: start indices must be integer scalars, got {s.str_short()}")


def dynamic_slice_abstract(operand, *starts, slice_sizes):
    _check_indices("dynamic_slice", starts, operand.ndim)
    if len(slice_sizes) != operand.ndim or any(
            not 0 <= n <= d for n, d in zip(slice_sizes, operand.shape)):
        raise ValueError(f"dynamic_slice: slice sizes {tuple(slice_sizes)} do not fit in an "
                         f"array of shape {operand.shape}")
    return ShapedArray(tuple(slice_sizes), operand.dtype, operand.weak_type)


def dynamic_update_slice_abstract(operand, update, *starts):
    _check_indices("dynamic_update_slice", starts, operand.ndim)
    if update.ndim != operand.ndim or any(u > d for u, d in zip(update.shape, operand.shape)):
        raise ValueError(f"dynamic_update_slice: update of shape {update.shape} does not fit in "
                         f"an array of shape {operand.shape}")
    if update.dtype != operand.dtype:
        raise TypeError(f"dynamic_update_slice: update dtype {update.dtype} differs from the "
                        f"operand's {operand.dtype}")
    return operand


# -- control flow ---------------------------------------------------------------------------

def _region_check(what, ir, expected_in):
    got = [v.aval for v in ir.invars[:len(expected_in)]]
    if [a.strong() for a in got] != [a.strong() for a in expected_in]:
        raise TypeError(f"{what}: region takes {got}, given {list(expected_in)}")


def cond_abstract(index, *operands, branches):
    if index.shape != () or not dtypes.is_int(index.dtype):
        raise TypeError(f"cond/switch index must be an integer scalar, got {index.str_short()}")
    outs = [v.aval for v in branches[0].outvars]
    for b in branches:
        _region_check("cond", b, operands)
        if [v.aval for v in b.outvars] != outs:
            raise TypeError("cond branches return different types: "
                            f"{outs} and {[v.aval for v in b.outvars]}")
    return outs


def while_abstract(*inputs, cond, body, n_carry):
    carry = list(inputs[:n_carry])
    _region_check("while_loop", cond, inputs)
    _region_check("while_loop", body, inputs)
    return carry


def for_loop_abstract(lower, upper, *inputs, body, n_carry):
    for bound in (lower, upper):
        if bound.shape != () or not dtypes.is_int(bound.dtype):
            raise TypeError(f"fori_loop bounds must be integer scalars, got {bound.str_short()}")
    return list(inputs[:n_carry])


def scan_abstract(*inputs, body, n_carry, n_xs, length, reverse):
    ys = [v.aval for v in body.outvars[n_carry:]]
    return list(inputs[:n_carry]) + [ShapedArray((length,) + y.shape, y.dtype, y.weak_type)
                                     for y in ys]


def sort_abstract(operand):
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def argsort_abstract(operand):
    return ShapedArray(operand.shape, dtypes.int64, False)   # the runtime's sort writes int64


def gather_abstract(operand, indices, *, axis):
    """operand[..., indices, ...] along `axis`: the axis is replaced by indices' shape."""
    if not dtypes.is_int(indices.dtype):
        raise TypeError(f"gather: indices must be integers, got {indices.str_short()}")
    if not 0 <= axis < operand.ndim:
        raise ValueError(f"gather: axis {axis} is out of range for rank {operand.ndim}")
    if operand.shape[axis] == 0 and indices.size:
        raise IndexError(f"gather: cannot take indices from the empty axis {axis} (JAX: "
                         "Cannot do a non-empty jnp.take() from an empty axis.)")
    shape = operand.shape[:axis] + indices.shape + operand.shape[axis + 1:]
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def scatter_abstract(operand, indices, updates, *, mode):
    """operand with updates combined in at flat positions `indices` (same shape)."""
    if not dtypes.is_int(indices.dtype) or indices.shape != updates.shape:
        raise TypeError(f"scatter: integer indices and updates of one shape are needed, got "
                        f"{indices.str_short()} and {updates.str_short()}")
    if updates.dtype != operand.dtype:
        raise TypeError(f"scatter: updates dtype {updates.dtype} differs from the operand's "
                        f"{operand.dtype}")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


# -- dense linear algebra: batches of matrices in the last two axes, float32/float64 -------

def _matrices(what, a, square=True):
    if a.ndim < 2 or (square and a.shape[-1] != a.shape[-2]):
        kind = "square matrices" if square else "matrices"
        raise ValueError(f"{what}: needs {kind} in the last two axes, got shape {a.shape}")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"{what}: needs float32 or float64, got {a.dtype}")


def linalg_solve_abstract(a, b):
    _matrices("solve", a)
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or b.shape[-2] != a.shape[-1] \
            or b.dtype != a.dtype:
        raise ValueError(f"solve: a of shape {a.shape} and b of shape {b.shape} do not match")
    return ShapedArray(b.shape, a.dtype)


def linalg_det_abstract(a):
    _matrices("det", a)
    return ShapedArray(a.shape[:-2], a.dtype)


def linalg_slogdet_abstract(a):
    _matrices("slogdet", a)
    return ShapedArray(a.shape[:-2] + (2,), a.dtype)


def cholesky_abstract(a):
    _matrices("cholesky", a)
    return ShapedArray(a.shape, a.dtype)


def qr_q_abstract(a, *, complete):
    _matrices("qr", a, square=False)
    m, n = a.shape[-2:]
    return ShapedArray(a.shape[:-1] + (m if complete else min(m, n),), a.dtype)


def qr_r_abstract(a, *, complete):
    _matrices("qr", a, square=False)
    m, n = a.shape[-2:]
    return ShapedArray(a.shape[:-2] + (m if complete else min(m, n), n), a.dtype)


def eigh_abstract(a):
    _matrices("eigh", a)
    n = a.shape[-1]
    return ShapedArray(a.shape[:-2] + (n + 1, n), a.dtype)


def svd_packed_size(m: int, n: int, full_matrices: bool, compute_uv: bool) -> int:
    """Length of svd's packed result per matrix: U (m x ucols), s (k), V^T (vrows x n)."""
    k = min(m, n)
    if not compute_uv:
        return k
    return m * (m if full_matrices else k) + k + (n if full_matrices else k) * n


def svd_abstract(a, *, full_matrices, compute_uv):
    _matrices("svd", a, square=False)
    m, n = a.shape[-2:]
    return ShapedArray(a.shape[:-2] + (svd_packed_size(m, n, full_matrices, compute_uv),),
                       a.dtype)


for _fn in (dynamic_slice_abstract, dynamic_update_slice_abstract, gather_abstract, cond_abstract,
            scatter_abstract, linalg_solve_abstract, linalg_det_abstract,
            linalg_slogdet_abstract, cholesky_abstract, qr_q_abstract, qr_r_abstract,
            eigh_abstract, svd_abstract,
            sort_abstract, argsort_abstract,
            for_loop_abstract, scan_abstract):
    abstract_rules[_fn.__name__[:-len("_abstract")]] = _fn
abstract_rules["while"] = while_abstract
abstract_rules["fft"] = fft_abstract
abstract_rules["conv"] = conv_abstract


# -- differentiation markers (primitives.AUTODIFF_MARKERS; replaced before compiling) -------

def stop_gradient_abstract(x):
    return x


def custom_jvp_call_abstract(*args, call, rule, n_args):
    return [v.aval for v in call.outvars]


def custom_vjp_call_abstract(*args, call, fwd, bwd, n_args, remat=False):
    return [v.aval for v in call.outvars]


def custom_vjp_lin_abstract(*args, bwd, out_avals, n_residuals, forward=None):
    return list(out_avals)


for _fn in (stop_gradient_abstract, custom_jvp_call_abstract, custom_vjp_call_abstract,
            custom_vjp_lin_abstract):
    abstract_rules[_fn.__name__[:-len("_abstract")]] = _fn
