"""Record JAX's result dtype and weak type for each case of tests/jax_weak_cases.py, with
64-bit mode off and on (tests/test_jax_weak_types.py checks transpile's JAX mode against them).
Run with a Python that has JAX installed:

    /path/to/jax/python tools/record_jax_weak_types.py tests/data/jax_weak_types.json
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import jax_weak_cases as table  # noqa: E402


def record(x64: bool) -> dict:
    jax.config.update("jax_enable_x64", x64)
    out = {}
    for name, call in table.CASES.items():
        result = call(jnp, jax.jit)
        out[name] = table.encode(result.dtype, result.weak_type)
    return out


def main(path):
    data = {"jax_version": jax.__version__,
            "modes": {"x32": record(False), "x64": record(True)}}
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
