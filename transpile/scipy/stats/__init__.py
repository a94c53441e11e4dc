"""`transpile.scipy.stats`: jax.scipy.stats's distributions, one module each, with JAX's
function names and arguments: `norm`, `multivariate_normal`, `beta`, `gamma`, `poisson`,
`bernoulli`, `uniform`."""
from . import bernoulli, beta, gamma, multivariate_normal, norm, poisson, uniform


def _install_eager_results():
    """Eagerly, results are EagerArrays however they were made (eager_results.py)."""
    from ...eager_results import install
    for module in (bernoulli, beta, gamma, multivariate_normal, norm, poisson, uniform):
        install(vars(module), (module.__name__,))


_install_eager_results()
__all__ = ["bernoulli", "beta", "gamma", "multivariate_normal", "norm", "poisson", "uniform"]
