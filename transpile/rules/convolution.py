"""Shape, dtype and reference values of `conv`: a convolution in one canonical layout, to
which lax.conv_general_dilated brings every other (transpile/lax_conv.py); the C backend
runs it through runtime/include/tp_conv.h.

Operands: lhs (N, D, H, W, C) and rhs (KD, KH, KW, I, O), both float32 or both float64,
with C = I * feature_group_count; result (N, OD, OH, OW, O). Params, one entry per spatial
axis: window_strides, padding ((before, after) pairs; negative crops), lhs_dilation,
rhs_dilation; and feature_group_count.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import ShapedArray


def conv_output_size(size, kernel, stride, pad, lhs_dil, rhs_dil) -> int:
    """Output length along one axis (XLA's: the dilated, padded input over the dilated
    window, every `stride`-th position; zero when the window does not fit)."""
    padded = (size - 1) * lhs_dil + 1 + pad[0] + pad[1] if size else pad[0] + pad[1]
    window = (kernel - 1) * rhs_dil + 1
    return max(0, (padded - window) // stride + 1) if kernel else 0


def conv_abstract(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                  feature_group_count):
    if lhs.ndim != 5 or rhs.ndim != 5:
        raise ValueError(f"conv: needs 5-D operands (N, D, H, W, C) and (KD, KH, KW, I, O), "
                         f"got {lhs.shape} and {rhs.shape}")
    if lhs.dtype != rhs.dtype or lhs.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"conv: needs two float32 or two float64 operands, got {lhs.dtype} "
                        f"and {rhs.dtype}")
    groups = feature_group_count
    if lhs.shape[4] != rhs.shape[3] * groups or rhs.shape[4] % groups:
        raise ValueError(f"conv: {lhs.shape[4]} input features do not match the kernel's "
                         f"{rhs.shape[3]} x feature_group_count {groups}, or its "
                         f"{rhs.shape[4]} output features are not divisible by it")
    spatial = tuple(conv_output_size(*args) for args in zip(
        lhs.shape[1:4], rhs.shape[:3], window_strides, padding, lhs_dilation, rhs_dilation))
    return ShapedArray((lhs.shape[0],) + spatial + (rhs.shape[4],), lhs.dtype)


def _dilate_and_pad(x, padding, lhs_dilation):
    """The input as the convolution sees it: dilated (zeros between elements), padded."""
    n, *spatial, c = x.shape
    dilated = [(s - 1) * d + 1 if s else 0 for s, d in zip(spatial, lhs_dilation)]
    grown = [s + max(lo, 0) + max(hi, 0) for s, (lo, hi) in zip(dilated, padding)]
    out = np.zeros([n, *grown, c], x.dtype)
    at = tuple(slice(max(lo, 0), max(lo, 0) + s, d)
               for (lo, _), s, d in zip(padding, dilated, lhs_dilation))
    out[(slice(None),) + at] = x
    crop = tuple(slice(-min(lo, 0), g + min(hi, 0)) for (lo, hi), g in zip(padding, grown))
    return out[(slice(None),) + crop]


def conv_impl(avals, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
              feature_group_count):
    out_aval = conv_abstract(*avals, window_strides=window_strides, padding=padding,
                             lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                             feature_group_count=feature_group_count)
    x = _dilate_and_pad(np.asarray(lhs), padding, lhs_dilation)
    w = np.asarray(rhs)
    out = np.zeros(out_aval.shape, out_aval.dtype)
    od, oh, ow = out_aval.shape[1:4]
    groups, (_, _, _, i, o) = feature_group_count, w.shape
    per_group = o // groups
    sd, sh, sw = window_strides
    for kd, kh, kw in np.ndindex(*w.shape[:3]):
        d0, h0, w0 = (k * r for k, r in zip((kd, kh, kw), rhs_dilation))
        patch = x[:, d0:d0 + (od - 1) * sd + 1:sd, h0:h0 + (oh - 1) * sh + 1:sh,
                  w0:w0 + (ow - 1) * sw + 1:sw, :]
        if 0 in patch.shape[1:4] and out.size:
            continue
        for g in range(groups):
            out[..., g * per_group:(g + 1) * per_group] += np.tensordot(
                patch[..., g * i:(g + 1) * i], w[kd, kh, kw, :, g * per_group:(g + 1) * per_group],
                axes=([4], [0]))
    return out
