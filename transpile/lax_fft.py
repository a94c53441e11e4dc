"""`lax.fft(x, fft_type, fft_lengths)` and `lax.FftType`: XLA's n-dimensional transform over
the last len(fft_lengths) axes, through `transpile.numpy.fft`'s transforms (one `fft`
primitive per axis). Inputs convert as JAX's: to complex for FFT, IFFT and IRFFT, to a float
for RFFT (which refuses complex input)."""
from __future__ import annotations

import enum

import numpy as np

from . import dtypes
from .base.operands import astype, operand, shape_of
from .core import aval_of
from .numpy import fft as _fft

__all__ = ["FftType", "fft"]


class FftType(enum.IntEnum):
    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


def _fft_type(fft_type) -> FftType:
    if isinstance(fft_type, FftType):
        return fft_type
    if isinstance(fft_type, str) and fft_type.upper() in FftType.__members__:
        return FftType[fft_type.upper()]
    if isinstance(fft_type, str):
        raise ValueError(f"Unknown FFT type '{fft_type}'; use 'fft', 'ifft', 'rfft' or "
                         "'irfft' (or a lax.FftType)")
    raise TypeError(f"Unknown FFT type value '{fft_type}'; use a lax.FftType or its name")


def _complex_for(dt):
    """complex64 from float32 (and from the small floats and ints that widen to it), else
    complex128: JAX's to_complex_dtype."""
    return np.result_type(dtypes.float_for_integers(dt), np.complex64)


def fft(x, fft_type, fft_lengths):
    typ = _fft_type(fft_type)
    x = operand(x)
    dt = aval_of(x).dtype
    if typ is FftType.RFFT:
        if dtypes.is_complex(dt):
            raise ValueError("only real valued inputs supported for rfft")
        x = astype(x, dtypes.float_for_integers(dt))
    else:
        x = astype(x, _complex_for(dt))
    lengths = tuple(int(n) for n in fft_lengths)
    if not lengths:
        return x
    axes = tuple(range(-len(lengths), 0))
    minor = shape_of(x)[len(shape_of(x)) - len(lengths):]
    if typ is FftType.IRFFT:
        expected = lengths[:-1] + (lengths[-1] // 2 + 1,)
    else:
        expected = lengths
    if len(minor) != len(lengths) or tuple(minor) != expected:
        raise ValueError(f"FFT input shape {shape_of(x)} minor dimensions must be equal to "
                         f"fft_lengths {lengths}" + (" (the last one halved plus one for "
                                                     "IRFFT)" if typ is FftType.IRFFT else ""))
    if typ is FftType.FFT:
        return _fft.fftn(x, axes=axes)
    if typ is FftType.IFFT:
        return _fft.ifftn(x, axes=axes)
    if typ is FftType.RFFT:
        return _fft.rfftn(x, axes=axes)
    return _fft.irfftn(x, s=lengths, axes=axes)
