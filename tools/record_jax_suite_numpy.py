"""Record JAX's answers for tests/jax_suite_numpy_cases.py (jax.numpy behaviours JAX's
lax_numpy_test.py checks) into tests/data/jax_suite_numpy.json. JAX is not a dependency of
transpile: run this with a Python that has it, x64 on as JAX's test files run,

    JAX_ENABLE_X64=1 /tmp/jaxenv/bin/python tools/record_jax_suite_numpy.py

Values are stored as pytree leaves (dtype, shape, nested lists; complex as [re, im] pairs);
refused calls as the exception's builtin base type name.
"""
from __future__ import annotations

import builtins
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jax_suite_numpy_cases  # noqa: E402


def encode(x):
    leaves = jax.tree_util.tree_leaves(x)
    out = []
    for leaf in leaves:
        a = np.asarray(leaf)
        values = np.stack([a.real, a.imag], -1) if a.dtype.kind == "c" else a
        out.append({"dtype": a.dtype.name, "shape": list(a.shape),
                    "values": values.astype(np.float64 if a.dtype.kind == "f" else
                                            values.dtype).tolist()})
    return out


def refusal(fn) -> str:
    try:
        fn(jax, jnp)
    except Exception as e:     # noqa: BLE001  (recording which error JAX raises is the point)
        # The nearest builtin class: transpile raises its own subclasses of the same bases.
        for cls in type(e).__mro__:
            if getattr(builtins, cls.__name__, None) is cls:
                return cls.__name__
    return "no error"


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1: JAX's test files run with x64 on")
    cases, errors = jax_suite_numpy_cases.CASES, jax_suite_numpy_cases.ERRORS
    recorded = {"jax_version": jax.__version__,
                "values": {name: encode(fn(jax, jnp)) for name, fn in cases.items()},
                "errors": {name: refusal(fn) for name, fn in errors.items()}}
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_suite_numpy.json")
