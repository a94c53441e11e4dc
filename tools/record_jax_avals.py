"""Record JAX's abstract values (shape, dtype, weak type) of the values of
tests/jax_aval_cases.py, with x64 off and on, and whether `isinstance(v, jax.Array)` holds for
them and for the non-arrays listed there, as tests/data/jax_avals.json (for
tests/test_eager_avals.py).

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_avals.py tests/data/jax_avals.json

Each value is recorded eagerly and, from inside `jax.jit`, as its tracer's aval (JAX gives
the same weak type both ways; the test checks transpile's eager values and tracers).
"""
from __future__ import annotations

import json
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

from jax_aval_cases import NOT_ARRAYS, cases  # noqa: E402


def _aval(value) -> dict:
    aval = value.aval
    return {"shape": list(aval.shape), "dtype": str(aval.dtype), "weak_type": aval.weak_type}


def _traced_aval(make) -> dict:
    seen = []
    jax.jit(lambda: seen.append(_aval(make())))()
    return seen[0]


def _record(x64: bool) -> dict:
    jax.config.update("jax_enable_x64", x64)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # JAX's narrowing warnings without x64
        for name, make in sorted(cases(jnp, lax).items()):
            value = make()
            out[name] = {"eager": _aval(value), "traced": _traced_aval(make),
                         "is_array": isinstance(value, jax.Array)}
    return out


def main(path):
    recorded = {"jax_version": jax.__version__,
                "x64": _record(True), "x32": _record(False),
                "not_arrays": {name: isinstance(v, jax.Array) for name, v in NOT_ARRAYS.items()}}
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_avals.json")
