"""Questions about values and objects: `isposinf`, `isneginf`, `isreal`, `iscomplex`,
`isrealobj`, `isscalar`, `iterable`; and `i0`, the modified Bessel function (exp(|x|) times
the scaled one jax.scipy.special provides)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ._complex import imag, iscomplexobj
from ..base.operands import astype, operand


def _isposneginf(x, infinity, out):
    if out is not None:
        raise NotImplementedError("The 'out' argument to isneginf/isposinf is not supported.")
    x = operand(x)
    dt = aval_of(x).dtype
    if dtypes.is_complex(dt):
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    if dtypes.is_float(dt):
        return E.equal(x, astype(infinity, dt))
    return E.not_equal(E.equal(x, x), True)     # all False, in x's shape


def isposinf(x, /, out=None):
    return _isposneginf(x, np.inf, out)


def isneginf(x, /, out=None):
    return _isposneginf(x, -np.inf, out)


def isreal(x):
    """Elementwise: is the imaginary part zero (always, for real dtypes)?"""
    return E.equal(imag(operand(x)), 0)


def iscomplex(x):
    """Elementwise: is the imaginary part non-zero?"""
    return E.not_equal(imag(operand(x)), 0)


def isrealobj(x) -> bool:
    return not iscomplexobj(x)


def isscalar(element) -> bool:
    """JAX's: Python and NumPy scalars and zero-dimensional arrays (traced ones too)."""
    if isinstance(element, (Tracer, np.ndarray)):     # eager arrays are ndarrays
        return element.ndim == 0
    return isinstance(element, (bool, int, float, complex, np.generic))


def iterable(y) -> bool:
    """Whether iter(y) works."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


_SERIES_LIMIT, _SERIES_TERMS, _ASYMPTOTIC_TERMS = 30.0, 64, 20


def i0(x):
    """The modified Bessel function of the first kind, order 0, of real x: the power series
    sum ((x/2)^2)^k / (k!)^2 (all terms positive) up to |x| = 30, Hankel's expansion
    exp(|x|) / sqrt(2 pi |x|) * sum prod (2j-1)^2 / (8 j |x|) beyond; in float64, rounded
    once to x's float dtype."""
    import math
    x = operand(x)
    dt = dtypes.float_for_integers(aval_of(x).dtype)
    if not dtypes.is_float(dt):
        raise ValueError(f"Unsupported input type to i0: {aval_of(x).dtype}")
    ax = E.abs(astype(x, np.float64))
    small = E.minimum(ax, _SERIES_LIMIT)
    quarter_squared = E.square(E.multiply(small, 0.5))
    term = series = E.add(E.multiply(small, 0.0), 1.0)
    for k in range(1, _SERIES_TERMS):
        term = E.multiply(term, E.divide(quarter_squared, float(k * k)))
        series = E.add(series, term)
    large = E.maximum(ax, _SERIES_LIMIT)
    term = total = E.add(E.multiply(large, 0.0), 1.0)
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = E.multiply(term, E.divide(float((2 * k - 1) ** 2), E.multiply(8.0 * k, large)))
        total = E.add(total, term)
    # exp(|x|) in two halves, so the product overflows only where I0 itself does
    half = E.exp(E.multiply(large, 0.5))
    asymptotic = E.multiply(E.multiply(half, E.divide(total, E.sqrt(
        E.multiply(2 * math.pi, large)))), half)
    return astype(E.where(E.less_equal(ax, _SERIES_LIMIT), series, asymptotic), dt)
