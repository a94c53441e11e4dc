"""A small corpus of real-program-style JAX programs (see tests/test_realprog.py).

Each module is written against JAX (`import jax`, `jax.numpy as jnp`, `from jax import lax`)
in the style of a published kind of program, exposes `inputs()` (a tuple of NumPy arrays made
with a seeded generator) and `program(*inputs)` (the function under test), and is loaded either
with real JAX (tools/record_jax_realprog.py) or with its imports swapped to transpile
(tests/realprog/jax_shim.py).
"""
