"""`transpile.example_libraries`: jax.example_libraries' `stax` (layers as (init, apply)
pairs) and `optimizers` (optimizers as (init, update, get_params) triples), so JAX's own
examples (mnist_classifier.py, mnist_vae.py, differentially_private_sgd.py) run with their
imports swapped. Both are written on transpile's public API only."""
from . import optimizers, stax  # noqa: F401
