"""Record JAX's results for the lax/linalg/special functions of tests/jax_laxapi_cases.py
(gather and scatter with dimension numbers, lax.fft, eig, polygamma...) as
tests/data/jax_laxapi.json, for tests/test_jax_laxapi.py:
`/path/to/jax/python tools/record_jax_laxapi.py [PATH]`.

x64 on; the format is tools/jax_recording.py's, floats to 17 significant digits, so float64
values round-trip. A case that raises records the error's type and message instead, with the
places functions were defined reduced to file names.
"""
from __future__ import annotations

import re

import jax_recording  # first: x64 on before JAX loads (this folder is on sys.path: the script's)

import jax
import jax.numpy as jnp
import jax.scipy.special as special
from jax import lax

from jax_laxapi_cases import GROUPS


def without_locations(message: str) -> str:
    """Where a function was defined, as the file's name only (no directories, no line:
    editing the cases file must not invalidate the recording)."""
    return re.sub(r" at \S*?([^/\s]+\.py):(\d+)", r" at \1", message)


if __name__ == "__main__":
    jax_recording.main("tests/data/jax_laxapi.json", GROUPS, (jnp, lax, special, jax),
                       refusal=without_locations)
