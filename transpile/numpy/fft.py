"""`transpile.numpy.fft`: NumPy's and JAX's discrete Fourier transforms.

Every transform is a sequence of one-dimensional ones, each the primitive `fft` along one
axis (rules/fourier.py), which the C backend runs through runtime/include/tp_fft.h: a
Stockham FFT with radix-4/2/3/5 butterflies, a generic one for other small primes and
Bluestein's algorithm for large prime factors, so every length costs O(n log n). Along a
leading axis the helper gathers blocks of columns itself (no transposed copy).

Dtypes are NumPy 2's (which JAX's agree with once x64 is enabled): float32 and complex64
compute in single precision (complex64 results, float32 from irfft), everything else in
double. `norm` is "backward" (the default), "ortho" or "forward".
"""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._manipulation import pad, roll
from ..base.operands import astype, operand, shape_of

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
           "irfft2", "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]

_NORMS = ("backward", "ortho", "forward")


def _scale(norm, inverse: bool) -> str:
    """The factor the transform applies to its sums, from NumPy's `norm` name."""
    if norm is None:
        norm = "backward"
    if norm not in _NORMS:
        raise ValueError(f"fft: norm must be one of {_NORMS} or None, got {norm!r}")
    if norm == "ortho":
        return "1/sqrt(n)"
    return "1/n" if (norm == "backward") == inverse else "none"


def _complex_operand(a):
    """NumPy's dtype for a complex transform: float32 -> complex64, other reals -> complex128."""
    dt = aval_of(a).dtype
    if dtypes.is_complex(dt):
        return a
    return astype(a, dtypes.complex64 if dt == dtypes.float32 else dtypes.complex128)


def _real_operand(a):
    dt = aval_of(a).dtype
    if dtypes.is_complex(dt):
        raise TypeError(f"rfft: needs a real operand, got {dt}; use fft for complex input")
    return a if dt in (dtypes.float32, dtypes.float64) else astype(a, dtypes.float64)


def _fit(a, axis: int, width: int):
    """Crop or zero-pad axis `axis` to `width` values, as NumPy's `n=` does."""
    have = shape_of(a)[axis]
    if have > width:
        return a[(slice(None),) * axis + (slice(0, width),)]
    if have < width:
        widths = [(0, 0)] * len(shape_of(a))
        widths[axis] = (0, width - have)
        return pad(a, widths)
    return a


def _length(n, default: int, what: str) -> int:
    if n is None:
        return default
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{what}: invalid number of data points ({n}) specified; n must "
                         "be at least 1")
    return n


def _along(a, axis, transform):
    """Apply `transform(a, axis)` with `axis` checked and made non-negative."""
    ndim = len(shape_of(a))
    if ndim == 0:
        raise ValueError("fft: needs an array of at least one dimension, got a scalar")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension "
                                      f"{ndim}")
    return transform(a, axis % ndim)


def _bind_fft(a, fft_type, length, scale, axis):
    """The primitive; an empty batch (no values to read) is an empty constant."""
    params = dict(fft_type=fft_type, length=length, scale=scale, axis=axis)
    if aval_of(a).size == 0:
        from ..rules.fourier import fft_abstract
        out = fft_abstract(aval_of(a), **params)
        return np.zeros(out.shape, out.dtype)
    return bind(P.fft, a, **params)


def _c2c(a, n, axis, norm, inverse):
    a = _complex_operand(operand(a))
    what = "ifft" if inverse else "fft"

    def transform(x, ax):
        length = _length(n, shape_of(x)[ax], what)
        return _bind_fft(_fit(x, ax, length), what, length, _scale(norm, inverse), ax)
    return _along(a, axis, transform)


def fft(a, n=None, axis=-1, norm=None):
    return _c2c(a, n, axis, norm, inverse=False)


def ifft(a, n=None, axis=-1, norm=None):
    return _c2c(a, n, axis, norm, inverse=True)


def rfft(a, n=None, axis=-1, norm=None):
    a = _real_operand(operand(a))

    def transform(x, ax):
        length = _length(n, shape_of(x)[ax], "rfft")
        return _bind_fft(_fit(x, ax, length), "rfft", length, _scale(norm, False), ax)
    return _along(a, axis, transform)


def irfft(a, n=None, axis=-1, norm=None):
    a = _complex_operand(operand(a))

    def transform(x, ax):
        length = _length(n, 2 * (shape_of(x)[ax] - 1), "irfft")
        return _bind_fft(_fit(x, ax, length // 2 + 1), "irfft", length, _scale(norm, True),
                         ax)
    return _along(a, axis, transform)


def _swap_direction(norm):
    """The norm whose scale a transform in the other direction applies (hfft, ihfft)."""
    _scale(norm, False)                          # validates the name
    return {None: "forward", "backward": "forward", "forward": "backward"}.get(norm, norm)


def hfft(a, n=None, axis=-1, norm=None):
    """The transform of a Hermitian-symmetric signal given by its first half: real."""
    from ._complex import conj
    return irfft(conj(_complex_operand(operand(a))), n, axis, _swap_direction(norm))


def ihfft(a, n=None, axis=-1, norm=None):
    from ._complex import conj
    return conj(rfft(a, n, axis, _swap_direction(norm)))


def _axes_and_sizes(a, s, axes, what):
    """NumPy's fftn rules: axes default to the last len(s) axes (all axes without s)."""
    ndim = len(shape_of(a))
    if axes is None:
        axes = tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim))
    axes = tuple(operator.index(ax) for ax in axes)
    if s is None:
        s = [None] * len(axes)
    s = list(s)
    if len(s) != len(axes):
        raise ValueError(f"{what}: s and axes must have the same length, got {len(s)} and "
                         f"{len(axes)}")
    return s, axes


def fftn(a, s=None, axes=None, norm=None):
    a = operand(a)
    s, axes = _axes_and_sizes(a, s, axes, "fftn")
    for n, ax in reversed(list(zip(s, axes))):
        a = fft(a, n, ax, norm)
    return a if axes else _complex_operand(a)


def ifftn(a, s=None, axes=None, norm=None):
    a = operand(a)
    s, axes = _axes_and_sizes(a, s, axes, "ifftn")
    for n, ax in reversed(list(zip(s, axes))):
        a = ifft(a, n, ax, norm)
    return a if axes else _complex_operand(a)


def rfftn(a, s=None, axes=None, norm=None):
    a = operand(a)
    s, axes = _axes_and_sizes(a, s, axes, "rfftn")
    if not axes:
        raise ValueError("rfftn: needs at least one axis to transform")
    a = rfft(a, s[-1], axes[-1], norm)
    for n, ax in reversed(list(zip(s[:-1], axes[:-1]))):
        a = fft(a, n, ax, norm)
    return a


def irfftn(a, s=None, axes=None, norm=None):
    a = operand(a)
    s, axes = _axes_and_sizes(a, s, axes, "irfftn")
    if not axes:
        raise ValueError("irfftn: needs at least one axis to transform")
    for n, ax in zip(s[:-1], axes[:-1]):
        a = ifft(a, n, ax, norm)
    return irfft(a, s[-1], axes[-1], norm)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    return fftn(a, s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    return ifftn(a, s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    return rfftn(a, s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    return irfftn(a, s, axes, norm)


def _frequencies(integers, n, d, dtype):
    """integers / (n d) as NumPy computes it: times the reciprocal (d may be traced)."""
    if n < 1:
        raise ValueError(f"fftfreq: n must be a positive integer, got {n}")
    scale = 1.0 / (n * d)
    result = np.asarray(integers) * scale if np.ndim(scale) == 0 and not hasattr(
        scale, "aval") else operand(np.asarray(integers)) * scale
    return result if dtype is None else astype(result, dtype)


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    n = operator.index(n)
    integers = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return _frequencies(integers, n, d, dtype)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    n = operator.index(n)
    return _frequencies(np.arange(0, n // 2 + 1), n, d, dtype)


def _shift(x, axes, sign):
    x = operand(x)
    ndim = len(shape_of(x))
    if axes is None:
        axes = tuple(range(ndim))
    elif isinstance(axes, int):
        axes = (axes,)
    shape = shape_of(x)
    shifts = tuple(sign * (shape[ax] // 2) for ax in axes)
    return roll(x, shifts, tuple(axes)) if axes else x


def fftshift(x, axes=None):
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    return _shift(x, axes, -1)
