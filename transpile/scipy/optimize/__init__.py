"""`transpile.scipy.optimize`: JAX's `jax.scipy.optimize.minimize` with method "BFGS"."""
from ._bfgs import OptimizeResults, minimize  # noqa: F401

__all__ = ["OptimizeResults", "minimize"]
