"""Record JAX's result dtypes and weak types for the operation x dtype table of
tests/jax_dtype_cases.py, with 64-bit mode off and on (tests/test_jax_dtype_rules.py checks
transpile's JAX mode against them). JAX is not a dependency of transpile: run this with a
Python that has JAX installed,

    /path/to/jax/python tools/record_jax_dtypes.py tests/data/jax_dtypes.json

Each case's result is one token, the dtype's name with '*' when weakly typed, or 'E' where
JAX raises; tokens are stored in the cases' order, one string per mode, with the case names'
hash so that a changed case list is noticed rather than misread.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jax_dtype_cases as table  # noqa: E402


def result_token(call, kinds) -> str:
    operands = [table.operand(k) for k in kinds]
    arrays = [x for x in operands if isinstance(x, np.ndarray)]

    def traced(*given):       # Python scalars stay Python scalars (weak), arrays are traced
        it = iter(given)
        return call(jnp, *(next(it) if isinstance(x, np.ndarray) else x for x in operands))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # eval_shape: JAX's dtype rules without compiling each case (eager and traced
            # JAX agree on dtypes; the values are not recorded).
            out = jax.eval_shape(traced, *arrays)
    except (TypeError, ValueError, OverflowError, NotImplementedError):
        return table.ERROR
    return table.encode(out.dtype, bool(getattr(out, "weak_type", False)))


def edge_values() -> dict:
    """JAX's values where integer and cast semantics differ from NumPy's (for the README and
    the value checks): division by zero, shifts past the width, out-of-range float->int."""
    i32 = jnp.array([7, -7, 0], jnp.int32)
    return {
        "floor_divide_by_zero_int32": jnp.floor_divide(i32, 0).tolist(),
        "remainder_by_zero_int32": jnp.remainder(i32, 0).tolist(),
        "left_shift_int32_by_40": jnp.left_shift(i32, 40).tolist(),
        "right_shift_int32_by_40": jnp.right_shift(i32, 40).tolist(),
        "float32_to_int32": jnp.array([1e10, -1e10, np.nan, np.inf], jnp.float32)
        .astype(jnp.int32).tolist(),
        "float32_to_uint8": jnp.array([300.0, -1.0, np.nan], jnp.float32)
        .astype(jnp.uint8).tolist(),
    }


def main(path):
    cases = table.cases()
    names = "\n".join(name for name, _, _ in cases)
    recorded = {"jax_version": jax.__version__,
                "cases_sha256": hashlib.sha256(names.encode()).hexdigest(), "modes": {}}
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        tokens = [result_token(call, kinds) for _, call, kinds in cases]
        recorded["modes"]["x64" if x64 else "x32"] = {
            "results": " ".join(tokens), "edge_values": edge_values()}
    with open(path, "w") as fh:
        json.dump(recorded, fh, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases x 2 modes to {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_dtypes.json")
