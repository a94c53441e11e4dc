"""jax.scipy.stats.poisson: counts with mean mu (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(k, mu, loc=0):
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    log_probs = special.xlogy(x, mu) - special.gammaln(x + 1) - mu
    return tnp.where((x < 0) | (x != tnp.round(x)), -np.inf, log_probs)


def pmf(k, mu, loc=0):
    return tnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """P(K <= k) = Q(floor(k) + 1, mu), the regularized upper incomplete gamma function."""
    k, mu, loc = promote_inexact(k, mu, loc)
    x = k - loc
    return tnp.where(x < 0, 0, special.gammaincc(tnp.floor(1 + x), mu))


# Below this mean the entropy is summed term by term over k < SUM_TERMS (beyond
# mu + 10 sqrt(mu) + 40 the terms are below 1e-20 of the sum); from it on, the asymptotic
# series in 1/mu (four terms: 5e-13 relative error at mu = 500, less beyond) is used.
SERIES_FROM = 500.0
SUM_TERMS = 800


def _entropy_by_summation(mu):
    k = tnp.arange(SUM_TERMS, dtype=mu.dtype).reshape((SUM_TERMS,) + (1,) * mu.ndim)
    small = tnp.minimum(mu, SERIES_FROM)          # the summed operand where the series is used
    return tnp.sum(special.entr(pmf(k, small)), axis=0)


def _entropy_series(mu):
    big = tnp.maximum(mu, SERIES_FROM)
    inv = 1 / big
    return (tnp.log(2 * np.pi * np.e * big) / 2
            - inv * (1 / 12 + inv * (1 / 24 + inv * 19 / 360)))


def entropy(mu, loc=0):
    """-Σ p_k log p_k (loc shifts the distribution and leaves it unchanged); 0 at mu = 0.
    JAX's sums fewer terms below mu = 10 and keeps one correction term from mu = 100 on, so
    its values differ from this one (and SciPy's) by up to 1e-6 relative."""
    mu, loc = promote_inexact(mu, loc)
    shape = tnp.broadcast_shapes(mu.shape, loc.shape)
    # In float64 whatever mu's dtype: 800 float32 terms would sum to 7e-5 relative error.
    wide = mu.astype(np.float64)
    result = tnp.where(wide < SERIES_FROM, _entropy_by_summation(wide), _entropy_series(wide))
    result = tnp.where(wide == 0, 0, result).astype(mu.dtype)
    return tnp.broadcast_to(result, shape)
