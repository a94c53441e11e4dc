"""Complex numbers: the parts of a complex array, its conjugate and its angle.

`real` and `imag` bind the `real`/`imag` primitives (whose result is the part's real dtype);
on a real operand they are the operand itself and zeros, as in NumPy. `conj` binds the
`conj` primitive (NumPy's `conjugate` ufunc), which is the identity on real dtypes.
"""
from __future__ import annotations

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind, is_python_scalar
from ._creation import zeros_like
from ._elementwise import arctan2
from ._util import elementwise, operand


def iscomplexobj(x) -> bool:
    """Whether `x` has a complex dtype (its values do not matter, so it is never traced)."""
    return dtypes.is_complex(aval_of(operand(x)).dtype)


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


def conjugate(x):
    """The complex conjugate, elementwise (NumPy's numpy.conjugate)."""
    return elementwise("conj", x)


conj = conjugate


def angle(z, deg=False):
    """The counterclockwise angle from the positive real axis, as NumPy's numpy.angle:
    arctan2(imag, real), and arctan2(0, z) for real input (float64 for integers)."""
    z = operand(z)
    if iscomplexobj(z):
        a = arctan2(imag(z), real(z))
    else:
        a = arctan2(0, z)
    return a * (180 / 3.141592653589793) if deg else a
