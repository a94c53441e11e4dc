"""`transpile.scipy`: the few jax.scipy names transpile has (see `special`, `signal`)."""
from . import signal, special  # noqa: F401
