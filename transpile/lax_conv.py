"""Convolutions with jax.lax's signatures: conv_general_dilated, conv,
conv_with_general_padding, conv_dimension_numbers, ConvDimensionNumbers.

Every layout is brought to one canonical form, lhs (N, D, H, W, C) and rhs (KD, KH, KW, I, O)
with three spatial axes (unit ones in front for 1-D and 2-D convolutions), for the primitive
`conv` (rules/convolution.py; runtime/include/tp_conv.h in C). With NHWC/HWIO layouts the
transposes are no-ops; with JAX's default NCHW/OIHW they are copies fused into one pass each.
"""
from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from . import dtypes
from . import primitives as P
from .core import aval_of, bind
from .numpy._shape import concatenate, transpose
from .base.operands import astype, broadcast_to, operand, reshape

__all__ = ["ConvDimensionNumbers", "conv", "conv_dimension_numbers", "conv_general_dilated",
           "conv_general_dilated_local", "conv_general_dilated_patches",
           "conv_with_general_padding", "padtype_to_pads"]


class ConvDimensionNumbers(namedtuple("ConvDimensionNumbers", ["lhs_spec", "rhs_spec",
                                                                 "out_spec"])):
    """Each spec: (batch or out-feature axis, feature or in-feature axis, spatial axes...)."""


def _spec_from_string(spec: str, pair: tuple[str, str], rhs_spec: str):
    """JAX's reading of a layout string: the two named axes, then the spatial axes in the
    order the kernel's string lists them."""
    spatial = [i for i, c in enumerate(spec) if c not in pair]
    if spec is not rhs_spec:
        spatial.sort(key=lambda i: rhs_spec.index(spec[i]))
    return (spec.index(pair[0]), spec.index(pair[1])) + tuple(spatial)


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """As jax.lax.conv_dimension_numbers: None (NCHW, OIHW, NCHW), a ConvDimensionNumbers,
    or a triple of layout strings such as ('NHWC', 'HWIO', 'NHWC')."""
    ndim = len(lhs_shape)
    if len(rhs_shape) != ndim:
        raise TypeError(f"conv_general_dilated lhs and rhs must have the same number of "
                        f"dimensions, got {len(lhs_shape)} and {len(rhs_shape)}")
    if dimension_numbers is None:
        default = tuple(range(ndim))
        return ConvDimensionNumbers(default, default, default)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(dimension_numbers) != 3:
        raise TypeError("conv: dimension_numbers must be None, a ConvDimensionNumbers or a "
                        f"triple of layout strings, got {dimension_numbers!r}")
    lhs, rhs, out = dimension_numbers
    if all(isinstance(s, str) for s in (lhs, rhs, out)):
        if not len(lhs) == len(rhs) == len(out) == ndim:
            raise TypeError(f"conv: layout strings {dimension_numbers} must each have "
                            f"{ndim} letters (the operands' rank)")
        return ConvDimensionNumbers(_spec_from_string(lhs, ("N", "C"), rhs),
                                    _spec_from_string(rhs, ("O", "I"), rhs),
                                    _spec_from_string(out, ("N", "C"), rhs))
    return ConvDimensionNumbers(*(tuple(map(operator.index, s)) for s in dimension_numbers))


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """'SAME', 'SAME_LOWER' or 'VALID' as (before, after) pairs, as jax.lax computes them."""
    kind = padding.upper()
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind not in ("SAME", "SAME_LOWER"):
        raise ValueError(f"conv: unknown padding {padding!r}; use 'SAME', 'SAME_LOWER', "
                         "'VALID' or a sequence of (low, high) pairs")
    pads = []
    for size, window, stride in zip(in_shape, window_shape, window_strides):
        out = -(-size // stride)
        total = max((out - 1) * stride + window - size, 0)
        small, big = total // 2, total - total // 2
        pads.append((int(big), int(small)) if kind == "SAME_LOWER" else (int(small), int(big)))
    return pads


def _per_axis(values, count, what, default=1):
    if values is None:
        return (default,) * count
    values = tuple(operator.index(v) for v in values)
    # JAX's words for the count (its shape rule checks window_strides first), then ours
    jax_words = (f"conv_general_dilated window and {what} must have the same number of "
                 f"dimensions, but got {count} and {len(values)}: " if len(values) != count
                 else "")
    if jax_words or any(v < 1 for v in values):
        raise ValueError(f"{jax_words}conv: {what} needs {count} positive integers (one per "
                         f"spatial axis), got {values}")
    return values


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None,
                         rhs_dilation=None, dimension_numbers=None, feature_group_count=1,
                         batch_group_count=1, precision=None, preferred_element_type=None):
    lhs, rhs = operand(lhs), operand(rhs)
    la, ra = aval_of(lhs), aval_of(rhs)
    if la.ndim != ra.ndim:           # JAX: ValueError here (TypeError in conv_dimension_numbers)
        raise ValueError(f"conv_general_dilated lhs and rhs must have the same number of "
                         f"dimensions, got {la.ndim} and {ra.ndim}")
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    spatial = la.ndim - 2
    args = (window_strides, padding, lhs_dilation, rhs_dilation, dn, feature_group_count,
            batch_group_count, precision, preferred_element_type)
    if spatial == 0:
        # no spatial axis: a (grouped) dot; convolved over one added axis of length 1
        out = conv_general_dilated(
            reshape(lhs, la.shape + (1,)), reshape(rhs, ra.shape + (1,)), (1,), ((0, 0),),
            None, None, ConvDimensionNumbers(dn.lhs_spec + (2,), dn.rhs_spec + (2,),
                                             dn.out_spec + (2,)),
            feature_group_count, batch_group_count, precision, preferred_element_type)
        return reshape(out, aval_of(out).shape[:-1])
    if dtypes.is_complex(la.dtype) or dtypes.is_complex(ra.dtype):
        return _complex_conv(lhs, rhs, args)
    if not 1 <= spatial <= 3:
        raise NotImplementedError(f"conv: {spatial} spatial dimensions; transpile supports "
                                  "1, 2 or 3")
    strides = _per_axis(window_strides, spatial, "window_strides")
    lhs_dil = _per_axis(lhs_dilation, spatial, "lhs_dilation")
    rhs_dil = _per_axis(rhs_dilation, spatial, "rhs_dilation")
    lhs_sizes = [la.shape[a] for a in dn.lhs_spec[2:]]
    kernel = [ra.shape[a] for a in dn.rhs_spec[2:]]
    if isinstance(padding, str):
        window = [(k - 1) * d + 1 for k, d in zip(kernel, rhs_dil)]
        padding = padtype_to_pads(lhs_sizes, window, strides, padding)
    if not all(isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in padding):
        raise ValueError(f"padding argument to conv_general_dilated should be a string or a "
                         f"sequence of (low, high) pairs, got {tuple(padding)}: e.g. "
                         f"((3, 3), (3, 3)) pads 3 on each side of two spatial axes")
    padding = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    if len(padding) != spatial:
        raise ValueError(f"conv: padding needs {spatial} (low, high) pairs, got {padding}")
    lhs, rhs, in_dtype = _common_float(lhs, rhs)
    # canonical layouts: lhs (N, spatial..., C), rhs (spatial..., I, O)
    lhs = transpose(lhs, (dn.lhs_spec[0], *dn.lhs_spec[2:], dn.lhs_spec[1]))
    rhs = transpose(rhs, (*dn.rhs_spec[2:], dn.rhs_spec[1], dn.rhs_spec[0]))
    out = _grouped_by_batch(lhs, rhs, operator.index(batch_group_count), dict(
        window_strides=strides, padding=padding, lhs_dilation=lhs_dil,
        rhs_dilation=rhs_dil, feature_group_count=operator.index(feature_group_count)))
    perm = [0] * (spatial + 2)
    perm[dn.out_spec[0]], perm[dn.out_spec[1]] = 0, spatial + 1
    for i, axis in enumerate(dn.out_spec[2:]):
        perm[axis] = 1 + i
    out = transpose(out, perm)
    return astype(out, preferred_element_type or in_dtype)


def conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation=None,
                                 rhs_dilation=None, dimension_numbers=None, precision=None,
                                 preferred_element_type=None):
    """As jax.lax.conv_general_dilated_patches: each output position's receptive field as
    channels (C * prod(filter_shape) of them, channel-major), computed as JAX does: a grouped
    convolution with an identity kernel (exact: one nonzero term per output)."""
    from .numpy._creation import eye
    lhs = operand(lhs)
    la = aval_of(lhs)
    filter_shape = tuple(operator.index(d) for d in filter_shape)
    dn = conv_dimension_numbers(la.shape, (1, 1) + filter_shape, dimension_numbers)
    spatial_size = int(np.prod(filter_shape, dtype=np.int64))
    n_channels = la.shape[dn.lhs_spec[1]]
    rhs = eye(spatial_size, dtype=la.dtype)
    rhs = broadcast_to(rhs, (n_channels, spatial_size, spatial_size))
    rhs = reshape(rhs, (n_channels * spatial_size, 1) + filter_shape)
    # axes 0 (out features) and 1 (in features) to where the kernel's layout puts them
    rank = 2 + len(filter_shape)
    order = [0] * rank
    rest = iter(range(2, rank))
    for axis in range(rank):
        order[axis] = 0 if axis == dn.rhs_spec[0] else 1 if axis == dn.rhs_spec[1] \
            else next(rest)
    rhs = transpose(rhs, tuple(order))
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                                dn, n_channels, 1, precision, preferred_element_type)


def conv_general_dilated_local(lhs, rhs, window_strides, padding, filter_shape,
                               lhs_dilation=None, rhs_dilation=None, dimension_numbers=None,
                               precision=None):
    """As jax.lax.conv_general_dilated_local (an unshared convolution: one kernel per output
    position), computed as JAX does: the patches, then a dot_general batched over the output's
    spatial axes."""
    from .lax_ops import dot_general
    from .numpy._shape import moveaxis
    lhs = operand(lhs)
    filter_shape = tuple(operator.index(d) for d in filter_shape)
    patches = conv_general_dilated_patches(lhs, filter_shape, window_strides, padding,
                                           lhs_dilation, rhs_dilation, dimension_numbers,
                                           precision)
    lhs_spec, rhs_spec, out_spec = conv_dimension_numbers(
        aval_of(lhs).shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_b, rhs_b = list(out_spec[2:]), list(rhs_spec[2:])
    rhs_b = [rhs_b[i] for i in sorted(range(len(rhs_b)), key=lambda k: lhs_b[k])]
    lhs_b = sorted(lhs_b)
    out = dot_general(patches, rhs, (([out_spec[1]], [rhs_spec[1]]), (lhs_b, rhs_b)),
                      precision=precision)
    return moveaxis(out, (-2, -1), (out_spec[0], out_spec[1]))


def _complex_conv(lhs, rhs, args):
    """Convolution is bilinear: (a+ib)*(c+id) = (a*c - b*d) + i(a*d + b*c), four real ones."""
    from .numpy import _elementwise as E
    from .numpy._complex import imag, real as real_part
    *rest, preferred = args
    real = None if preferred is None else np.empty(0, preferred).real.dtype
    a, b, c, d = real_part(lhs), imag(lhs), real_part(rhs), imag(rhs)
    conv = lambda x, y: conv_general_dilated(x, y, *rest, real)
    out = E.add(E.subtract(conv(a, c), conv(b, d)),
                E.multiply(E.add(conv(a, d), conv(b, c)), 1j))
    dt = preferred or np.result_type(aval_of(lhs).dtype, aval_of(rhs).dtype)
    return astype(out, dt)


def _common_float(lhs, rhs):
    """The operands in the float type the kernels compute in (float32 or float64; half
    floats widen to float32, integers and booleans to float64) and the result's dtype."""
    a, b = aval_of(lhs).dtype, aval_of(rhs).dtype
    if a != b and not (aval_of(lhs).weak_type or aval_of(rhs).weak_type):
        raise TypeError(f"conv: lhs and rhs must have the same dtype, got {a} and {b}")
    in_dtype = a if aval_of(rhs).weak_type else b if aval_of(lhs).weak_type else \
        np.result_type(a, b)
    dt = in_dtype if in_dtype in (dtypes.float32, dtypes.float64) else \
        dtypes.float32 if dtypes.is_float(in_dtype) else dtypes.float64
    return astype(lhs, dt), astype(rhs, dt), np.dtype(in_dtype)


def _grouped_by_batch(lhs, rhs, groups, params):
    """batch_group_count: the batch splits into `groups` runs of N / groups, run g
    convolved with the g-th block of output features, the blocks concatenated."""
    if groups == 1:
        return _conv_canonical(lhs, rhs, params)
    n, out_features = aval_of(lhs).shape[0], aval_of(rhs).shape[-1]
    if n % groups or out_features % groups:
        raise ValueError(f"conv: batch_group_count {groups} must divide the batch ({n}) and "
                         f"the output features ({out_features})")
    size, width = n // groups, out_features // groups
    return concatenate([_conv_canonical(lhs[g * size:(g + 1) * size],
                                        rhs[..., g * width:(g + 1) * width], params)
                        for g in range(groups)], axis=-1)


def _conv_canonical(lhs, rhs, params):
    """Pad the spatial axes to three (unit axes in front), convolve, drop them again."""
    la, ra = aval_of(lhs), aval_of(rhs)
    missing = 3 - (la.ndim - 2)
    lhs = reshape(lhs, (la.shape[0],) + (1,) * missing + la.shape[1:])
    rhs = reshape(rhs, (1,) * missing + ra.shape)
    full = {k: (1,) * missing + v for k, v in params.items() if k != "feature_group_count"}
    full["padding"] = ((0, 0),) * missing + params["padding"]
    full["feature_group_count"] = params["feature_group_count"]
    from .rules.convolution import conv_abstract
    out_aval = conv_abstract(aval_of(lhs), aval_of(rhs), **full)
    if out_aval.size == 0 or aval_of(lhs).size == 0 or aval_of(rhs).size == 0:
        out = np.zeros(out_aval.shape, out_aval.dtype)   # nothing to read: a constant
    else:
        out = bind(P.conv, lhs, rhs, **full)
    return reshape(out, (out_aval.shape[0],) + out_aval.shape[1 + missing:])


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                              precision=None, preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation,
                                rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)
