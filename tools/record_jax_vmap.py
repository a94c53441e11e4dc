"""Record jax.vmap results as test data for transpile.vmap (tests/test_vmap_jax.py).

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    JAX_ENABLE_X64=1 /path/to/jax/python tools/record_jax_vmap.py tests/data/jax_vmap.json

The programs are the shared cases of tests/vmap_cases.py, written against jax.numpy and
jax.lax, plus a few JAX-only spellings (random keys). 64-bit mode makes JAX's dtypes those
of NumPy (and transpile). Each result leaf is stored with its dtype, shape and values
(floats as Python floats, which round-trip float64 exactly).
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

from vmap_cases import cases  # noqa: E402


def extra_cases():
    """Programs whose spelling is the same in JAX and transpile but need JAX's modules."""
    keys = jax.random.split(jax.random.PRNGKey(3), 5)
    return {
        "random_normal_per_key": (lambda k: jax.random.normal(k, dtype=jnp.float32),
                                  (np.asarray(keys),), 0, 0),
        "random_uniform_per_key": (lambda k: jax.random.uniform(k, (3,), jnp.float32),
                                   (np.asarray(keys),), 0, 0),
    }


def leaf_record(x):
    x = np.asarray(x)
    values = x.tolist() if x.dtype != np.bool_ else x.astype(int).tolist()
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values}


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    recorded = {}
    for name, (f, args, in_axes, out_axes) in {**cases(jnp, lax), **extra_cases()}.items():
        # As JAX arrays: NumPy operands would be indexed by NumPy, which rejects tracers.
        args = jax.tree_util.tree_map(
            lambda x: jnp.asarray(x) if isinstance(x, np.ndarray) else x, args)
        out = jax.vmap(f, in_axes=in_axes, out_axes=out_axes)(*args)
        recorded[name] = [leaf_record(leaf) for leaf in jax.tree_util.tree_leaves(out)]
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "cases": recorded}, fh, indent=None,
                  separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {len(recorded)} cases to {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_vmap.json")
