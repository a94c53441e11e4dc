"""`transpile.scipy.signal`: jax.scipy.signal's convolutions (convolve, correlate,
convolve2d, correlate2d, fftconvolve), with JAX's output shapes and centring.

The direct methods are one lax.conv_general_dilated each (runtime/include/tp_conv.h in C),
with the kernel flipped and the padding of the mode, written as JAX writes them so that
'same' centres an even-length kernel where JAX does. fftconvolve multiplies spectra
(transpile.numpy.fft). The direct methods take real operands; complex ones raise.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from ..lax_conv import conv_general_dilated
from ..numpy import fft as _fft
from ..numpy._shape import flip
from ..base.operands import astype, operand

__all__ = ["convolve", "convolve2d", "correlate", "correlate2d", "fftconvolve"]

_MODES = ("full", "same", "valid")


def _inexact(in1, in2, what):
    """JAX's promote_dtypes_inexact: one float dtype for both (integers become float64)."""
    a, b = operand(in1), operand(in2)
    dt = np.result_type(aval_of(a).dtype, aval_of(b).dtype)
    if dtypes.is_complex(dt):
        raise NotImplementedError(f"{what}: complex operands are not supported by the direct "
                                  "method; use method='fft' or fftconvolve")
    if not np.issubdtype(dt, np.floating) or dt == np.float16:
        dt = dtypes.float64
    return astype(a, dt), astype(b, dt)


def _check(in1, in2, mode, what):
    if mode not in _MODES:
        raise ValueError(f"{what}: mode must be one of {list(_MODES)}, got {mode!r}")
    s1, s2 = aval_of(in1).shape, aval_of(in2).shape
    if len(s1) != len(s2):
        raise ValueError(f"{what}: in1 and in2 must have the same number of dimensions, got "
                         f"shapes {s1} and {s2}")
    if 0 in s1 or 0 in s2:
        raise ValueError(f"{what}: zero-size arrays are not supported, got shapes {s1} and "
                         f"{s2}")


def _convolve_nd(in1, in2, mode, what):
    in1, in2 = _inexact(in1, in2, what)
    _check(in1, in2, mode, what)
    s1, s2 = aval_of(in1).shape, aval_of(in2).shape
    no_swap = all(a >= b for a, b in zip(s1, s2))
    swap = all(a <= b for a, b in zip(s1, s2))
    if not (no_swap or swap):
        raise ValueError(f"{what}: one input must be smaller than the other in every "
                         f"dimension, got shapes {s1} and {s2}")
    shape_o = s2
    if swap:
        in1, in2 = in2, in1
    shape = aval_of(in2).shape
    in2 = flip(in2)
    if mode == "valid":
        padding = [(0, 0)] * len(shape)
    elif mode == "same":
        padding = [(s - 1 - (o - 1) // 2, s - o + (o - 1) // 2) for s, o in zip(shape, shape_o)]
    else:
        padding = [(s - 1, s - 1) for s in shape]
    result = conv_general_dilated(in1[None, None], in2[None, None], (1,) * len(shape),
                                  padding)
    return result[0, 0]


def convolve(in1, in2, mode="full", method="auto", precision=None):
    if method == "fft":
        return fftconvolve(in1, in2, mode=mode)
    if method not in ("auto", "direct"):
        raise ValueError(f"convolve: got method={method!r}; expected 'auto', 'fft' or "
                         "'direct'")
    return _convolve_nd(in1, in2, mode, "convolve")


def correlate(in1, in2, mode="full", method="auto", precision=None):
    return convolve(in1, flip(operand(in2)), mode, method=method, precision=precision)


def _two_dimensional(in1, in2, boundary, fillvalue, what):
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{what}() only supports boundary='fill', fillvalue=0")
    if np.ndim(in1) != 2 or np.ndim(in2) != 2:
        raise ValueError(f"{what}() only supports 2-dimensional inputs, got shapes "
                         f"{np.shape(in1)} and {np.shape(in2)}")


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    _two_dimensional(in1, in2, boundary, fillvalue, "convolve2d")
    return _convolve_nd(in1, in2, mode, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    """JAX's arrangement of flips, which decides where 'same' and swapped inputs land."""
    _two_dimensional(in1, in2, boundary, fillvalue, "correlate2d")
    in1, in2 = operand(in1), operand(in2)
    s1, s2 = np.shape(in1), np.shape(in2)
    swap = all(a <= b for a, b in zip(s1, s2))
    same_shape = s1 == s2
    if mode == "same" or (mode == "valid" and not (swap and not same_shape)) \
            or (mode == "full" and not swap):
        return flip(_convolve_nd(flip(in1), in2, mode, "correlate2d"))
    return _convolve_nd(flip(in2), in1, mode, "correlate2d")


def fftconvolve(in1, in2, mode="full", axes=None):
    """The product of the operands' spectra (over every axis; `axes` is not supported)."""
    if axes is not None:
        raise NotImplementedError("fftconvolve: axes= is not supported; transform all axes")
    in1, in2 = operand(in1), operand(in2)
    _check(in1, in2, mode, "fftconvolve")
    s1, s2 = aval_of(in1).shape, aval_of(in2).shape
    if mode == "valid":
        if all(a <= b for a, b in zip(s1, s2)):
            in1, in2, s1, s2 = in2, in1, s2, s1
        elif not all(a >= b for a, b in zip(s1, s2)):
            raise ValueError("fftconvolve: for 'valid' mode, one input must be at least as "
                             f"large as the other in every dimension, got {s1} and {s2}")
    full = tuple(a + b - 1 for a, b in zip(s1, s2))
    complex_ = dtypes.is_complex(aval_of(in1).dtype) or dtypes.is_complex(aval_of(in2).dtype)
    if complex_:
        conv = _fft.ifftn(_fft.fftn(in1, full) * _fft.fftn(in2, full), full)
    else:
        a, b = _inexact(in1, in2, "fftconvolve")
        conv = _fft.irfftn(_fft.rfftn(a, full) * _fft.rfftn(b, full), full)
    out = {"full": full, "same": s1, "valid": tuple(a - b + 1 for a, b in zip(s1, s2))}[mode]
    start = [(f - o) // 2 for f, o in zip(full, out)]
    return conv[tuple(slice(b, b + o) for b, o in zip(start, out))]
