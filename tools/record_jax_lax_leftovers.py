"""Record JAX's results for the programs of tests/jax_lax_leftovers_cases.py (linearize through
a checkpoint closing over a constant, gradients of a vmapped cond, zero-length scans under
disable_jit, read-only loop carries under vmap, associative_scan over a vmapped solve) as
tests/data/jax_lax_leftovers.json, for tests/test_jax_lax_leftovers.py.

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_lax_leftovers.py tests/data/jax_lax_leftovers.json

The format is tools/record_jax_laxapi.py's (x64 on; each result a list of pytree leaves with
dtype, shape and values; a case that raises records the error's type and message).
"""
from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.linalg  # noqa: E402,F401  (the cases reach it as jax.scipy.linalg)
from jax import lax  # noqa: E402

from jax_lax_leftovers_cases import GROUPS  # noqa: E402
from record_jax_laxapi import _leaf  # noqa: E402  (this folder is on sys.path: the script's)


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    out = {}
    for group in GROUPS:
        for name, (make, args, _) in sorted(group(jnp, lax, jax).items()):
            try:
                result = make(*args)
            except Exception as e:          # noqa: BLE001 (the error is what is recorded)
                out[name] = {"error": type(e).__name__, "message": str(e)}
                continue
            out[name] = [_leaf(leaf) for leaf in jax.tree_util.tree_leaves(result)]
    with open(path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": out}, f, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_lax_leftovers.json")
