"""jax.scipy.special: erf, erfc, erfinv, gammaln, digamma (psi), betaln, logsumexp, expit,
logit, xlogy, xlog1py, entr, rel_entr, kl_div, softmax, log_softmax, ndtr, log_ndtr, ndtri,
i0, i0e, i1, i1e, gammainc, gammaincc, betainc, gamma, gammasgn, loggamma, factorial, beta,
poch, multigammaln, zeta, polygamma, erfcx, spence and bessel_jn, with SciPy's promotion
(booleans and integers compute in float64)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import lax_special as S
from .. import numpy as tnp
from ..core import aval_of
from ..base.operands import astype, operand
from . import _bessel, _normal
from ._gamma_family import (beta, factorial, gamma, gammasgn, loggamma,  # noqa: F401
                            multigammaln, poch)
from ._incomplete import betainc, gammainc, gammaincc  # noqa: F401
from ._logsumexp import logsumexp  # noqa: F401
from . import _bessel_jn, _erfcx, _spence
from ..lax_zeta import hurwitz_zeta, polygamma_values


def _promoted(x):
    x = operand(x)
    dt = aval_of(x).dtype
    return x if dtypes.is_float(dt) else astype(x, dtypes.float_for_integers(dt))


def _promoted_pair(x, y):
    x, y = _promoted(x), _promoted(y)
    common = tnp.result_type(x, y)
    return astype(x, common), astype(y, common)


def erf(x):
    return S.erf(_promoted(x))


def erfc(x):
    return S.erfc(_promoted(x))


def erfinv(x):
    return S.erf_inv(_promoted(x))


def gammaln(x):
    return S.lgamma(_promoted(x))


def digamma(x):
    return S.digamma(_promoted(x))


psi = digamma


def betaln(a, b):
    """log|B(a, b)| = gammaln(a) + gammaln(b) - gammaln(a + b), in float64 (rounded back to
    float32 for float32 operands): the sum cancels up to the size of the terms, which
    float32's lgamma would leave with 1e-5 relative error."""
    a, b = _promoted_pair(a, b)
    dt = aval_of(a).dtype
    a, b = astype(a, dtypes.float64), astype(b, dtypes.float64)
    return astype(S.lgamma(a) + S.lgamma(b) - S.lgamma(a + b), dt)


def expit(x):
    """The logistic sigmoid 1 / (1 + exp(-x))."""
    x = _promoted(x)
    return 1 / (1 + tnp.exp(-x))


def logit(x):
    """log(x / (1 - x)), expit's inverse."""
    x = _promoted(x)
    return tnp.log(x / (1 - x))


def _x_times_log(log, x, y):
    """x * log(y), 0 where x is 0 (whatever y is, as SciPy's xlogy/xlog1py)."""
    x, y = _promoted_pair(x, y)
    nonzero = x != 0
    safe_y = tnp.where(nonzero, y, 1)
    return tnp.where(nonzero, x * log(safe_y), 0)


def _with_jax_jvp(log, x, y, dlog_dy):
    """x * log(y) with JAX's custom derivative, t_x log(y) + t_y x dlog(y)/dy, which is
    NaN at x = y = 0 (x / y there) where differentiating the `where` would give 0."""
    from ..autodiff.custom import custom_jvp      # autodiff names scipy only lazily
    fun = custom_jvp(lambda a, b: _x_times_log(log, a, b))

    def rule(primals, tangents):
        a, b = primals
        ta, tb = tangents
        out = fun(a, b)
        dt = aval_of(out).dtype
        return out, (ta * log(b) + tb * dlog_dy(a, b)).astype(dt)
    fun.defjvp(rule)
    return fun(*_promoted_pair(x, y))


def xlogy(x, y):
    return _with_jax_jvp(tnp.log, x, y, lambda a, b: a / b)


def xlog1py(x, y):
    return _with_jax_jvp(tnp.log1p, x, y, lambda a, b: a / (b + 1))


def entr(x):
    """-x log x for x > 0, 0 at 0, -inf below (the entropy of one probability)."""
    x = _promoted(x)
    dt = aval_of(x).dtype
    return tnp.where(x > 0, -x * tnp.log(tnp.where(x > 0, x, 1)),
                     tnp.where(x == 0, dt.type(0), dt.type(-np.inf)))


def rel_entr(p, q):
    """p log(p / q) for p, q > 0; 0 where p is 0 and q >= 0; inf elsewhere."""
    p, q = _promoted_pair(p, q)
    both_positive = (p > 0) & (q > 0)
    safe_p, safe_q = tnp.where(both_positive, p, 1), tnp.where(both_positive, q, 1)
    value = safe_p * tnp.log(safe_p) - xlogy(safe_p, safe_q)
    dt = aval_of(p).dtype
    return tnp.where(both_positive, value,
                     tnp.where((p == 0) & (q >= 0), dt.type(0), dt.type(np.inf)))


def kl_div(p, q):
    """rel_entr(p, q) - p + q."""
    p, q = _promoted_pair(p, q)
    return rel_entr(p, q) - p + q


def softmax(x, /, *, axis=None):
    """exp(x) / sum(exp(x)) over `axis` (all axes by default, as SciPy)."""
    x = _promoted(x)
    unnormalized = tnp.exp(x - tnp.max(x, axis=axis, keepdims=True))
    return unnormalized / tnp.sum(unnormalized, axis=axis, keepdims=True)


def log_softmax(x, /, *, axis=None):
    """x - logsumexp(x) over `axis` (all axes by default, as SciPy)."""
    x = _promoted(x)
    shifted = x - tnp.max(x, axis=axis, keepdims=True)
    return shifted - tnp.log(tnp.sum(tnp.exp(shifted), axis=axis, keepdims=True))


def ndtr(x):
    return _normal.ndtr(_promoted(x))


def log_ndtr(x, series_order=3):
    return _normal.log_ndtr(_promoted(x), series_order)


def ndtri(p):
    return _normal.ndtri(_promoted(p))


def i0e(x):
    return _bessel.i0e(_promoted(x))


def i1e(x):
    return _bessel.i1e(_promoted(x))


def i0(x):
    """I0(x) = exp(|x|) i0e(x)."""
    x = _promoted(x)
    return tnp.exp(tnp.abs(x)) * _bessel.i0e(x)


def i1(x):
    """I1(x) = exp(|x|) i1e(x)."""
    x = _promoted(x)
    return tnp.exp(tnp.abs(x)) * _bessel.i1e(x)


def zeta(x, q=None):
    """The Hurwitz zeta function sum_k (q + k)^-x (lax_zeta.py)."""
    if q is None:
        raise NotImplementedError("Riemann zeta function not implemented; pass q != None to "
                                  "compute the Hurwitz Zeta function. (zeta(x, 1.0) is "
                                  "Riemann's.)")
    x, q = _promoted_pair(x, q)
    return hurwitz_zeta(x, q, aval_of(x).dtype)


def polygamma(n, x):
    """The n-th derivative of digamma; n of an integer dtype, as JAX requires."""
    n = operand(n)
    if not dtypes.is_int(aval_of(n).dtype):
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype "
                         f"{aval_of(n).dtype}.")
    n, x = _promoted_pair(n, x)
    return polygamma_values(n, x, aval_of(x).dtype)


def erfcx(x):
    return _erfcx.erfcx(_promoted(x))


def spence(x):
    """Spence's function Li2(1 - x), for float x (an integer dtype is a TypeError, as JAX)."""
    x = operand(x)
    if not dtypes.is_float(aval_of(x).dtype):
        raise TypeError(f"x.dtype={aval_of(x).dtype} is not supported, see docstring for "
                        "supported types. Convert x to a float dtype.")
    return _spence.spence(tnp.asarray(x))


def bessel_jn(z, *, v, n_iter=50):
    """J_0(z) ... J_v(z), stacked along a new first axis."""
    return _bessel_jn.bessel_jn(tnp.asarray(_promoted(z)), v=v, n_iter=n_iter)


from ..eager_results import install as _install_eager_results  # noqa: E402

# Eagerly, results are EagerArrays however they were made (eager_results.py).
_install_eager_results(globals(), (__name__, "transpile.scipy._logsumexp",
                                   "transpile.scipy._incomplete",
                                   "transpile.scipy._gamma_family"))
