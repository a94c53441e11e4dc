"""The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s and polygamma(n, x), as
jax.lax's `zeta`/`polygamma` (float operands of one dtype) and the base of
jax.scipy.special's (which promote integers).

zeta: the first _DIRECT terms summed directly, then the Euler-Maclaurin remainder at
a = q + _DIRECT, whose correction terms B_2j / (2j)! s (s+1)...(s+2j-2) a^(-s-2j+1) shrink
like ((s + 2j) / (2 pi a))^2 each: with a >= 16 (q > 0) twelve of them reach float64's
rounding for every s > 1. Summed from the smallest term up, in float64 (float32 rounds once).
s = 1 is the pole (inf), s < 1 is NaN, and q a non-positive integer gives inf (a term 0^-s),
as SciPy and JAX. q below -_DIRECT would need more direct terms: NaN here.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from . import dtypes
from .base.operands import astype, operand
from .core import aval_of
from .lax_special import digamma
from .numpy import _elementwise as E

_DIRECT = 16
_CORRECTIONS = 12


@lru_cache(maxsize=None)
def even_bernoulli(count: int) -> tuple[float, ...]:
    """B_2, B_4, ..., B_2count, computed exactly (Akiyama-Tanigawa) and rounded once."""
    values, row = [], []
    for m in range(2 * count + 1):
        row.append(Fraction(1, m + 1))
        for j in range(m, 0, -1):
            row[j - 1] = j * (row[j - 1] - row[j])
        if m >= 2 and m % 2 == 0:
            values.append(row[0])
    return tuple(float(b) for b in values)


def working_precision(x):
    """x as float64, the precision these functions compute in (float32 under JAX's rules
    without x64, where float64 does not exist: without the warning a user's request for it
    gives)."""
    return astype(x, dtypes.canonicalize(dtypes.float64))


def _hurwitz_f64(s, q):
    """zeta(s, q) for float64 arrays (broadcast together)."""
    a = E.add(q, float(_DIRECT))
    power = E.power(a, E.negative(s))                     # a^-s
    corrections, ratio = 0.0, E.divide(s, a)              # s (s+1)...(s+2j-2) / a^(2j-1)
    for j, b in enumerate(even_bernoulli(_CORRECTIONS), start=1):
        corrections = E.add(corrections, E.multiply(b / math.factorial(2 * j), ratio))
        ratio = E.multiply(ratio, E.divide(E.multiply(E.add(s, 2 * j - 1), E.add(s, 2 * j)),
                                           E.multiply(a, a)))
    total = E.add(E.divide(E.multiply(a, power), E.subtract(s, 1.0)),
                  E.multiply(power, E.add(0.5, corrections)))
    # For huge s the remainder underflows to 0 while its correction factors overflow.
    total = E.where(E.equal(power, 0.0), 0.0, total)
    for k in range(_DIRECT - 1, -1, -1):
        total = E.add(total, E.power(E.add(q, float(k)), E.negative(s)))
    total = E.where(E.greater(a, 0.0), total, np.nan)
    total = E.where(E.equal(s, 1.0), np.inf, total)
    return E.where(E.less(s, 1.0), np.nan, total)


def _check_floats(name, *xs):
    xs = [operand(x) for x in xs]
    dts = {aval_of(x).dtype for x in xs}
    if len(dts) != 1 or not dtypes.is_float(next(iter(dts))):
        raise TypeError(f"lax.{name} requires floating operands of one dtype, got "
                        f"{', '.join(str(d) for d in (aval_of(x).dtype for x in xs))}; "
                        "convert them (or use transpile.scipy.special, which promotes)")
    return xs


def hurwitz_zeta(s, q, dt):
    """zeta(s, q), computed in float64 and returned as dt."""
    s, q = working_precision(s), working_precision(q)
    return astype(_hurwitz_f64(s, q), dt)


# n! for n = 0..170 (beyond, float64 overflows): exact integers rounded once.
_FACTORIALS = np.array([float(math.factorial(n)) for n in range(171)] + [np.inf])


def _factorials(dt):
    """The table in the dtype the computation runs in (float32 under JAX's rules without
    x64): inf where it overflows, without NumPy's warning."""
    return np.where(_FACTORIALS <= np.finfo(dt).max, _FACTORIALS, np.inf).astype(dt)


def polygamma_values(n, x, dt):
    """psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1, digamma for n = 0, NaN
    for negative n; computed in float64 and returned as dt."""
    from .numpy._indexing import take
    n64, x64 = working_precision(n), working_precision(x)
    whole = astype(E.clip(astype(n, dtypes.int64), 0, 171), dtypes.int64)
    factorial = take(_factorials(aval_of(x64).dtype), whole, mode="clip")
    sign = E.where(E.equal(E.remainder(whole, 2), 1), 1.0, -1.0)
    higher = E.multiply(E.multiply(sign, factorial), _hurwitz_f64(E.add(n64, 1.0), x64))
    value = E.where(E.equal(n64, 0.0), digamma(x64), higher)
    value = E.where(E.logical_or(E.less(n64, 0.0), E.not_equal(n64, E.floor(n64))), np.nan,
                    value)
    return astype(value, dt)


def zeta(x, q):
    """lax.zeta: the Hurwitz zeta function of float operands of one dtype."""
    x, q = _check_floats("zeta", x, q)
    return hurwitz_zeta(x, q, aval_of(x).dtype)


def polygamma(m, x):
    """lax.polygamma: the m-th derivative of digamma; m integer-valued, floats of one dtype."""
    m, x = _check_floats("polygamma", m, x)
    return polygamma_values(m, x, aval_of(x).dtype)


__all__ = ["polygamma", "zeta"]
