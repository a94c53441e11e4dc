"""Integer number theory and bit counts: `gcd`, `lcm`, `bitwise_count`.

`gcd` runs Euclid's algorithm as a `while_loop` over whole arrays (every element steps until
all are done), as JAX does; `bitwise_count` is the classic parallel bit count, on unsigned
words of the operand's own width (a 64-bit word would be canonicalised to 32 bits under JAX's
rules with 64-bit mode off, which silently zeroed every count).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ..base.operands import (astype, broadcast_to, check_python_ints_fit, operand,
                              shape_of, weak_flags)


def _integer_pair(name, x1, x2):
    # A Python int beyond the array's integer dtype: NumPy's OverflowError (JAX: it wraps).
    x1, x2 = check_python_ints_fit("rem", [operand(x1), operand(x2)])
    # as the ufuncs promote: a function of Python scalars is strong (strength.py)
    dt = dtypes.result_type([aval_of(x1).dtype, aval_of(x2).dtype], weak_flags([x1, x2]))
    if not dtypes.is_int(dt):
        raise ValueError(f"Arguments to {name} must be integers, got {dt}")
    shape = np.broadcast_shapes(shape_of(x1), shape_of(x2))
    return broadcast_to(astype(x1, dt), shape), broadcast_to(astype(x2, dt), shape)


def gcd(x1, x2):
    """The greatest common divisor of |x1| and |x2| (0 when both are 0)."""
    from ..base.control_flow import while_loop
    a, b = _integer_pair("gcd", x1, x2)

    def not_done(carry):
        from ._reductions import any as any_
        return any_(E.not_equal(carry[1], 0))

    def step(carry):
        a, b = carry
        stepping = E.not_equal(b, 0)
        safe_b = E.where(stepping, b, 1)
        return E.where(stepping, b, a), E.where(stepping, E.remainder(a, safe_b), b)

    # Euclid on the magnitudes as unsigned words: |int16 min| is 32768 there, not -32768
    # (whose remainders stay negative: gcd(-32768, 8) would be -8; NumPy's is 8).
    dt = aval_of(a).dtype
    unsigned = np.dtype(f"uint{8 * dt.itemsize}")
    result, _ = while_loop(not_done, step, (astype(E.abs(a), unsigned),
                                            astype(E.abs(b), unsigned)))
    return astype(result, dt)


def lcm(x1, x2):
    """The least common multiple of |x1| and |x2| (0 when either is 0)."""
    a, b = _integer_pair("lcm", x1, x2)
    a, b = E.abs(a), E.abs(b)
    d = gcd(a, b)
    zero = E.equal(d, 0)
    return E.where(zero, 0, E.multiply(a, E.floor_divide(b, E.where(zero, 1, d))))


_M1, _M2, _M4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
_H01 = 0x0101010101010101


def bitwise_count(x, /):
    """The number of 1 bits in |x| (NumPy's and JAX's), as uint8."""
    x = operand(x)
    dt = aval_of(x).dtype
    if not (dtypes.is_int(dt) or dt == dtypes.bool_):
        raise TypeError(f"bitwise_count: only integer and boolean inputs are supported, "
                        f"got {dt}")
    if dt == dtypes.bool_:
        return astype(x, np.uint8)
    width = 8 * dt.itemsize
    udt = np.dtype(f"uint{width}")
    if dt.kind == "i":      # the bits of |x| in x's own width (|int8 min| is 0x80: one bit)
        x = E.abs(x)
    u = astype(x, udt)
    word = udt.type
    keep = (1 << width) - 1
    m1, m2, m4, h01 = (word(mask & keep) for mask in (_M1, _M2, _M4, _H01))
    u = E.subtract(u, E.bitwise_and(E.right_shift(u, word(1)), m1))
    u = E.add(E.bitwise_and(u, m2), E.bitwise_and(E.right_shift(u, word(2)), m2))
    u = E.bitwise_and(E.add(u, E.right_shift(u, word(4))), m4)
    # Each byte now holds its own count; the multiply sums them into the top byte.
    return astype(E.right_shift(E.multiply(u, h01), word(width - 8)), np.uint8)
