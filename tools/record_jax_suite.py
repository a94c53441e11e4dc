"""Record JAX's answers for tests/jaxsuite_cases.py (behaviours JAX's own test files check
where JAX departs from NumPy) into tests/data/jax_suite.json. JAX is not a dependency of
transpile: run this with a Python that has it, x64 on as JAX's test files run,

    JAX_ENABLE_X64=1 /tmp/jaxenv/bin/python tools/record_jax_suite.py tests/data/jax_suite.json

Values are stored as nested lists with their dtype (complex as [re, im] pairs); refused calls
as the exception's type name.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jaxsuite_cases  # noqa: E402


def encode(x):
    if isinstance(x, tuple):
        return {"tuple": [encode(v) for v in x]}
    x = np.asarray(x)
    values = np.stack([x.real, x.imag], -1) if x.dtype.kind == "c" else x
    return {"dtype": x.dtype.name, "shape": list(x.shape), "values": values.tolist()}


def refusal(fn) -> str:
    try:
        fn(jnp)
    except Exception as e:     # noqa: BLE001  (recording which error JAX raises is the point)
        return type(e).__name__
    return "no error"


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1: JAX's test files run with x64 on")
    recorded = {"jax_version": jax.__version__,
                "values": {name: encode(fn(jnp)) for name, fn in jaxsuite_cases.CASES.items()},
                "errors": {name: refusal(fn) for name, fn in jaxsuite_cases.ERRORS.items()}}
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_suite.json")
