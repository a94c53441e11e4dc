"""Floating-point numbers taken apart and put together: `frexp`, `ldexp`, `modf`, `spacing`,
and the float-only relatives of existing ufuncs (`fabs`, `fmod`, `divmod`, `float_power`).

Powers of two are formed with `exp2` of an integral value, which is exact, and applied in
two halves so that neither half overflows or underflows where the result does not.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ..base.operands import astype, check_python_ints_fit, operand, weak_flags


def _inexact(x, name):
    """x in the float dtype the ufunc `name` computes it in: JAX's promote_args_inexact under
    JAX's rules (float32 for small integers), NumPy's loop otherwise (the smallest float
    that holds the integer: float16 for int8 and bool, float32 for 16-bit, float64 beyond);
    complex inputs are refused by the callers that need reals."""
    x = operand(x)
    dt = aval_of(x).dtype
    if dtypes.is_inexact(dt) or dtypes.config.jax_rules():
        return astype(x, dtypes.float_for_integers(dt))
    return astype(x, _numpy_loop_float(name, dt))


def _numpy_loop_float(name, dt):
    """The float NumPy's ufunc `name` computes an integer dtype in (ldexp's exponent is int)."""
    empty = np.zeros(0, dt)
    extra = (np.zeros(0, np.int32),) if name == "ldexp" else ()
    out = getattr(np, name)(empty, *extra)
    return np.dtype((out[0] if isinstance(out, tuple) else out).dtype)


def _real_inexact(x, name):
    x = _inexact(x, name)
    if dtypes.is_complex(aval_of(x).dtype):
        raise TypeError(f"{name} does not support complex-valued inputs; pass the real or "
                        f"imaginary part (tnp.real(x), tnp.imag(x))")
    return x


def _times_power_of_two(x, e):
    """x * 2**e for an integral float e, in two exact halves."""
    half = E.floor(E.multiply(e, 0.5))
    return E.multiply(E.multiply(x, E.exp2(half)), E.exp2(E.subtract(e, half)))


def frexp(x, /):
    """(mantissa, exponent) with x = mantissa * 2**exponent and 0.5 <= |mantissa| < 1; zero,
    inf and NaN give themselves and exponent 0. The exponent is int32, as in NumPy and JAX."""
    x = _real_inexact(x, "frexp")
    special = E.logical_or(E.logical_not(E.isfinite(x)), E.equal(x, 0))
    safe = E.where(special, astype(1, aval_of(x).dtype), x)
    e = E.add(E.floor(E.log2(E.abs(safe))), 1)
    m = _times_power_of_two(safe, E.negative(e))
    # log2 may round across a power of two: one step either way corrects it.
    too_big = E.greater_equal(E.abs(m), 1)
    m, e = E.where(too_big, E.multiply(m, 0.5), m), E.where(too_big, E.add(e, 1), e)
    too_small = E.less(E.abs(m), 0.5)
    m, e = E.where(too_small, E.multiply(m, 2), m), E.where(too_small, E.subtract(e, 1), e)
    return E.where(special, x, m), astype(E.where(special, 0, e), np.int32)


def ldexp(x1, x2, /):
    """x1 * 2**x2 for an integer x2: x1's mantissa times 2**(its exponent + x2), that power
    clipped to just past the dtype's range (so it stays exact) and applied in two halves."""
    x1, x2 = operand(x1), operand(x2)
    d1, d2 = aval_of(x1).dtype, aval_of(x2).dtype
    if dtypes.is_complex(d1) or dtypes.is_inexact(d2):
        raise ValueError(f"ldexp not supported for input types ({d1}, {d2}): x1 must be real "
                         f"and x2 an integer")
    x1 = _inexact(x1, "ldexp")
    from ._dtype_api import finfo          # NumPy's finfo refuses bfloat16
    info = finfo(aval_of(x1).dtype)
    mantissa, exponent = frexp(x1)
    lowest, highest = info.minexp - info.nmant - 2, info.maxexp + 1
    total = E.add(astype(exponent, np.int64), E.clip(astype(x2, np.int64), 2 * lowest,
                                                     2 * highest))
    total = astype(E.clip(total, lowest, highest), aval_of(x1).dtype)
    return _times_power_of_two(mantissa, total)


def fix(x, out=None):
    """Round towards zero: NumPy's and JAX's older name for `trunc` (integers unchanged)."""
    if out is not None:
        raise NotImplementedError("fix: 'out' is not supported; use the returned value")
    return E.trunc(x)


def modf(x, /, out=None):
    """(fractional part, integral part), both with x's sign, as JAX's (x - whole, whole)."""
    if out is not None:
        raise NotImplementedError("modf: 'out' is not supported; use the returned values")
    x = _inexact(x, "modf")
    whole = E.where(E.greater_equal(x, 0), E.floor(x), E.ceil(x))
    return E.subtract(x, whole), whole


def spacing(x, /):
    """The distance from x to the next float away from zero (JAX's: the smallest subnormal,
    signed, where that distance underflows to zero)."""
    from ._mathfuncs import copysign, nextafter
    x = _inexact(x, "spacing")
    dt = aval_of(x).dtype
    if dtypes.is_complex(dt):
        raise ValueError("spacing is not defined for complex inputs")
    inf = astype(np.inf, dt)
    result = E.subtract(nextafter(x, copysign(inf, x)), x)
    tiny = copysign(astype(np.finfo(dt).smallest_subnormal, dt), x)
    return E.where(E.equal(result, 0), tiny, result)


def fabs(x, /):
    """|x| as a float (integers are converted first); complex values are refused, as NumPy's
    fabs refuses them (abs takes them)."""
    return E.abs(_real_inexact(x, "fabs"))


def fmod(x1, x2, /):
    """C's fmod: the remainder with the sign of x1 (NumPy's `remainder` takes x2's). An
    integer x1 fmod 0 is 0, as NumPy gives (with a warning) and JAX."""
    from ._mathfuncs import copysign
    # A Python int beyond the array's integer dtype: NumPy's OverflowError (JAX: it wraps).
    x1, x2 = check_python_ints_fit("rem", [operand(x1), operand(x2)])
    # as the ufuncs promote: a function of Python scalars is strong (strength.py)
    dt = dtypes.result_type([aval_of(x1).dtype, aval_of(x2).dtype], weak_flags([x1, x2]))
    x1, x2 = astype(x1, dt), astype(x2, dt)
    if dtypes.is_inexact(dt):
        return copysign(E.remainder(E.abs(x1), E.abs(x2)), x1)
    zero = E.equal(x2, 0)
    safe = E.where(zero, astype(1, dt), x2)
    r = E.remainder(x1, safe)
    # Python's remainder takes the divisor's sign; C's the dividend's: shift by one divisor
    fix = E.logical_and(E.not_equal(r, 0), E.not_equal(E.less(r, 0), E.less(x1, 0)))
    return E.where(zero, astype(0, dt), E.where(fix, E.subtract(r, safe), r))


def divmod(x1, x2, /):   # noqa: A001 (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)): Python's divmod elementwise."""
    return E.floor_divide(x1, x2), E.remainder(x1, x2)


def float_power(x1, x2, /):
    """x1 ** x2 computed in at least float64 (NumPy); under JAX's rules in the operands'
    inexact dtype, as JAX's float_power."""
    x1, x2 = operand(x1), operand(x2)
    from ._dtype_api import result_type
    dt = dtypes.float_for_integers(result_type(x1, x2))
    if not dtypes.config.jax_rules():
        dt = np.result_type(dt, np.float64)
    return E.power(astype(x1, dt), astype(x2, dt))
