"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`, `signal`, `ndimage`,
`linalg`)."""
from . import linalg, ndimage, signal, special, stats  # noqa: F401
