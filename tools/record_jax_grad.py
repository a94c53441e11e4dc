"""Record JAX's gradients and JVPs of the functions in tests/grad_cases.py as test data for
transpile's autodiff (tests/test_grad_jax.py). JAX is not a dependency of transpile: run

    /tmp/jaxenv/bin/python tools/record_jax_grad.py tests/data/jax_grad.json

with any Python that has jax (0.10 recorded the committed file). Everything is float64.
"""
from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from grad_cases import cases  # noqa: E402


def main(path):
    jax.config.update("jax_enable_x64", True)
    out = {"jax_version": jax.__version__, "cases": {}}
    for name, (fun, x) in cases(jnp, lax).items():
        x = jnp.asarray(np.asarray(x, dtype=np.float64))
        direction = jnp.asarray(np.cos(np.arange(x.size) + 1.0).reshape(x.shape))
        value, g = jax.value_and_grad(fun)(x)
        _, tangent = jax.jvp(fun, (x,), (direction,))
        hess = jax.hessian(fun)(x) if x.size <= 6 else None
        out["cases"][name] = {"x": np.asarray(x).tolist(), "direction": np.asarray(direction).tolist(),
                              "value": float(value), "grad": np.asarray(g).tolist(),
                              "jvp": float(tangent),
                              "hessian": None if hess is None else np.asarray(hess).tolist()}
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_grad.json")
