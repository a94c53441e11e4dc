"""The regularized incomplete gamma and beta functions (gammainc, gammaincc, betainc), as
jax.scipy.special's, for the gamma and beta distributions' CDFs.

Each is a power series or a continued fraction (modified Lentz) run by `lax.while_loop` until
every element's next term is below the working dtype's rounding (at most _MAX_STEPS steps):
the loop becomes one C loop over fused elementwise passes. float32 operands compute in float64
and round once; under JAX's rules with 64-bit mode off float64 does not exist and everything
computes in float32, as in JAX, with float32's rounding and tiny as the loop's limits.
"""
from __future__ import annotations

import numpy as np

from .. import lax
from .. import numpy as tnp
from .. import dtypes
from ..lax_special import lgamma

_MAX_STEPS = 2000


def _widest(*xs):
    """The operands in the widest float that exists (float64, or float32 without x64)."""
    wide = dtypes.canonicalize(np.float64)
    return [tnp.asarray(x, dtype=wide) for x in xs]


def _eps(x):
    return np.finfo(x.dtype).eps


def _tiny(x):
    """Keeps Lentz's denominators off zero: far below any term, far above underflow."""
    return 1e-300 if x.dtype == np.float64 else 1e-30


def _iterate(step, state, done):
    """Run `step` on the state until `done(state)` holds everywhere or _MAX_STEPS."""
    def more(carry):
        return (carry[0] < _MAX_STEPS) & ~tnp.all(done(carry[1]))

    def body(carry):
        return carry[0] + 1, step(carry[0] + 1, carry[1])
    return lax.while_loop(more, body, (np.int64(0), state))[1]


def _lower_gamma_series(a, x):
    """P(a, x) = x^a e^-x / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n)); converges fast for
    x < a + 1."""
    def step(n, s):
        term, total = s
        term = term * x / (a + n)
        return term, total + term
    one = tnp.ones_like(x)
    _, total = _iterate(step, (one, one), lambda s: tnp.abs(s[0]) <= _eps(x) * tnp.abs(s[1]))
    return tnp.exp(a * tnp.log(x) - x - lgamma(a + 1)) * total


def _upper_gamma_fraction(a, x):
    """Q(a, x) = x^a e^-x / Gamma(a) / (x + 1 - a - 1(1-a) / (x + 3 - a - 2(2-a) / ...)),
    by modified Lentz; converges fast for x >= a + 1."""
    tiny = _tiny(x)
    b = x + 1 - a
    c = tnp.full_like(x, 1 / tiny)
    d = 1 / b
    start = (b, c, d, d, tnp.full_like(x, np.inf))

    def step(n, s):
        b, c, d, h, _ = s
        an = -n * (n - a)
        b = b + 2
        d = an * d + b
        d = tnp.where(tnp.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = tnp.where(tnp.abs(c) < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        return b, c, d, h * delta, tnp.abs(delta - 1)
    h = _iterate(step, start, lambda s: s[4] <= _eps(x))[3]
    return tnp.exp(a * tnp.log(x) - x - lgamma(a)) * h


def _gamma_pair(a, x):
    """(P, Q) for a > 0, x >= 0, each from the form that converges (and is accurate) there.
    Elements outside the domain (or NaN) give NaN; they iterate on harmless stand-ins, so
    that every element's loop converges."""
    invalid = (a <= 0) | (x < 0) | tnp.isnan(a) | tnp.isnan(x)
    edge = (x == 0) | tnp.isinf(x)
    a = tnp.where(invalid, 1.0, a)
    safe = tnp.where(invalid | edge, 1.0, x)
    use_series = safe < a + 1
    series = _lower_gamma_series(a, tnp.where(use_series, safe, tnp.minimum(a, 1.0)))
    fraction = _upper_gamma_fraction(a, tnp.where(use_series, a + 1, safe))
    lower = tnp.where(use_series, series, 1 - fraction)
    upper = tnp.where(use_series, 1 - series, fraction)
    # P(a, 0) = 0 and P(a, inf) = 1.
    lower = tnp.where(edge, tnp.where(x == 0, 0.0, 1.0), lower)
    upper = tnp.where(edge, 1 - lower, upper)
    return tnp.where(invalid, np.nan, lower), tnp.where(invalid, np.nan, upper)


def _result_dtype(*xs):
    """The operands' common dtype, float64 for integers (SciPy's promotion)."""
    dt = tnp.result_type(*xs)
    return dt if tnp.issubdtype(dt, tnp.inexact) else dtypes.canonicalize(np.float64)


def gammainc(a, x):
    """The regularized lower incomplete gamma function P(a, x)."""
    dt = _result_dtype(a, x)
    a, x = _widest(a, x)
    return _gamma_pair(a, x)[0].astype(dt)


def gammaincc(a, x):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    dt = _result_dtype(a, x)
    a, x = _widest(a, x)
    return _gamma_pair(a, x)[1].astype(dt)


def _beta_fraction(a, b, x):
    """I_x(a, b) by its continued fraction (modified Lentz), accurate for
    x < (a + 1) / (a + b + 2)."""
    tiny = _tiny(x)
    c = tnp.ones_like(x)
    d = 1 - (a + b) * x / (a + 1)
    d = 1 / tnp.where(tnp.abs(d) < tiny, tiny, d)
    start = (c, d, d, tnp.full_like(x, np.inf))

    def half_step(coefficient, c, d):
        d = 1 + coefficient * d
        d = 1 / tnp.where(tnp.abs(d) < tiny, tiny, d)
        c = 1 + coefficient / c
        c = tnp.where(tnp.abs(c) < tiny, tiny, c)
        return c, d, d * c

    def step(m, s):
        c, d, h, _ = s
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        c, d, delta = half_step(even, c, d)
        h = h * delta
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        c, d, delta = half_step(odd, c, d)
        return c, d, h * delta, tnp.abs(delta - 1)
    h = _iterate(step, start, lambda s: s[3] <= _eps(x))[2]
    log_front = a * tnp.log(x) + b * tnp.log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b))
    return tnp.exp(log_front) * h / a


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    dt = _result_dtype(a, b, x)
    a, b, x = _widest(a, b, x)
    a, b, x = tnp.broadcast_arrays(a, b, x)
    invalid = (a <= 0) | (b <= 0) | (x < 0) | (x > 1) | tnp.isnan(a) | tnp.isnan(b) | \
        tnp.isnan(x)
    # Stand-ins where the answer is known (ends of [0, 1]) or NaN, so every loop converges.
    known = invalid | (x == 0) | (x == 1)
    a, b = tnp.where(invalid, 1.0, a), tnp.where(invalid, 1.0, b)
    safe = tnp.where(known, 0.5, x)
    flip = safe > (a + 1) / (a + b + 2)     # the fraction converges on the other side
    value = _beta_fraction(tnp.where(flip, b, a), tnp.where(flip, a, b),
                           tnp.where(flip, 1 - safe, safe))
    value = tnp.where(flip, 1 - value, value)
    value = tnp.where(x == 0, 0.0, tnp.where(x == 1, 1.0, value))
    return tnp.where(invalid, np.nan, value).astype(dt)


__all__ = ["betainc", "gammainc", "gammaincc"]
