"""Record JAX's results for the second transformation table (tests/transform_cases2.py) as
test data for tests/test_transform_matrix2.py. JAX is not a dependency of transpile: run

    /tmp/jaxenv/bin/python tools/record_jax_transforms2.py tests/data/jax_transforms2.json

with a Python that has jax (0.10.2 recorded the committed file). Every case runs twice: in
64-bit mode ("x64") and in JAX's default 32-bit mode ("x32"), whose dtypes transpile's JAX
dtype rules follow. A result is stored as its tree's shape and each leaf's dtype, shape and
values; a case that raises, as the builtin exception class JAX's error derives from and
JAX's own class name (the first line of its message too, for the reader).
"""
from __future__ import annotations

import builtins
import json
import math
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from transform_cases2 import cases, tree_shape  # noqa: E402

MODES = {"x64": True, "x32": False}


def _number(v):
    """A float as JSON can hold it: inf and nan as strings."""
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def _values(x):
    if x.dtype == np.bool_:
        return x.astype(int).tolist()
    if x.dtype.kind == "c":
        return [[_number(z.real), _number(z.imag)] for z in x.ravel().tolist()]
    flat = [_number(v) for v in x.ravel().tolist()]
    return flat


def leaf_record(x):
    if isinstance(x, jax.Array) and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key):
        x = jax.random.key_data(x)
    x = np.asarray(x)
    if x.dtype == jax.dtypes.float0:
        return {"dtype": "float0", "shape": list(x.shape), "values": None}
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": _values(x)}


def builtin_base(error: BaseException) -> str:
    """The first builtin exception class in the MRO of `error`'s type."""
    for cls in type(error).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls.__name__
    return "Exception"


def record(thunk):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = thunk()
            leaves = jax.tree_util.tree_leaves(out)
            return {"tree": tree_shape(out), "leaves": [leaf_record(x) for x in leaves]}
    except Exception as e:          # an expected error: its kind is the result
        return {"error": builtin_base(e), "jax_class": type(e).__name__,
                "message": str(e).strip().splitlines()[0][:200] if str(e).strip() else ""}


def main(path):
    recorded = {}
    for mode, x64 in MODES.items():
        jax.config.update("jax_enable_x64", x64)
        recorded[mode] = {name: record(thunk) for name, thunk in cases(jax).items()}
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "modes": recorded}, fh, indent=None,
                  separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    for mode, table in recorded.items():
        errors = {n: r for n, r in table.items() if "error" in r}
        print(f"{mode}: {len(table)} cases, {len(errors)} errors")
        for name, r in errors.items():
            print(f"  {name}: {r['jax_class']}({r['error']}): {r['message'][:110]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_transforms2.json")
