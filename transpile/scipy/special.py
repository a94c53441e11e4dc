"""jax.scipy.special's erf, erfc, erfinv, gammaln and digamma (psi): lax's special functions with SciPy's
promotion (booleans and integers compute in float64)."""
from __future__ import annotations

from .. import dtypes
from .. import lax_special as S
from ..core import aval_of
from ..numpy._util import astype, operand


def _promoted(x):
    x = operand(x)
    dt = aval_of(x).dtype
    return x if dtypes.is_float(dt) else astype(x, dtypes.float_for_integers(dt))


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


from ..eager_results import install as _install_eager_results  # noqa: E402

# Eagerly, results are EagerArrays however they were made (eager_results.py).
_install_eager_results(globals(), (__name__,))
