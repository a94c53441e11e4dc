"""jax.lax's elementwise, structural and reduction operations, with JAX's signatures.

`transpile.lax` re-exports these. Where lax differs from NumPy, these follow lax: `div`
and `rem` on integers round toward zero (C's `/` and `%`), `round` rounds half away from
zero by default, and reductions and cumulative ops keep the operand's dtype.
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from . import dtypes
from . import primitives as P
from .base.control_flow import scan
from .base.control_flow_checks import check_callable
from .core import Tracer, aval_of, bind, trace_stack
from .numpy import _cumulative as C
from .numpy import _elementwise as E
from .numpy import _mathfuncs as M
from .numpy._matmul import dot as _np_dot, matmul
from .numpy._preferred import accumulate_in
from .numpy._reductions import argmax as _np_argmax, argmin as _np_argmin
from .numpy._shape import concatenate as _concatenate, flip, transpose as _transpose
from .base.operands import astype, broadcast_to, normalize_axes, operand, reshape as _np_reshape
from .base.operands import static_shape, weak_like
from .pytree import tree_flatten, tree_map, tree_unflatten

add, sub, max, min = E.add, E.subtract, E.maximum, E.minimum


def mul(x, y, *, out_dtype=None):
    """x * y; JAX's out_dtype= casts both operands to it first (as JAX's reference does)."""
    if out_dtype is not None:
        x, y = astype(operand(x), out_dtype), astype(operand(y), out_dtype)
    return E.multiply(x, y)
neg, abs, sign, exp, exp2, log, log1p, expm1 = (E.negative, E.absolute, E.sign, E.exp, E.exp2,
                                                E.log, E.log1p, E.expm1)
sqrt, cbrt, tanh, sin, cos, tan = E.sqrt, M.cbrt, E.tanh, E.sin, E.cos, E.tan
asin, acos, atan, atan2, sinh, cosh = E.arcsin, E.arccos, E.arctan, E.arctan2, E.sinh, E.cosh
asinh, acosh, atanh = M.arcsinh, M.arccosh, M.arctanh
floor, ceil, is_finite, nextafter = E.floor, E.ceil, E.isfinite, M.nextafter
eq, ne, lt, le, gt, ge = E.equal, E.not_equal, E.less, E.less_equal, E.greater, E.greater_equal
bitwise_and, bitwise_or, bitwise_xor, bitwise_not = (E.bitwise_and, E.bitwise_or,
                                                     E.bitwise_xor, E.bitwise_not)
shift_left, shift_right_logical = E.left_shift, E.right_shift
pow, square = E.power, lambda x: E.multiply(x, x)


def real(x):
    """The real part of a complex operand (a TypeError for real ones, as in JAX)."""
    return bind(P.get("real"), operand(x))


def imag(x):
    """The imaginary part of a complex operand (a TypeError for real ones, as in JAX)."""
    return bind(P.get("imag"), operand(x))


def conj(x):
    """The complex conjugate; as JAX's lax.conj, a real operand gives the complex dtype of
    its precision (float32 -> complex64, float64 -> complex128); other reals are refused."""
    x = operand(x)
    dt = aval_of(x).dtype
    if not dtypes.is_complex(dt):
        if dt not in (np.float32, np.float64):
            raise TypeError(f"conj does not accept dtype {dt}. Accepted dtypes are subtypes "
                            "of float32, complexfloating, float64.")
        x = weak_like(astype(x, np.complex64 if dt == np.float32 else np.complex128), x)
    return E.conjugate(x)


def stop_gradient(x):
    """`x` (any pytree of arrays) with a zero derivative. Only while a differentiating
    transformation traces (transpile/autodiff/) is it an equation of its own, which the
    transformation removes; elsewhere the value passes through unchanged."""
    if not any(getattr(t, "differentiating", False) for t in trace_stack()):
        return x
    return tree_map(lambda leaf: bind(P.stop_gradient, operand(leaf)), x)


def rsqrt(x):
    return E.divide(1, E.sqrt(x))


def logistic(x):
    return E.divide(1, E.add(1, E.exp(E.negative(x))))


def integer_pow(x, y: int):
    if not isinstance(y, (int, np.integer)) or isinstance(y, Tracer):
        raise TypeError("lax.integer_pow: the exponent 'y' must be a static Python int")
    return E.power(x, int(y))


def _truncating(x, y, q):
    """Floor quotient q turned into C's truncating one: one up where signs differ."""
    r = E.remainder(x, y)
    inexact = E.logical_and(E.not_equal(r, 0), E.not_equal(E.less(x, 0), E.less(y, 0)))
    return E.where(inexact, E.add(q, 1), q)


def div(x, y):
    """Integer division rounds toward zero; x / 0 is -1 (all bits set), as XLA defines it."""
    x, y = operand(x), operand(y)
    dt = np.result_type(aval_of(x).dtype, aval_of(y).dtype)
    if dtypes.is_float(dt) or dtypes.is_complex(dt):
        return E.divide(x, y)
    q = _truncating(x, y, E.floor_divide(x, y))
    return E.where(E.equal(y, 0), E.invert(E.subtract(q, q)), q)


def rem(x, y):
    """x - div(x, y) * y: the sign of x, as C's % and fmod; x rem 0 is x, as XLA defines it."""
    x, y = operand(x), operand(y)
    r = E.remainder(x, y)
    if dtypes.is_float(aval_of(r).dtype):
        return M.copysign(E.remainder(E.absolute(x), E.absolute(y)), x)
    fix = E.logical_and(E.not_equal(r, 0), E.not_equal(E.less(r, 0), E.less(x, 0)))
    return E.where(E.equal(y, 0), x, E.where(fix, E.subtract(r, y), r))


class RoundingMethod:
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):
    x = operand(x)
    if int(rounding_method) == RoundingMethod.TO_NEAREST_EVEN:
        return E.rint(x)
    t = E.trunc(x)
    # x - trunc(x) is exact, so the comparison with 0.5 decides ties exactly.
    return E.where(E.greater_equal(E.absolute(E.subtract(x, t)), 0.5),
                   E.add(t, M.copysign(1, x)), t)


def clamp(min, x, max):
    return E.minimum(E.maximum(x, min), max)


def select_n(which, *cases):
    if not cases:
        raise ValueError("lax.select_n needs at least one case")
    which = operand(which)
    if aval_of(which).dtype == dtypes.bool_:
        if len(cases) > 2:
            raise ValueError("lax.select_n with a boolean 'which' takes at most two cases")
        return E.where(which, cases[-1], cases[0])
    # an index out of range picks the nearest case (the last above, the first below), as
    # JAX's select_n computes on CPU (a tree of `which < k` selects) and np.choose(mode='clip')
    out = cases[-1]
    for i in range(len(cases) - 2, -1, -1):
        out = E.where(E.less_equal(which, 0) if i == 0 else E.equal(which, i), cases[i], out)
    return out


def convert_element_type(operand_, new_dtype):
    return astype(operand_, new_dtype)


def broadcast_in_dim(operand_, shape, broadcast_dimensions):
    x = operand(operand_)
    shape = tuple(int(d) for d in shape)
    dims = tuple(int(d) for d in broadcast_dimensions)
    old = aval_of(x).shape
    _check_broadcast_in_dim(old, shape, dims)
    placed = [1] * len(shape)
    for i, d in enumerate(dims):
        placed[d] = old[i]
    return broadcast_to(_np_reshape(x, tuple(placed)), shape)


def _check_broadcast_in_dim(old, shape, dims):
    """JAX's shape checks of broadcast_in_dim: TypeErrors, in JAX's words and order."""
    if len(shape) < len(old):
        raise TypeError("broadcast_in_dim target broadcast shape must have equal or higher rank "
                        f"to the operand shape; got operand ndim {len(old)} and target broadcast "
                        f"ndim {len(shape)}.")
    if len(dims) != len(old):
        raise TypeError("broadcast_in_dim broadcast_dimensions must have length equal to operand "
                        f"ndim; got broadcast_dimensions {dims} for operand ndim {len(old)}.")
    if any(not 0 <= d < len(shape) for d in dims):
        raise TypeError("broadcast_in_dim broadcast_dimensions must be a subset of output "
                        f"dimensions, got {dims} for operand ndim {len(old)} and shape {shape}.")
    if any(old[i] not in (1, shape[d]) for i, d in enumerate(dims)):
        raise TypeError("broadcast_in_dim operand dimension sizes must either be 1, or be equal "
                        "to their corresponding dimensions in the target broadcast shape; got "
                        f"operand of shape {old}, target broadcast shape {shape}, "
                        f"broadcast_dimensions {dims} ")
    if any(a >= b for a, b in zip(dims, dims[1:])):
        raise TypeError("broadcast_in_dim broadcast_dimensions must be strictly increasing; got "
                        f"broadcast_dimensions {dims}")


def broadcast(operand_, sizes):
    x = operand(operand_)
    return broadcast_to(x, tuple(sizes) + aval_of(x).shape)


def reshape(operand_, new_sizes, dimensions=None):
    x = operand(operand_)
    if dimensions is not None:
        x = _transpose(x, tuple(dimensions))
    return _np_reshape(x, static_shape(new_sizes, "new_sizes"))


def transpose(operand_, permutation):
    return _transpose(operand_, tuple(permutation))


def concatenate(operands, dimension):
    return _concatenate(list(operands), axis=dimension)


def slice(operand_, start_indices, limit_indices, strides=None):
    x = operand(operand_)
    strides = strides or (1,) * len(start_indices)
    return x[tuple(builtins.slice(int(a), int(b), int(s))
                   for a, b, s in zip(start_indices, limit_indices, strides))]


def slice_in_dim(operand_, start_index, limit_index, stride=1, axis=0):
    x = operand(operand_)
    n = len(aval_of(x).shape)
    starts, limits, strides = [0] * n, list(aval_of(x).shape), [1] * n
    start, limit, _ = builtins.slice(start_index, limit_index).indices(limits[axis])
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(x, starts, limits, strides)


def pad(operand_, padding_value, padding_config):
    """Low/high padding (negative crops) and interior padding, per dimension."""
    x = operand(operand_)
    value = operand(padding_value)
    padding_config = [tuple(int(v) for v in entry) for entry in padding_config]
    _check_pad(aval_of(x).shape, aval_of(value).shape, padding_config)
    value = astype(value, aval_of(x).dtype)
    for axis, (lo, hi, interior) in enumerate(padding_config):
        x = _pad_axis(x, value, axis, int(lo), int(hi), int(interior))
    return x


def _check_pad(shape, value_shape, padding_config):
    """JAX's pad errors (ValueErrors, in JAX's words first), then the fix."""
    if value_shape:
        raise ValueError(f"padding_value must be a scalar; got an array of shape "
                         f"{value_shape}. Pass one value, e.g. x.dtype.type(0).")
    if len(padding_config) != len(shape):
        raise ValueError(f"length of padding_config must equal the number of axes of "
                         f"operand, got padding_config {padding_config} for operand shape "
                         f"{shape}. Give one (low, high, interior) triple per axis.")
    if any(interior < 0 for _, _, interior in padding_config):
        raise ValueError(f"interior padding in padding_config must be nonnegative, got "
                         f"padding_config {padding_config}. Crop with negative low/high "
                         "padding instead.")
    result = tuple(lo + hi + n + builtins.max(n - 1, 0) * interior
                   for n, (lo, hi, interior) in zip(shape, padding_config))
    if any(n < 0 for n in result):
        raise ValueError(f"Dimension size after padding is not at least 0, got result shape "
                         f"{result}, for padding_config {padding_config} and operand shape "
                         f"{shape}. Negative low/high padding may crop at most the whole axis.")


def _pad_axis(x, value, axis, lo, hi, interior):
    shape = aval_of(x).shape
    n = shape[axis]
    if interior and n > 1:
        spread = _np_reshape(x, shape[:axis + 1] + (1,) + shape[axis + 1:])
        fill = broadcast_to(value, shape[:axis + 1] + (interior,) + shape[axis + 1:])
        woven = _concatenate([spread, fill], axis=axis + 1)
        flat = _np_reshape(woven, shape[:axis] + (n * (interior + 1),) + shape[axis + 1:])
        x = slice_in_dim(flat, 0, n * (interior + 1) - interior, axis=axis)
    # Pad first, crop after: a negative side may then cut into the other side's padding
    # (pad (-3, 1) of 2 elements leaves none), as XLA defines it.
    pieces = []
    for width in (builtins.max(lo, 0), builtins.max(hi, 0)):
        sized = list(aval_of(x).shape)
        sized[axis] = width
        pieces.append(broadcast_to(value, tuple(sized)) if width else None)
    parts = [p for p in (pieces[0], x, pieces[1]) if p is not None]
    x = _concatenate(parts, axis=axis) if len(parts) > 1 else x
    if lo < 0 or hi < 0:
        n = aval_of(x).shape[axis]
        x = slice_in_dim(x, -builtins.min(lo, 0), n + builtins.min(hi, 0), axis=axis)
    return x


def dot(lhs, rhs, *, precision=None, preferred_element_type=None):   # keyword-only, as JAX
    return _np_dot(lhs, rhs, precision=precision, preferred_element_type=preferred_element_type)


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    """Contract lhs and rhs: result axes are batch, then lhs free, then rhs free (as XLA)."""
    (lc, rc), (lb, rb) = dimension_numbers
    (x, y), finish = accumulate_in((operand(lhs), operand(rhs)), precision,
                                   preferred_element_type, "dot_general")
    sx, sy = aval_of(x).shape, aval_of(y).shape
    # Pairs keep the caller's order (contracting lc[i] with rc[i]); no sorting.
    lc, lb = [int(d) % len(sx) for d in lc], [int(d) % len(sx) for d in lb]
    rc, rb = [int(d) % len(sy) for d in rc], [int(d) % len(sy) for d in rb]
    lf = [d for d in range(len(sx)) if d not in lc and d not in lb]
    rf = [d for d in range(len(sy)) if d not in rc and d not in rb]
    batch = tuple(sx[d] for d in lb)
    k = math.prod(sx[d] for d in lc)
    x3 = _np_reshape(_transpose(x, lb + lf + lc), batch + (math.prod(sx[d] for d in lf), k))
    y3 = _np_reshape(_transpose(y, rb + rc + rf), batch + (k, math.prod(sy[d] for d in rf)))
    out = _np_reshape(matmul(x3, y3), batch + tuple(sx[d] for d in lf) + tuple(sy[d] for d in rf))
    return finish(out)


def _reduce(prim, x, axes):
    x = operand(x)
    axes = normalize_axes(tuple(axes), len(aval_of(x).shape))
    return bind(prim, x, axes=axes) if axes else x


def reduce_sum(operand_, axes):
    return _reduce(P.reduce_sum, operand_, axes)


def reduce_prod(operand_, axes):
    return _reduce(P.reduce_prod, operand_, axes)


def reduce_max(operand_, axes):
    return _reduce(P.reduce_max, operand_, axes)


def reduce_min(operand_, axes):
    return _reduce(P.reduce_min, operand_, axes)


def reduce_and(operand_, axes):
    return _reduce(P.reduce_and, operand_, axes)


def reduce_or(operand_, axes):
    return _reduce(P.reduce_or, operand_, axes)


def _check_arg_reduction(name, x, axis, index_dtype):
    """JAX's argument checks of lax.argmin/argmax."""
    if not dtypes.is_int(np.dtype(index_dtype)) or np.dtype(index_dtype) == np.bool_:
        raise TypeError(f"index_dtype must be an integer type, but got {np.dtype(index_dtype)}")
    shape = aval_of(x).shape
    if not isinstance(axis, (int, np.integer)) or not 0 <= axis < len(shape):
        raise ValueError(f"Invalid axis {axis} for operand shape {shape}")
    if shape[axis] == 0:
        raise ValueError(f"{name}: argmin and argmax require non-empty reduced dimension. "
                         f"operand.shape={shape} axes=({axis},)")


def argmax(operand_, axis, index_dtype):
    _check_arg_reduction("argmax", operand(operand_), axis, index_dtype)
    return astype(_np_argmax(operand_, axis=axis), index_dtype)


def argmin(operand_, axis, index_dtype):
    _check_arg_reduction("argmin", operand(operand_), axis, index_dtype)
    return astype(_np_argmin(operand_, axis=axis), index_dtype)


def _cumulative(fn, operand_, axis, reverse):
    x = operand(operand_)
    dt = aval_of(x).dtype
    if reverse:
        return flip(fn(flip(x, axis), axis=axis, dtype=dt), axis)
    return fn(x, axis=axis, dtype=dt)


def cumsum(operand_, axis=0, reverse=False):
    return _cumulative(C.cumsum, operand_, axis, reverse)


def cumprod(operand_, axis=0, reverse=False):
    return _cumulative(C.cumprod, operand_, axis, reverse)


def cummax(operand_, axis=0, reverse=False):
    return C.cummax(operand_, axis=axis, reverse=reverse)


def cummin(operand_, axis=0, reverse=False):
    return C.cummin(operand_, axis=axis, reverse=reverse)



# -- loops over the leading axis --------------------------------------------------------------

def map(f, xs, *, batch_size=None):
    """f applied to each slice of xs along the leading axis (a scan with no carry).
    `batch_size` (JAX's vmap over chunks) changes only the schedule, so it is accepted and
    the slices run one at a time."""
    _, ys = scan(lambda carry, x: (carry, f(x)), (), xs)
    return ys


def associative_scan(fn, elems, reverse=False, axis=0):
    """Inclusive prefix combination with an associative `fn`, combining in JAX's order: a
    work-efficient parallel prefix (about 2 log2 n steps, O(n) applications of `fn`) that
    combines neighbouring pairs, finds the prefixes of the pairs recursively, and then
    combines each remaining element with the prefix before it. The order is JAX's so that a
    `fn` associative only up to rounding (float sums) or only mathematically (a solve) gives
    JAX's results."""
    check_callable("lax.associative_scan", fn=fn)
    leaves, tree = tree_flatten(elems)
    leaves = [operand(x) for x in leaves]
    if not leaves:
        return elems
    ax = normalize_axes(axis, len(aval_of(leaves[0]).shape))[0]
    if reverse:
        leaves = [flip(x, ax) for x in leaves]

    def combine(a, b):
        return [operand(c) for c in tree_flatten(fn(tree_unflatten(tree, a),
                                                     tree_unflatten(tree, b)))[0]]
    leaves = _parallel_prefix(combine, leaves, ax)
    if reverse:
        leaves = [flip(x, ax) for x in leaves]
    return tree_unflatten(tree, leaves)


def _parallel_prefix(combine, xs, ax):
    """The inclusive prefixes of the leaves `xs` along `ax` under `combine` (leaf lists)."""
    n = aval_of(xs[0]).shape[ax]
    if n < 2:
        return xs

    def strided(values, start, stop, step=1):
        return [slice_in_dim(v, start, stop, step, axis=ax) for v in values]
    # prefixes ending at the odd positions 1, 3, ...: those of the pairs (x0 x1), (x2 x3), ...
    odd = _parallel_prefix(combine, combine(strided(xs, 0, n - 1, 2), strided(xs, 1, n, 2)),
                           ax)
    # ... and at the even positions 2, 4, ...: the odd prefix before, times the element
    rest = (n - 1) // 2
    later_even = combine(strided(odd, 0, rest), strided(xs, 2, n, 2)) if rest else \
        strided(xs, 2, n, 2)
    even = [_concatenate([slice_in_dim(x, 0, 1, axis=ax), e], axis=ax)
            for x, e in zip(xs, later_even)]
    return [_interleave(e, o, ax) for e, o in zip(even, odd)]


def _interleave(even, odd, ax):
    """e0 o0 e1 o1 ... along `ax`, where `even` has as many entries as `odd` or one more."""
    shape = aval_of(even).shape
    n = shape[ax] + aval_of(odd).shape[ax]
    if aval_of(odd).shape[ax] < shape[ax]:          # pad to pairs; the pad is sliced away
        odd = _concatenate([odd, slice_in_dim(even, 0, 1, axis=ax)], axis=ax)
    pair_shape = shape[:ax + 1] + (1,) + shape[ax + 1:]
    pairs = _concatenate([_np_reshape(even, pair_shape), _np_reshape(odd, pair_shape)],
                         axis=ax + 1)
    merged = _np_reshape(pairs, shape[:ax] + (2 * shape[ax],) + shape[ax + 1:])
    return slice_in_dim(merged, 0, n, axis=ax)


__all__ = [
    'abs', 'acos', 'acosh', 'add', 'argmax', 'argmin', 'asin', 'asinh', 'associative_scan',
    'atan', 'atan2', 'atanh', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor',
    'broadcast', 'broadcast_in_dim', 'cbrt', 'ceil', 'clamp', 'concatenate', 'conj',
    'convert_element_type', 'cos', 'cosh', 'cummax', 'cummin', 'cumprod', 'cumsum', 'div',
    'dot', 'dot_general', 'eq', 'exp', 'exp2', 'expm1', 'floor', 'ge', 'gt', 'imag',
    'integer_pow', 'is_finite', 'le', 'log', 'log1p', 'logistic', 'lt', 'map', 'max', 'min',
    'mul', 'ne', 'neg', 'nextafter', 'pad', 'pow', 'reduce_and', 'real', 'reduce_max',
    'reduce_min', 'reduce_or', 'reduce_prod', 'reduce_sum', 'rem', 'reshape', 'round', 'rsqrt',
    'select_n', 'shift_left', 'shift_right_logical', 'sign', 'sin', 'sinh', 'slice',
    'slice_in_dim', 'sqrt', 'square', 'stop_gradient', 'sub', 'tan', 'tanh', 'transpose',
]
