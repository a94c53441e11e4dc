"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`)."""
from . import special, stats  # noqa: F401
