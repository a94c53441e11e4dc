"""Record jax.random's distribution samplers (gamma, beta, poisson, binomial, ...) as test data
for transpile.random (tests/test_random_dists.py).

JAX is not a dependency of transpile: run this with an interpreter that has JAX, e.g.

    /tmp/jaxenv/bin/python tools/record_jax_random_dists.py tests/data/jax_random_dists.json

Each case names a jax.random function, a seed (the key is PRNGKey(seed)) and its arguments;
cases marked x64 run in a second process with JAX_ENABLE_X64=1. Floats are stored by their bits.
`--size N` records every sampled case with N draws instead of its own shape (to measure how
often transpile's draws equal JAX's on many samples; keep the committed file small).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from record_jax_random import decode_arg, encode


def arr(values, dtype):
    return {"array": values, "dtype": dtype}


N = 64          # draws per sampled case in the committed file
ALPHAS = arr([0.05, 0.3, 0.9, 1.0, 1.7, 4.0, 30.0, 250.0], "float32")
CASES = [
    # (function, seed, kwargs, x64); "shape" of [N] is replaced by --size
    *[("gamma", s, {"a": a, "shape": [N]}, False) for s in (0, 7) for a in (0.3, 1.0, 3.5)],
    ("gamma", 1, {"a": ALPHAS}, False),
    ("gamma", 2, {"a": 2.5, "shape": [N], "dtype": "float64"}, True),
    ("gamma", 2, {"a": 0.4, "shape": [N], "dtype": "float64"}, True),
    *[("loggamma", s, {"a": a, "shape": [N]}, False) for s in (0, 3) for a in (0.02, 0.7, 6.0)],
    ("loggamma", 4, {"a": 0.25, "shape": [N], "dtype": "float64"}, True),
    *[("beta", s, {"a": a, "b": b, "shape": [N]}, False)
      for s in (0, 5) for a, b in ((0.5, 0.5), (2.0, 5.0), (0.1, 3.0))],
    ("beta", 6, {"a": 2.0, "b": 3.0, "shape": [N], "dtype": "float64"}, True),
    ("dirichlet", 0, {"alpha": arr([0.5, 1.0, 2.0, 4.0], "float32"), "shape": [16]}, False),
    ("dirichlet", 1, {"alpha": arr([[0.1, 0.2], [3.0, 1.0]], "float32")}, False),
    *[("chisquare", s, {"df": df, "shape": [N]}, False) for s in (0, 8) for df in (1.0, 5.0)],
    *[("t", s, {"df": df, "shape": [N]}, False) for s in (0, 9) for df in (1.5, 10.0)],
    ("f", 0, {"dfnum": 3.0, "dfden": 7.0, "shape": [N]}, False),
    ("f", 10, {"dfnum": 20.0, "dfden": 2.5, "shape": [N]}, False),
    *[("poisson", s, {"lam": lam, "shape": [N]}, False)
      for s in (0, 11) for lam in (0.5, 4.0, 9.99, 10.0, 80.0, 5000.0)],
    ("poisson", 12, {"lam": arr([0.0, 1.0, 3.0, 12.0, 40.0, 300.0], "float32")}, False),
    ("poisson", 13, {"lam": 25.0, "shape": [N], "dtype": "int64"}, True),
    *[("binomial", s, {"n": n, "p": p, "shape": [N]}, False)
      for s in (0, 14) for n, p in ((10.0, 0.3), (5.0, 0.9), (100.0, 0.4), (1000.0, 0.97))],
    ("binomial", 15, {"n": arr([0.0, 3.0, 20.0, 60.0], "float32"),
                      "p": arr([0.5, 0.5, 0.2, 0.7], "float32")}, False),
    ("binomial", 16, {"n": 50.0, "p": 0.35, "shape": [N], "dtype": "float64"}, True),
    ("multinomial", 0, {"n": 20.0, "p": arr([0.1, 0.2, 0.3, 0.4], "float32")}, False),
    ("multinomial", 17, {"n": arr([5.0, 100.0, 1000.0], "float32"),
                         "p": arr([0.5, 0.25, 0.25], "float32"), "shape": [3, 3]}, False),
    *[("geometric", s, {"p": p, "shape": [N]}, False) for s in (0, 18) for p in (0.05, 0.6)],
    ("geometric", 19, {"p": 0.2, "shape": [N], "dtype": "int64"}, True),
    *[("pareto", s, {"b": b, "shape": [N]}, False) for s in (0, 20) for b in (1.0, 3.0)],
    ("weibull_min", 0, {"scale": 2.0, "concentration": 1.5, "shape": [N]}, False),
    ("weibull_min", 21, {"scale": arr([1.0, 2.0, 3.0], "float32"), "concentration": 0.5},
     False),
    ("rayleigh", 0, {"scale": 1.5, "shape": [N]}, False),
    ("rayleigh", 22, {"scale": arr([0.5, 2.0], "float32")}, False),
    ("maxwell", 0, {"shape": [N]}, False),
    ("double_sided_maxwell", 0, {"loc": 1.0, "scale": 2.0, "shape": [N]}, False),
    ("double_sided_maxwell", 23, {"loc": arr([0.0, 5.0], "float32"), "scale": 1.0}, False),
    ("wald", 0, {"mean": 1.0, "shape": [N]}, False),
    ("wald", 24, {"mean": 3.0, "shape": [N], "dtype": "float64"}, True),
    ("triangular", 0, {"left": -1.0, "mode": 0.5, "right": 2.0, "shape": [N]}, False),
    ("triangular", 25, {"left": 0.0, "mode": arr([0.0, 0.5, 1.0], "float32"), "right": 1.0},
     False),
    *[("generalized_normal", s, {"p": p, "shape": [N]}, False)
      for s in (0, 26) for p in (0.5, 1.0, 2.0, 4.0)],
    ("ball", 0, {"d": 3, "shape": [16]}, False),
    ("ball", 27, {"d": 2, "p": 1.0, "shape": [16]}, False),
    ("orthogonal", 0, {"n": 4}, False),
    ("orthogonal", 28, {"n": 3, "shape": [2]}, False),
    ("orthogonal", 29, {"n": 2, "m": 4}, False),
    ("orthogonal", 30, {"n": 5, "m": 3}, False),
    # "grad:NAME": the derivative of the draws' sum of squares with respect to argument "wrt"
    # (JAX's implicit reparameterisation gradients of the gamma family)
    ("grad:gamma", 0, {"a": ALPHAS, "wrt": "a"}, False),
    ("grad:loggamma", 1, {"a": ALPHAS, "wrt": "a"}, False),
    ("grad:beta", 2, {"a": ALPHAS, "b": 2.0, "wrt": "a"}, False),
    ("grad:beta", 3, {"a": 0.7, "b": arr([0.2, 1.0, 9.0], "float32"), "wrt": "b"}, False),
    ("grad:dirichlet", 4, {"alpha": arr([0.3, 1.0, 4.0], "float32"), "wrt": "alpha"}, False),
    ("grad:chisquare", 5, {"df": arr([1.0, 3.0, 12.0], "float32"), "wrt": "df"}, False),
    ("grad:t", 6, {"df": arr([2.0, 5.0, 40.0], "float32"), "wrt": "df"}, False),
    ("grad:gamma", 7, {"a": arr([0.5, 3.0], "float64"), "wrt": "a"}, True),
]


def sized(kwargs, size):
    if size is None or kwargs.get("shape") != [N]:
        return kwargs
    return dict(kwargs, shape=[size])


def run(x64: bool, size) -> list:
    import jax
    from jax import random
    out = []
    for index, (name, seed, kwargs, case_x64) in enumerate(CASES):
        if case_x64 != x64:
            continue
        args = {k: decode_arg(v) for k, v in sized(kwargs, size).items()}
        result = _call(random, name, random.PRNGKey(seed), args)
        out.append({"index": index, "result": encode(jax.device_get(result))})
    return out


def _call(random, name, key, args):
    if not name.startswith("grad:"):
        return getattr(random, name)(key, **args)
    import jax
    fn, wrt = getattr(random, name[len("grad:"):]), args.pop("wrt")
    return jax.grad(lambda v: _squares(fn(key, **{**args, wrt: v})))(args[wrt])


def _squares(x):
    """The draws' sum of squares (their plain sum would be constant for dirichlet)."""
    return (x * x).sum()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default="tests/data/jax_random_dists.json")
    parser.add_argument("--size", type=int, default=None)
    options = parser.parse_args()
    if os.environ.get("RECORD_CHILD"):
        json.dump(run(os.environ.get("JAX_ENABLE_X64") == "1", options.size), sys.stdout)
        return
    import jax
    results = {}
    for x64 in ("0", "1"):
        env = dict(os.environ, RECORD_CHILD="1", JAX_ENABLE_X64=x64, JAX_PLATFORMS="cpu")
        command = [sys.executable, __file__] + \
            ([] if options.size is None else ["--size", str(options.size)])
        text = subprocess.run(command, env=env, check=True, capture_output=True,
                              text=True).stdout
        for entry in json.loads(text):
            results[entry["index"]] = entry["result"]
    cases = [{"fn": name, "seed": seed, "kwargs": sized(kwargs, options.size), "x64": x64,
              "expected": results[i]} for i, (name, seed, kwargs, x64) in enumerate(CASES)]
    with open(options.path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
