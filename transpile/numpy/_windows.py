"""Window functions of static length M: `bartlett`, `blackman`, `hamming`, `hanning` and
`kaiser` (whose shape parameter beta may be traced). NumPy's formulas in the default float
(float32 under JAX's rules without x64)."""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from ..core import Tracer
from . import _elementwise as E
from ..base.operands import astype, operand


def _length(M, name) -> int:
    if isinstance(M, Tracer):
        raise TypeError(f"{name}: M must be static (it is the window's length)")
    return operator.index(M)


def _positions(M):
    return np.arange(M, dtype=np.float64)


def _window(values):
    return astype(values, dtypes.default_float())


def bartlett(M):
    M = _length(M, "bartlett")
    if M <= 1:
        return _window(np.ones(max(M, 0)))
    n = _positions(M)
    return _window(1 - np.abs(2 * n + 1 - M) / (M - 1))


def blackman(M):
    M = _length(M, "blackman")
    if M <= 1:
        return _window(np.ones(max(M, 0)))
    n = _positions(M)
    return _window(0.42 - 0.5 * np.cos(2 * np.pi * n / (M - 1)) +
                   0.08 * np.cos(4 * np.pi * n / (M - 1)))


def hamming(M):
    M = _length(M, "hamming")
    if M <= 1:
        return _window(np.ones(max(M, 0)))
    return _window(0.54 - 0.46 * np.cos(2 * np.pi * _positions(M) / (M - 1)))


def hanning(M):
    M = _length(M, "hanning")
    if M <= 1:
        return _window(np.ones(max(M, 0)))
    return _window(0.5 * (1 - np.cos(2 * np.pi * _positions(M) / (M - 1))))


def kaiser(M, beta):
    """I0(beta * sqrt(1 - ((n - alpha) / alpha)^2)) / I0(beta), alpha = (M - 1) / 2."""
    from ._predicates import i0
    M = _length(M, "kaiser")
    if M <= 1:
        return _window(np.ones(max(M, 0)))
    alpha = 0.5 * (M - 1)
    shape = np.sqrt(1 - ((_positions(M) - alpha) / alpha) ** 2)
    dt = dtypes.default_float()
    beta = astype(operand(beta), dt)
    return E.divide(i0(E.multiply(beta, astype(shape, dt))), i0(beta))
