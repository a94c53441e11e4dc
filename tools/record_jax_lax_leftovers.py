"""Record JAX's results for the programs of tests/jax_lax_leftovers_cases.py (linearize through
a checkpoint closing over a constant, gradients of a vmapped cond, zero-length scans under
disable_jit, read-only loop carries under vmap, associative_scan over a vmapped solve) as
tests/data/jax_lax_leftovers.json, for tests/test_jax_lax_leftovers.py, in
tools/jax_recording.py's format: `/path/to/jax/python tools/record_jax_lax_leftovers.py [PATH]`.
"""
from __future__ import annotations

import jax_recording  # first: x64 on before JAX loads (this folder is on sys.path: the script's)

import jax
import jax.numpy as jnp
import jax.scipy.linalg  # noqa: F401  (the cases reach it as jax.scipy.linalg)
from jax import lax

from jax_lax_leftovers_cases import GROUPS

if __name__ == "__main__":
    jax_recording.main("tests/data/jax_lax_leftovers.json", GROUPS, (jnp, lax, jax))
