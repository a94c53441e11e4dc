"""Statistics a probabilistic-programming user reaches for: scipy.special (gammaln, digamma,
betaln, erf, erfinv, xlogy, logit, expit), scipy.stats logpdfs (gamma, beta, poisson,
multivariate_normal, t), and numpy summaries (median, quantile, nanmean, cov, corrcoef)."""
import jax
import jax.numpy as jnp
from jax.scipy import special, stats
import numpy as np


@jax.jit
def program(x, k, X):
    a = special.gammaln(x) + special.digamma(x) - special.betaln(x, 2.0)
    b = special.erf(x - 1) + special.erfinv(jnp.tanh(x - 1.5)) + special.xlogy(x, x) + special.logit(special.expit(x - 1))
    c = stats.gamma.logpdf(x, 2.0, scale=1.5) + stats.beta.logpdf(x / 4, 2.0, 3.0) + stats.poisson.logpmf(k, 3.0)
    mvn = stats.multivariate_normal.logpdf(X, jnp.zeros(3), jnp.eye(3) + 0.5)
    t = stats.norm.logcdf(x, 1.0, 2.0)
    x2 = jnp.where(x > 2.5, jnp.nan, x)
    return a, b, c, mvn, t, jnp.median(x), jnp.quantile(x, jnp.array([0.1, 0.9])), jnp.nanmean(x2), jnp.nanstd(x2), jnp.cov(X.T), jnp.corrcoef(X.T)


def inputs():
    rng = np.random.default_rng(17)
    return (rng.uniform(0.2, 3.5, 25).astype(np.float32), rng.integers(0, 8, 25).astype(np.int32),
            rng.normal(size=(20, 3)).astype(np.float32))
