"""Record JAX's results for the jax.numpy / jax.lax functions and fixes of issue #19 (the
programs of tests/jax_extras_cases.py) as tests/data/jax_extras.json, for
tests/test_jax_extras.py: `/path/to/jax/python tools/record_jax_extras.py [PATH]`.

x64 on, the mode whose dtypes the test compares under transpile's JAX rules; the format is
tools/jax_recording.py's, floats to 15 significant digits. These cases all return: an error
stops the recording.
"""
from __future__ import annotations

import jax_recording  # first: x64 on before JAX loads (this folder is on sys.path: the script's)

import jax.numpy as jnp
from jax import lax

from jax_extras_cases import cases

if __name__ == "__main__":
    jax_recording.main("tests/data/jax_extras.json", (cases,), (jnp, lax), digits=15,
                       refusal=None)
