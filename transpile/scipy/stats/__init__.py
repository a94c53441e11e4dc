"""`transpile.scipy.stats`: jax.scipy.stats's distributions, one module each, with JAX's
function names and arguments: `bernoulli`, `beta`, `betabinom`, `binom`, `cauchy`, `chi2`,
`dirichlet`, `expon`, `gamma`, `gennorm`, `geom`, `gumbel_l`, `gumbel_r`, `laplace`,
`logistic`, `multinomial`, `multivariate_normal`, `nbinom`, `norm`, `pareto`, `poisson`, `t`,
`truncnorm`, `uniform`, `vonmises`, `wrapcauchy`; and the sample summaries `mode`,
`rankdata` and `sem`."""
from . import (bernoulli, beta, betabinom, binom, cauchy, chi2, dirichlet, expon, gamma,
               gennorm, geom, gumbel_l, gumbel_r, laplace, logistic, multinomial,
               multivariate_normal, nbinom, norm, pareto, poisson, t, truncnorm, uniform,
               vonmises, wrapcauchy)
from . import _descriptive
from ._descriptive import mode, rankdata, sem

DISTRIBUTIONS = (bernoulli, beta, betabinom, binom, cauchy, chi2, dirichlet, expon, gamma,
                 gennorm, geom, gumbel_l, gumbel_r, laplace, logistic, multinomial,
                 multivariate_normal, nbinom, norm, pareto, poisson, t, truncnorm, uniform,
                 vonmises, wrapcauchy)


def _install_eager_results():
    """Eagerly, results are EagerArrays however they were made (eager_results.py)."""
    from ...eager_results import install
    for module in DISTRIBUTIONS + (_descriptive,):
        install(vars(module), (module.__name__,))


_install_eager_results()
mode, rankdata, sem = _descriptive.mode, _descriptive.rankdata, _descriptive.sem
__all__ = [m.__name__.rsplit(".", 1)[1] for m in DISTRIBUTIONS] + ["mode", "rankdata", "sem"]
