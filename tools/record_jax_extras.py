"""Record JAX's results for the jax.numpy / jax.lax functions and fixes of issue #19 (the
programs of tests/jax_extras_cases.py) as tests/data/jax_extras.json, for
tests/test_jax_extras.py.

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_extras.py tests/data/jax_extras.json

x64 is on (JAX_ENABLE_X64=1), the mode whose dtypes the test compares under transpile's
JAX rules. Each result is a list of arrays (a tuple result flattened), each stored with its
dtype, shape and values (complex as [real, imaginary] pairs, floats to 15 significant
digits; NaN and infinities as JSON's non-standard tokens, which Python's json reads).
"""
from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from jax_extras_cases import cases  # noqa: E402


def _leaf(x):
    x = np.asarray(x)
    values = np.stack([x.real, x.imag], -1) if np.iscomplexobj(x) else x
    if values.dtype.kind == "f":
        values = np.vectorize(lambda v: float(f"{v:.15g}"), otypes=[float])(values)
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values.tolist()}


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    out = {}
    for name, (make, args, _) in sorted(cases(jnp, lax).items()):
        result = make(*args)
        out[name] = [_leaf(leaf) for leaf in jax.tree_util.tree_leaves(result)]
    with open(path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": out}, f, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_extras.json")
