"""jax.lax.conv_transpose: the gradient-shaped ("deconvolution") convolution, as a
conv_general_dilated whose input is dilated by the strides, with the padding a transposed
convolution needs; and the pure shape helpers jax.lax exposes for convolutions
(conv_shape_tuple, conv_general_shape_tuple, conv_transpose_shape_tuple,
conv_general_permutations)."""
from __future__ import annotations

import numpy as np

from .lax_conv import conv_dimension_numbers, conv_general_dilated, padtype_to_pads
from .numpy._shape import flip
from .base.operands import operand, shape_of

__all__ = ["conv_general_permutations", "conv_general_shape_tuple", "conv_shape_tuple",
           "conv_transpose", "conv_transpose_shape_tuple"]

_DEFAULT_LAYOUTS = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"),
                    4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}


def _transpose_padding(k, s, padding):
    """(before, after) padding of one spatial axis of the transposed convolution of a
    forward convolution with kernel size k, stride s and this padding."""
    if padding == "SAME":
        total = k + s - 2
        before = k - 1 if s > k - 1 else int(np.ceil(total / 2))
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        before = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        before, total = pads[0], sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return before, total - before


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel=False, precision=None, preferred_element_type=None,
                   use_consistent_padding=False):
    lhs, rhs = operand(lhs), operand(rhs)
    ndim = len(shape_of(lhs))
    if ndim != len(shape_of(rhs)) or ndim < 2:
        raise ValueError("conv_transpose: lhs and rhs need one rank of at least 2")
    if dimension_numbers is None:
        if ndim not in _DEFAULT_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _DEFAULT_LAYOUTS[ndim]
    dn = conv_dimension_numbers(shape_of(lhs), shape_of(rhs), dimension_numbers)
    kernel_sizes = [shape_of(rhs)[d] for d in dn.rhs_spec[2:]]
    if rhs_dilation is None:
        rhs_dilation = (1,) * (ndim - 2)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        effective = [0 if k == 0 else 1 + r * (k - 1) for k, r in zip(kernel_sizes,
                                                                      rhs_dilation)]
        each = [padding] * len(strides) if isinstance(padding, str) else list(padding)
        pads = tuple(_transpose_padding(k, s, p) for k, s, p in zip(effective, strides, each))
    else:
        pads = padding
    if transpose_kernel:      # flip the spatial axes and swap the feature axes
        for d in dn.rhs_spec[2:]:
            rhs = flip(rhs, d)
        from .numpy._manipulation import swapaxes
        rhs = swapaxes(rhs, dn.rhs_spec[0], dn.rhs_spec[1])
    return conv_general_dilated(lhs, rhs, (1,) * (ndim - 2), pads, strides, rhs_dilation, dn,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count=1):
    """The output shape of an NCHW/OIHW convolution with explicit padding."""
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError(f"Wrong number of explicit pads for convolution: expected "
                        f"{len(lhs_shape) - 2}, got {len(pads)}.")
    padded = np.add(lhs_shape[2:], np.sum(np.array(pads).reshape(-1, 2), axis=1))
    spatial = np.floor_divide(np.subtract(padded, rhs_shape[2:]), strides) + 1
    spatial = np.maximum(0, spatial)
    out = (lhs_shape[0] // batch_group_count, rhs_shape[0])
    return tuple(int(d) for d in out + tuple(spatial))


def conv_general_permutations(dimension_numbers):
    """The permutations taking each operand's layout to NCHW / OIHW / NCHW."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    charpairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for spec, pair in zip((lhs_spec, rhs_spec, out_spec), charpairs):
        for c in pair:
            if spec.count(c) != 1:
                raise TypeError(f"convolution dimension_numbers must contain the characters "
                                f"'{pair[0]}' and '{pair[1]}' exactly once, got {spec}.")
    if len(set(lhs_spec) - set("NC")) != len(lhs_spec) - 2 or \
            set(lhs_spec) - set("NC") != set(rhs_spec) - set("OI") or \
            set(rhs_spec) - set("OI") != set(out_spec) - set("NC"):
        raise TypeError("convolution dimension_numbers must name the same spatial "
                        "dimensions in each operand")
    rhs_perm = (rhs_spec.index("O"), rhs_spec.index("I")) + tuple(
        i for i, c in enumerate(rhs_spec) if c not in "OI")
    spatial = [rhs_spec[i] for i in rhs_perm[2:]]
    lhs_perm = (lhs_spec.index("N"), lhs_spec.index("C")) + tuple(
        lhs_spec.index(c) for c in spatial)
    out_perm = (out_spec.index("N"), out_spec.index("C")) + tuple(
        out_spec.index(c) for c in spatial)
    return lhs_perm, rhs_perm, out_perm


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding,
                             dimension_numbers):
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    lhs_trans = np.take(lhs_shape, dn.lhs_spec)
    rhs_trans = np.take(rhs_shape, dn.rhs_spec)
    out_trans = conv_shape_tuple(lhs_trans, rhs_trans, window_strides, padding)
    return tuple(int(d) for d in np.take(out_trans, np.argsort(dn.out_spec)))


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding,
                               dimension_numbers):
    """Each output spatial size: (input - 1) * stride - kernel + 2 + the padding's total."""
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    lhs_trans = np.take(lhs_shape, dn.lhs_spec)
    rhs_trans = np.take(rhs_shape, dn.rhs_spec)
    if isinstance(padding, str):
        padding = [_transpose_padding(k, s, padding)
                   for k, s in zip(rhs_trans[2:], window_strides)]
    totals = [sum(p) for p in padding]
    spatial = [(i - 1) * s - k + 2 + t for i, k, s, t in zip(lhs_trans[2:], rhs_trans[2:],
                                                            window_strides, totals)]
    out_trans = (int(lhs_trans[0]), int(rhs_trans[0])) + tuple(int(d) for d in spatial)
    return tuple(int(d) for d in np.take(out_trans, np.argsort(dn.out_spec)))
