"""Record the signs of JAX's singular vectors (jnp.linalg.svd on the CPU: LAPACK's xGESDD)
for the cases of tests/jax_svd_cases.py; tests/test_svd_signs.py checks transpile's compiled
svd against them. Run with a Python that has JAX installed:

    /path/to/jax/python tools/record_jax_svd.py tests/data/jax_svd_signs.json
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jax_svd_cases as table  # noqa: E402


def main(path):
    out = {}
    for name, shape, dtype, full in table.cases():
        u, s, vt = jnp.linalg.svd(table.matrix(name, shape, dtype), full_matrices=full)
        out[name] = {"u": table.signature(u), "v": table.signature(np.swapaxes(vt, -1, -2)),
                     "s": np.asarray(s, np.float64).tolist()}
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "cases": out}, fh, separators=(",", ":"))
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
