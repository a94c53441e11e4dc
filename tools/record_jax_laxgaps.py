"""Record JAX's results for the lax programs of tests/jax_laxgaps_cases.py (reduce_window with
any reducer and dilations, rng_bit_generator, reduce_precision, ragged_dot) as
tests/data/jax_laxgaps.json, for tests/test_jax_laxgaps.py, in tools/jax_recording.py's
format: `/path/to/jax/python tools/record_jax_laxgaps.py [PATH]`.
"""
from __future__ import annotations

import jax_recording  # first: x64 on before JAX loads (this folder is on sys.path: the script's)

import jax
import jax.numpy as jnp
from jax import lax

from jax_laxgaps_cases import GROUPS

if __name__ == "__main__":
    jax_recording.main("tests/data/jax_laxgaps.json", GROUPS, (jnp, lax, jax))
