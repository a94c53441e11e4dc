"""`transpile.scipy`: the jax.scipy names transpile has (`special`, `stats`, `signal`, `ndimage`,
`linalg`, `sparse.linalg.cg`, `optimize.minimize`)."""
from . import linalg, ndimage, optimize, signal, sparse, special, stats  # noqa: F401
