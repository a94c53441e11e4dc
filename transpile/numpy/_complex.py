"""Complex numbers: the parts of a complex array, its conjugate and its angle.

`real` and `imag` bind the `real`/`imag` primitives (whose result is the part's real dtype);
on a real operand they are the operand itself and zeros, as in NumPy. `conj` (in
_elementwise) binds the `conj` primitive (NumPy's `conjugate` ufunc), the identity on reals.
`complex_power` is `x ** y` on a complex array, with NumPy's operator shortcuts.
"""
from __future__ import annotations

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind, is_python_scalar
from ._creation import zeros_like
from ._elementwise import arctan2, conj, conjugate   # noqa: F401  (re-exported)
from ..base.operands import operand


def iscomplexobj(x) -> bool:
    """Whether `x` has a complex dtype (its values do not matter, so it is never traced).
    Any other object (None, a string) is not complex, as in NumPy and JAX."""
    try:
        x = operand(x)
    except TypeError:
        return False
    return dtypes.is_complex(aval_of(x).dtype)


def real(val):
    """The real part (NumPy's numpy.real)."""
    val = operand(val)
    if is_python_scalar(val):
        return val.real
    if not iscomplexobj(val):
        return val
    return bind(P.get("real"), val)


def imag(val):
    """The imaginary part (NumPy's numpy.imag): zeros of the same dtype for real input."""
    val = operand(val)
    if is_python_scalar(val):
        return val.imag
    if not iscomplexobj(val):
        return zeros_like(val)
    return bind(P.get("imag"), val)


def angle(z, deg=False):
    """The counterclockwise angle from the positive real axis, as NumPy's numpy.angle:
    arctan2(imag, real), and arctan2(0, z) for real input (float64 for integers)."""
    z = operand(z)
    if iscomplexobj(z):
        a = arctan2(imag(z), real(z))
    else:
        a = arctan2(0, z)
    return a * (180 / 3.141592653589793) if deg else a


# NumPy's `array ** scalar` shortcuts for inexact arrays: these exponents call another ufunc,
# whose complex results differ in the last bits from `power`'s (square is the fma product).
_POWER_SHORTCUTS = {(int, 2): "square", (int, -1): "reciprocal", (float, 0.5): "sqrt"}


def power_operator(x, y):
    """`x ** y` as NumPy's operator computes it (np.power otherwise)."""
    from . import _elementwise as E
    shortcut = _POWER_SHORTCUTS.get((type(y), y)) if type(y) in (int, float) else None
    if shortcut is not None and iscomplexobj(x):
        return getattr(E, shortcut)(x)
    return E.power(x, y)
