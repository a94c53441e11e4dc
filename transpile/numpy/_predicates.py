"""Questions about values and objects: `isposinf`, `isneginf`, `isreal`, `iscomplex`,
`isrealobj`, `isscalar`, `iterable`; and `i0`, the modified Bessel function (exp(|x|) times
the scaled one jax.scipy.special provides)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ._complex import imag, iscomplexobj
from ._util import astype, operand


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


def i0(x):
    """The modified Bessel function of the first kind, order 0, of real x."""
    from ..scipy._bessel import i0e
    x = operand(x)
    x = astype(x, dtypes.float_for_integers(aval_of(x).dtype))
    if not dtypes.is_float(aval_of(x).dtype):
        raise ValueError(f"Unsupported input type to i0: {aval_of(x).dtype}")
    ax = E.abs(x)
    return E.multiply(E.exp(ax), i0e(ax))
