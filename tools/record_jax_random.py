"""Record jax.random outputs as test data for transpile.random (tests/test_random.py).

JAX is not a dependency of transpile: install it outside the repository and run

    pip install --target /tmp/jaxpkgs jax jaxlib
    PYTHONPATH=/tmp/jaxpkgs python tools/record_jax_random.py tests/data/jax_random.json

Each case names a jax.random function, a seed (the key is PRNGKey(seed)), its static
arguments and array arguments. Cases marked x64 run in a second process with
JAX_ENABLE_X64=1 (64-bit dtypes, and seeds beyond int32). Results are stored exactly:
integers as numbers, floats by their bits (as unsigned integers of the same width).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

U32MAX = 2**32 - 1


def arr(values, dtype):
    return {"array": values, "dtype": dtype}


P5 = [0.1, 0.2, 0.3, 0.25, 0.15]
CASES = [
    # (function, seed, kwargs, x64)
    *[("PRNGKey", s, {}, False) for s in (0, 1, 42, 2**31 - 1, -1, -2**31, 123456789)],
    *[("PRNGKey", s, {}, True) for s in (2**40 + 5, -1, 2**63 - 1, -2**63, U32MAX)],
    *[("split", s, {"num": n}, False) for s in (0, 42, -7) for n in (2, 3, [2, 3])],
    ("split", 5, {"num": 1}, False),
    *[("fold_in", s, {"data": d}, False) for s in (0, 42) for d in (0, 1, 7, U32MAX)],
    *[("bits", s, {"shape": sh, "dtype": dt}, dt == "uint64")
      for s in (0, 3) for sh in ([], [5], [2, 3])
      for dt in ("uint8", "uint16", "uint32", "uint64")],
    *[("uniform", s, {"shape": sh, "dtype": "float32"}, False)
      for s in (0, 1, 42) for sh in ([], [7], [3, 4])],
    ("uniform", 9, {"shape": [6], "dtype": "float32", "minval": -2.5, "maxval": 3.0}, False),
    ("uniform", 9, {"shape": [2, 3], "dtype": "float32",
                    "minval": arr([[-1.0], [10.0]], "float32"), "maxval": 12.0}, False),
    *[("uniform", s, {"shape": [6], "dtype": "float64"}, True) for s in (0, 42)],
    ("uniform", 8, {"shape": [5], "dtype": "float64", "minval": 1.0, "maxval": 1e6}, True),
    *[("normal", s, {"shape": [64], "dtype": "float32"}, False) for s in (0, 1, 42)],
    ("normal", 3, {"shape": [], "dtype": "float32"}, False),
    *[("normal", s, {"shape": [64], "dtype": "float64"}, True) for s in (0, 42)],
    *[("randint", s, {"shape": [8], "minval": lo, "maxval": hi, "dtype": "int32"}, False)
      for s in (0, 42) for lo, hi in ((0, 10), (-5, 5), (0, 2**31 - 1), (3, 3), (7, 2),
                                      (-2**31, 2**31 - 1))],
    ("randint", 1, {"shape": [8], "minval": 0, "maxval": 256, "dtype": "uint8"}, False),
    ("randint", 1, {"shape": [8], "minval": -128, "maxval": 127, "dtype": "int8"}, False),
    ("randint", 1, {"shape": [8], "minval": -1000, "maxval": 1000, "dtype": "int16"}, False),
    ("randint", 1, {"shape": [8], "minval": 0, "maxval": 2**32 - 1, "dtype": "uint32"}, True),
    ("randint", 2, {"shape": [2, 3], "minval": arr([0, 10, 100], "int32"),
                    "maxval": 1000, "dtype": "int32"}, False),
    ("randint", 2, {"shape": [8], "minval": -2**40, "maxval": 2**40, "dtype": "int64"}, True),
    ("randint", 2, {"shape": [8], "minval": 0, "maxval": 10, "dtype": "int64"}, True),
    *[("bernoulli", s, {"p": 0.3, "shape": [16]}, False) for s in (0, 42)],
    ("bernoulli", 4, {"p": arr([0.0, 0.25, 0.5, 0.75, 1.0], "float32")}, False),
    ("bernoulli", 4, {"p": 0.5, "shape": [16], "mode": "high"}, False),
    ("bernoulli", 5, {"p": arr([0.1, 0.9], "float64"), "shape": [3, 2]}, True),
    *[("permutation", s, {"x": n}, False) for s in (0, 42) for n in (1, 5, 10, 2000)],
    ("permutation", 3, {"x": arr([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], "int32")},
     False),
    ("permutation", 3, {"x": arr([[1, 2, 3], [4, 5, 6]], "float32"), "axis": 1}, False),
    ("permutation", 3, {"x": arr([[1, 2, 3], [4, 5, 6]], "int32"), "axis": 1,
                        "independent": True}, False),
    *[("choice", s, {"a": 5, "shape": [3]}, False) for s in (0, 42)],
    ("choice", 1, {"a": 10, "shape": [2, 2], "replace": False}, False),
    ("choice", 1, {"a": arr([10.0, 20.0, 30.0, 40.0], "float32"), "shape": [6]}, False),
    ("choice", 1, {"a": arr([[1, 2, 3], [4, 5, 6]], "int32"), "shape": [2], "axis": 1,
                   "replace": False}, False),
    ("choice", 6, {"a": 5, "shape": [8], "p": arr(P5, "float32")}, False),
    ("choice", 6, {"a": 5, "shape": [3], "replace": False, "p": arr(P5, "float32")}, False),
    ("gumbel", 2, {"shape": [16], "dtype": "float32"}, False),
]


def encode(value):
    import numpy as np
    value = np.asarray(value)
    if value.dtype.kind == "f":
        bits = value.view(f"uint{value.dtype.itemsize * 8}")
        return {"dtype": str(value.dtype), "shape": list(value.shape),
                "bits": bits.ravel().tolist()}
    return {"dtype": str(value.dtype), "shape": list(value.shape),
            "values": value.ravel().astype(object if value.dtype == bool else value.dtype)
            .tolist()}


def decode_arg(value):
    import jax.numpy as jnp
    if isinstance(value, dict) and "array" in value:
        return jnp.asarray(value["array"], dtype=value["dtype"])
    return tuple(value) if isinstance(value, list) else value


def run(x64: bool) -> list:
    import jax
    from jax import random
    out = []
    for index, (name, seed, kwargs, case_x64) in enumerate(CASES):
        if case_x64 != x64:
            continue
        if name == "PRNGKey":
            result = random.PRNGKey(seed)
        else:
            key = random.PRNGKey(seed)
            args = {k: decode_arg(v) for k, v in kwargs.items()}
            result = getattr(random, name)(key, **args)
        out.append({"index": index, "result": encode(jax.device_get(result))})
    return out


def main(path: str) -> None:
    if os.environ.get("RECORD_CHILD"):
        json.dump(run(os.environ.get("JAX_ENABLE_X64") == "1"), sys.stdout)
        return
    import jax
    results = {}
    for x64 in ("0", "1"):
        env = dict(os.environ, RECORD_CHILD="1", JAX_ENABLE_X64=x64, JAX_PLATFORMS="cpu")
        text = subprocess.run([sys.executable, __file__], env=env, check=True,
                              capture_output=True, text=True).stdout
        for entry in json.loads(text):
            results[entry["index"]] = entry["result"]
    cases = [{"fn": name, "seed": seed, "kwargs": kwargs, "x64": x64,
              "expected": results[i]} for i, (name, seed, kwargs, x64) in enumerate(CASES)]
    with open(path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_random.json")
