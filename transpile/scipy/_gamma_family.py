"""The gamma function's relatives in jax.scipy.special: gammasgn, gamma, loggamma, factorial,
beta, poch and multigammaln, each from lgamma and a sign, with JAX's values at the poles
(NaN at non-positive integers, +-inf at +-0)."""
from __future__ import annotations

import math

import numpy as np

from .. import numpy as tnp
from ..core import aval_of
from ..lax_special import lgamma
from ..numpy._inexact import promote_inexact


def _gammasgn(x):
    floor_x = tnp.floor(x)
    negative = x < 0
    undefined = (negative & (x == floor_x)) | tnp.isnan(x)
    minus = (negative & (tnp.remainder(floor_x, 2) != 0)) | ((x == 0) & tnp.signbit(x))
    dt = aval_of(x).dtype
    return tnp.where(undefined, dt.type(np.nan), tnp.where(minus, dt.type(-1), dt.type(1)))


def gammasgn(x):
    """The sign of the gamma function: -1 between odd and even negative integers (and at
    -0), NaN at the poles and for NaN, else 1."""
    x, = promote_inexact(x)
    return _gammasgn(x)


def gamma(x):
    x, = promote_inexact(x)
    return _gammasgn(x) * tnp.exp(lgamma(x))


def loggamma(x):
    """log Gamma(x) for x > 0 (NaN elsewhere, as JAX for real operands)."""
    x, = promote_inexact(x)
    return tnp.where(x > 0, lgamma(x), np.nan)


def factorial(n, exact=False):
    """n! as Gamma(n + 1), 0 for negative n (only exact=False, as JAX)."""
    if exact:
        raise NotImplementedError("factorial: exact=True is not supported (as in JAX); "
                                  "pass exact=False")
    n, = promote_inexact(n)
    return tnp.where(n < 0, 0, tnp.exp(lgamma(n + 1)))


def beta(a, b):
    """B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b), by its logarithm and sign."""
    a, b = promote_inexact(a, b)
    sign = _gammasgn(a) * _gammasgn(b) * _gammasgn(a + b)
    return sign * tnp.exp(lgamma(a) + lgamma(b) - lgamma(a + b))


def poch(z, m):
    """The rising factorial Gamma(z + m) / Gamma(z) (1 where m is 0)."""
    z, m = promote_inexact(z, m)
    return tnp.where(m == 0, 1, gamma(z + m) / gamma(z))


def multigammaln(a, d):
    """log of the multivariate gamma function: d(d-1)/4 log(pi) + sum over i < d of
    gammaln(a - i/2). `d` is a static int."""
    d = int(d)
    a, = promote_inexact(a)
    halves = tnp.arange(d, dtype=aval_of(a).dtype) / 2
    terms = lgamma(tnp.expand_dims(a, -1) - halves)
    return tnp.sum(terms, axis=-1) + d * (d - 1) / 4 * math.log(math.pi)
