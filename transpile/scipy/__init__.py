"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`, `signal`, `ndimage`,
`linalg`, `sparse.linalg.cg`)."""
from . import linalg, ndimage, signal, sparse, special, stats  # noqa: F401
