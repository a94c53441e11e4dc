"""Record JAX's outputs for the real-program corpus (tests/realprog/*.py) as test data for
tests/test_realprog.py.

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_realprog.py tests/data/jax_realprog.json [NAME ...]

Naming programs re-records only those and keeps the file's other entries.

64-bit mode stays as JAX's default (off) unless a program turns it on itself (orbit_x64.py,
at import; the setting is restored after each program), so the recorded dtypes are the
float32/int32 ones a JAX user gets. Each program is imported from its file with
real JAX, called on its own `inputs()`, and every output leaf is stored with its dtype, shape
and values (floats as Python floats; booleans as 0/1).
"""
from __future__ import annotations

import glob
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from realprog.jax_shim import load_program  # noqa: E402


def leaf_record(x):
    x = np.asarray(x)
    values = x.tolist() if x.dtype != np.bool_ else x.astype(int).tolist()
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values}


def program_paths():
    return sorted(p for p in glob.glob(os.path.join(ROOT, "tests", "realprog", "*.py"))
                  if not os.path.basename(p).startswith(("_", "jax_shim")))


def main(path, only=()):
    recorded = {}
    if only and os.path.exists(path):
        with open(path) as fh:
            recorded = json.load(fh)["programs"]
    for program_path in program_paths():
        name = os.path.basename(program_path)[:-3]
        if only and name not in only:
            continue
        x64 = jax.config.jax_enable_x64
        try:
            module = load_program(program_path, with_transpile=False)
            out = module.program(*module.inputs())
            recorded[name] = [leaf_record(leaf) for leaf in jax.tree_util.tree_leaves(out)]
        finally:    # a program that turns 64-bit mode on keeps it to itself
            jax.config.update("jax_enable_x64", x64)
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "programs": dict(sorted(recorded.items()))}, fh, indent=None,
                  separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {len(recorded)} programs to {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data",
                                                             "jax_realprog.json"),
         only=tuple(sys.argv[2:]))
