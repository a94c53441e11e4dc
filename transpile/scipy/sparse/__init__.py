"""`transpile.scipy.sparse`: the jax.scipy.sparse names transpile has (`linalg`)."""
from . import linalg  # noqa: F401
