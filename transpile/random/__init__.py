"""`transpile.random`: jax.random's counter-based generator, bit for bit.

    key = transpile.random.PRNGKey(0)
    key, sub = transpile.random.split(key)
    x = transpile.random.normal(sub, (3,))

Keys are uint32 arrays of shape (2,) (JAX's raw keys; `key` returns the same kind, not a
typed key array). Bits come from Threefry-2x32 with JAX's default, partitionable counter
layout, computed by fused integer arithmetic in the generated C; the samplers repeat JAX's
computations, so the same key gives the same numbers as JAX (normal: up to JAX's own
erf_inv rounding, see README).
"""
from ._samplers import (bernoulli, bits, choice, gumbel, normal, permutation, randint,
                        truncated_normal, uniform)
from ._threefry import fold_in, seed_key as PRNGKey, split
from ._categorical import categorical
from ._closed_form import (double_sided_maxwell, maxwell, orthogonal, pareto, rayleigh,
                           triangular, wald, weibull_min)
from ._counts import binomial, geometric, multinomial, poisson
from ._gamma import gamma, loggamma
from ._gamma_derived import ball, beta, chisquare, dirichlet, f, generalized_normal, t
from ._transforms import (cauchy, exponential, laplace, logistic, lognormal, multivariate_normal,
                          rademacher)


def key(seed, *, impl=None):
    if impl not in (None, "threefry2x32"):
        raise ValueError(f"random.key: only impl='threefry2x32' is supported, got {impl!r}")
    return PRNGKey(seed)


def key_data(keys):
    return keys


def wrap_key_data(key_bits_array, *, impl=None):
    return key_bits_array


__all__ = ["ball", "bernoulli", "beta", "binomial", "bits", "categorical", "cauchy", "chisquare",
           "choice", "dirichlet", "double_sided_maxwell", "exponential", "f", "fold_in", "gamma",
           "generalized_normal", "geometric", "gumbel", "key", "key_data", "laplace", "loggamma",
           "logistic", "lognormal", "maxwell", "multinomial", "multivariate_normal", "normal",
           "orthogonal", "pareto", "permutation", "poisson", "PRNGKey", "rademacher", "randint",
           "rayleigh", "split", "t", "triangular", "truncated_normal", "uniform", "wald",
           "weibull_min", "wrap_key_data"]


def _install_eager_results():
    """Eagerly, keys and samples are EagerArrays (with `.at`), as every tnp result."""
    from ..eager_results import install
    install(globals(), ("transpile.random", "transpile.random._samplers",
                        "transpile.random._categorical", "transpile.random._transforms",
                        "transpile.random._threefry", "transpile.random._gamma",
                        "transpile.random._gamma_derived", "transpile.random._counts",
                        "transpile.random._closed_form"))


_install_eager_results()
