"""Differentiation rules of `fft` and `conv` (forward and transpose), as JAX's
(jax/_src/lax/fft.py, jax/_src/lax/convolution.py), written for transpile's forms of the
primitives: `fft` along one axis with an explicit scale, `conv` in the canonical layouts
lhs (N, D, H, W, C), rhs (KD, KH, KW, I, O). jvp_rules.py and transpose_rules.py register
them.

Both are linear in each operand: an FFT's tangent is the FFT of the tangent, a
convolution's is conv(t_lhs, rhs) + conv(lhs, t_rhs). Transposes: the DFT matrix is
symmetric, so a complex transform transposes to itself; rfft and irfft follow JAX's rules
(pad and take the real part; rfft with doubled interior bins, conjugated). A convolution
transposes to convolutions of the cotangent, with JAX's paddings and the roles of strides
and dilations exchanged.
"""
from __future__ import annotations

import numpy as np

from .. import primitives as P
from ..core import bind
from . import ops

_LAYOUT = ("NDHWC", "DHWIO", "NDHWC")


# -- fft -----------------------------------------------------------------------------------

def fft_jvp(primals, tangents, **params):
    x, = primals
    t, = tangents
    return bind(P.fft, x, **params), (None if t is None else bind(P.fft, t, **params))


def _pad_axis(x, axis, width):
    a = ops.aval(x)
    shape = list(a.shape)
    shape[axis] = width - a.shape[axis]
    return ops.concatenate([x, ops.zeros(type(a)(tuple(shape), a.dtype))], axis)


def fft_transpose(ct, args, *, fft_type, length, scale, axis):
    x, = args
    if fft_type in ("fft", "ifft"):              # symmetric matrix: its own transpose
        return [bind(P.fft, ct, fft_type=fft_type, length=length, scale=scale, axis=axis)]
    if fft_type == "rfft":                       # rfft(x) = fft(complex x)[:n//2 + 1]
        full = bind(P.fft, _pad_axis(ct, axis, length), fft_type="fft", length=length,
                    scale=scale, axis=axis)
        return [ops.unary("real", full)]
    spectrum = bind(P.fft, ct, fft_type="rfft", length=length, scale=scale, axis=axis)
    width = length // 2 + 1
    mask = np.full(width, 2.0)                   # bins that stand for two of the full n
    mask[0] = 1.0
    if length % 2 == 0:
        mask[-1] = 1.0
    a = ops.aval(spectrum)
    shape = [1] * a.ndim
    shape[axis] = width
    weights = ops.broadcast_to(mask.reshape(shape).astype(a.dtype), a.shape)
    return [ops.unary("conj", ops.mul(spectrum, weights))]


# -- conv ----------------------------------------------------------------------------------

def conv_jvp(primals, tangents, **params):
    lhs, rhs = primals
    tl, tr = tangents
    out = bind(P.conv, lhs, rhs, **params)
    parts = []
    if tl is not None:
        parts.append(bind(P.conv, ops.fit(tl, ops.aval(lhs)), rhs, **params))
    if tr is not None:
        parts.append(bind(P.conv, lhs, ops.fit(tr, ops.aval(rhs)), **params))
    tangent = None
    for p in parts:
        tangent = p if tangent is None else ops.add(tangent, p)
    return out, tangent


def _dilate(sizes, dilation):
    return [0 if s == 0 else 1 + d * (s - 1) for s, d in zip(sizes, dilation)]


def _lhs_padding(in_shape, window, strides, out_shape, padding, lhs_dil, rhs_dil):
    lhs_d, rhs_d = _dilate(in_shape, lhs_dil), _dilate(window, rhs_dil)
    out_d = _dilate(out_shape, strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, padding)]
    after = [l + r - 1 - o - b for l, r, o, b in zip(lhs_d, rhs_d, out_d, before)]
    return tuple(zip(before, after))


def _rhs_padding(in_shape, window, strides, out_shape, padding, lhs_dil, rhs_dil):
    lhs_d, rhs_d = _dilate(in_shape, lhs_dil), _dilate(window, rhs_dil)
    out_d = _dilate(out_shape, strides)
    lows = [lo for lo, _ in padding]
    highs = [o - l + r - lo - 1 for o, l, r, lo in zip(out_d, lhs_d, rhs_d, lows)]
    return tuple(zip(lows, highs))


def _conv_lhs_cotangent(ct, rhs, lhs_aval, *, window_strides, padding, lhs_dilation,
                        rhs_dilation, feature_group_count):
    from ..lax_conv import conv_general_dilated
    kd, kh, kw, i, o = ops.aval(rhs).shape
    g = feature_group_count
    # (K, I, G, O/G) -> (K, O/G, G, I): input and output features exchange, groups kept
    swapped = ops.reshape(ops.transpose(ops.reshape(rhs, (kd, kh, kw, i, g, o // g)),
                                        (0, 1, 2, 5, 4, 3)), (kd, kh, kw, o // g, g * i))
    flipped = bind(P.rev, swapped, dimensions=(0, 1, 2))
    pads = _lhs_padding(lhs_aval.shape[1:4], ops.aval(rhs).shape[:3], window_strides,
                        ops.aval(ct).shape[1:4], padding, lhs_dilation, rhs_dilation)
    return conv_general_dilated(ct, flipped, lhs_dilation, pads, lhs_dilation=window_strides,
                                rhs_dilation=rhs_dilation, dimension_numbers=_LAYOUT,
                                feature_group_count=g)


def _conv_rhs_cotangent(ct, lhs, rhs_aval, *, window_strides, padding, lhs_dilation,
                        rhs_dilation, feature_group_count):
    from ..lax_conv import conv_general_dilated
    pads = _rhs_padding(ops.aval(lhs).shape[1:4], rhs_aval.shape[:3], window_strides,
                        ops.aval(ct).shape[1:4], padding, lhs_dilation, rhs_dilation)
    # lhs's features act as the batch, its batch is contracted, ct's features are outputs
    return conv_general_dilated(lhs, ct, rhs_dilation, pads, lhs_dilation=lhs_dilation,
                                rhs_dilation=window_strides,
                                dimension_numbers=("CDHWN", "IDHWO", "DHWNC"),
                                batch_group_count=feature_group_count)


def conv_transpose(ct, args, **params):
    from .transpose_rules import is_linear
    lhs, rhs = args
    if is_linear(lhs) and is_linear(rhs):
        raise NotImplementedError("conv: transposing a convolution of two tangents (it is "
                                  "bilinear, not linear, in them)")
    ct = ops.instantiate(ct, ops.aval(ct)) if ct is not None else ct
    if is_linear(lhs):
        out = _conv_lhs_cotangent(ct, rhs, lhs.aval, **params)
        return [ops.fit(out, lhs.aval), None]
    out = _conv_rhs_cotangent(ct, lhs, rhs.aval, **params)
    return [None, ops.fit(out, rhs.aval)]
