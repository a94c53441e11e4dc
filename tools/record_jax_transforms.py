"""Record JAX's results for the transformation table of tests/transform_cases.py (vmap,
the grad family, custom rules, control flow, composition, expected errors) as test data for
tests/test_transform_matrix.py. JAX is not a dependency of transpile: run

    /tmp/jaxenv/bin/python tools/record_jax_transforms.py tests/data/jax_transforms.json

with a Python that has jax (0.10.2 recorded the committed file), in 64-bit mode so that
JAX's dtypes are NumPy's (and transpile's). A result is stored as its tree's shape and each
leaf's dtype, shape and values; a case that raises, as the builtin exception class JAX's
error derives from (what transpile must raise, or a subclass of it).
"""
from __future__ import annotations

import builtins
import json
import os
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from transform_cases import cases, tree_shape  # noqa: E402


def leaf_record(x):
    x = np.asarray(x)
    if x.dtype == jax.dtypes.float0:
        return {"dtype": "float0", "shape": list(x.shape), "values": None}
    values = x.astype(int).tolist() if x.dtype == np.bool_ else x.tolist()
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values}


def builtin_base(error: BaseException) -> str:
    """The first builtin exception class in the MRO of `error`'s type."""
    for cls in type(error).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls.__name__
    return "Exception"


def record(thunk):
    try:
        out = thunk()
    except Exception as e:          # an expected error: its kind is the result
        return {"error": builtin_base(e), "message": str(e).splitlines()[0][:200]}
    leaves = jax.tree_util.tree_leaves(out)
    return {"tree": tree_shape(out), "leaves": [leaf_record(x) for x in leaves]}


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    recorded = {name: record(thunk) for name, thunk in cases(jax).items()}
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "cases": recorded}, fh, indent=None,
                  separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    errors = sum("error" in r for r in recorded.values())
    print(f"wrote {len(recorded)} cases ({errors} expected errors) to {path}")
    for name, r in recorded.items():
        if "error" in r:
            print(f"  {name}: {r['error']}: {r['message']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_transforms.json")
