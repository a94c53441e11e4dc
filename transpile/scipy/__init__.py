"""`transpile.scipy`: the few jax.scipy names transpile has (see `special` and `linalg`)."""
from . import linalg, special  # noqa: F401
