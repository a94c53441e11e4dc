"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`, `signal`,
`linalg`)."""
from . import linalg, signal, special, stats  # noqa: F401
