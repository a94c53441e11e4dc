"""Shape, dtype and reference values of `fft`: one discrete Fourier transform along one axis
(`axis`, non-negative; jnp.fft builds every transform from it; runtime/include/tp_fft.h
computes it in C).

`fft_type`: "fft" and "ifft" (complex to complex), "rfft" (real length-n rows to n//2 + 1
complex values), "irfft" (n//2 + 1 complex values to n reals). `length` is n. `scale`:
"none", "1/n" or "1/sqrt(n)", the factor applied to the (unnormalised) sums.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import ShapedArray

FFT_TYPES = ("fft", "ifft", "rfft", "irfft")
SCALES = {"none": 0, "1/n": 1, "1/sqrt(n)": 2}     # the code tp_fft.h takes
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
_NUMPY_NORM = {("none", False): "backward", ("1/n", True): "backward",
               ("1/n", False): "forward", ("none", True): "forward",
               ("1/sqrt(n)", False): "ortho", ("1/sqrt(n)", True): "ortho"}


def fft_input_width(fft_type: str, length: int) -> int:
    """How long the rows of the operand are."""
    return length // 2 + 1 if fft_type == "irfft" else length


def fft_abstract(x, *, fft_type, length, scale, axis):
    if fft_type not in FFT_TYPES or scale not in SCALES:
        raise ValueError(f"fft: unknown fft_type {fft_type!r} or scale {scale!r}")
    want = dtypes.is_float if fft_type == "rfft" else dtypes.is_complex
    if not want(x.dtype) or x.dtype == np.float16:
        kind = "float32 or float64" if fft_type == "rfft" else "complex64 or complex128"
        raise TypeError(f"fft ({fft_type}): needs a {kind} operand, got {x.dtype}")
    if not 0 <= axis < x.ndim or x.shape[axis] != fft_input_width(fft_type, length) \
            or length < 1:
        raise ValueError(f"fft ({fft_type}, length {length}): axis {axis} of the operand "
                         f"must have {fft_input_width(fft_type, length)} values, got shape "
                         f"{x.shape}")
    shape = list(x.shape)
    if fft_type == "rfft":
        shape[axis] = length // 2 + 1
        return ShapedArray(tuple(shape), _COMPLEX_OF[x.dtype])
    if fft_type == "irfft":
        shape[axis] = length
        return ShapedArray(tuple(shape), dtypes.COMPLEX_PART[x.dtype])
    return ShapedArray(x.shape, x.dtype)


def fft_impl(avals, x, *, fft_type, length, scale, axis):
    out = fft_abstract(*avals, fft_type=fft_type, length=length, scale=scale, axis=axis)
    inverse = fft_type in ("ifft", "irfft")
    function = getattr(np.fft, fft_type)
    result = function(np.asarray(x), n=length, axis=axis, norm=_NUMPY_NORM[scale, inverse])
    return result.astype(out.dtype, copy=False)
