"""`transpile.scipy`: the few jax.scipy names transpile has (see `special`)."""
from . import special  # noqa: F401
