"""Record JAX's results for the lax/linalg/special functions of tests/jax_laxapi_cases.py
(gather and scatter with dimension numbers, lax.fft, eig, polygamma...) as
tests/data/jax_laxapi.json, for tests/test_jax_laxapi.py.

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_laxapi.py tests/data/jax_laxapi.json

x64 is on (JAX_ENABLE_X64=1). Each result is a list of arrays (a tuple result flattened),
each stored with its dtype, shape and values (complex as [real, imaginary] pairs, floats to
17 significant digits, so float64 values round-trip; NaN and infinities as JSON's
non-standard tokens, which Python's json reads). A case that raises records the error's
type and message instead.
"""
from __future__ import annotations

import json
import os
import re
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.special as special  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from jax_laxapi_cases import GROUPS  # noqa: E402


def _leaf(x):
    x = np.asarray(x)
    values = np.stack([x.real, x.imag], -1) if np.iscomplexobj(x) else x
    if values.dtype.kind == "f":
        values = np.vectorize(lambda v: float(f"{v:.17g}"), otypes=[float])(values)
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values.tolist()}


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    out = {}
    for group in GROUPS:
        for name, (make, args, _) in sorted(group(jnp, lax, special, jax).items()):
            try:
                result = make(*args)
            except Exception as e:          # noqa: BLE001 (the error is what is recorded)
                # Where a function was defined, as the file's name only (no directories,
                # no line: editing the cases file must not invalidate the recording).
                message = re.sub(r" at \S*?([^/\s]+\.py):(\d+)", r" at \1", str(e))
                out[name] = {"error": type(e).__name__, "message": message}
                continue
            out[name] = [_leaf(leaf) for leaf in jax.tree_util.tree_leaves(result)]
    with open(path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": out}, f, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_laxapi.json")
