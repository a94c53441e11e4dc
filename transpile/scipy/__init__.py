"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`, `signal`)."""
from . import signal, special, stats  # noqa: F401
