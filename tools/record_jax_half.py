"""Record JAX's float16/bfloat16 results for tests/test_half.py: every single operation of
tests/half_cases.py on that module's edge inputs (jit-compiled, one operation per program),
casts into and out of both formats, and JAX's result dtypes when the formats meet other
dtypes and Python scalars (64-bit mode off and on). JAX is not a dependency of transpile: run
this with a Python that has JAX installed,

    /path/to/jax/python tools/record_jax_half.py tests/data/jax_half.json

16-bit results are stored as their bit patterns (so NaN, -0.0 and subnormals compare
exactly), other floats as numbers (JSON's NaN/Infinity), integers and booleans as numbers.
"""
from __future__ import annotations

import json
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

import half_cases as cases  # noqa: E402

DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}


def encode(x) -> dict:
    x = np.asarray(x)
    name = x.dtype.name
    if name in DTYPES:
        values = x.view(np.uint16).tolist()
    elif x.dtype.kind == "c":
        values = np.stack([x.real, x.imag], -1).tolist()
    else:
        values = x.tolist()
    return {"dtype": name, "shape": list(x.shape), "values": values}


def run(fn, *args):
    return encode(jax.jit(fn)(*args))


def elementwise(name, dt) -> dict:
    xs, ys = cases.edge_pairs(name)
    x, y = (jnp.asarray(np.array(v, dtype=dt)) for v in (xs, ys))
    out = {}
    for op in cases.UNARY:
        out[f"{op}"] = run(getattr(jnp, op), x)
    for op in cases.BINARY:
        out[f"{op}"] = run(getattr(jnp, op), x, y)
    out["add_weak_float"] = run(lambda a: a + 1.5, x)
    out["mul_weak_int"] = run(lambda a: a * 3, x)
    return out


def reductions(name, dt) -> dict:
    v = jnp.asarray(np.array(cases.finite_values(name), dtype=dt).reshape(4, 4))
    out = {}
    for op in cases.REDUCTIONS:
        out[f"{op}_all"] = run(lambda a, op=op: getattr(jnp, op)(a.ravel()), v)
        out[f"{op}_axis0"] = run(lambda a, op=op: getattr(jnp, op)(a, axis=0), v)
        out[f"{op}_axis1"] = run(lambda a, op=op: getattr(jnp, op)(a, axis=1), v)
    out["matmul"] = run(lambda a, b: a @ b, v, v.T)
    return out


def casts(name, dt) -> dict:
    xs, _ = cases.edge_pairs(name)
    x = jnp.asarray(np.array(xs, dtype=dt))
    out = {}
    for target in cases.CAST_TARGETS:
        tdt = DTYPES.get(target, target)
        out[f"to_{target}"] = run(lambda a, t=tdt: a.astype(t), x)
    for source, values in cases.cast_sources(name).items():
        src = jnp.asarray(np.array(values, dtype=source))
        out[f"from_{source}"] = run(lambda a: a.astype(dt), src)
    return out


def promotion_tokens() -> dict:
    """JAX's result dtype (with '*' when weak) of add and divide between each 16-bit format
    and every other operand kind, and of sin on each format."""
    others = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "float16",
              "bfloat16", "float32", "float64", "complex64", "py:int", "py:float", "py:bool"]
    py = {"py:int": 3, "py:float": 0.5, "py:bool": True}
    table = {}
    for name, dt in DTYPES.items():
        a = np.ones(2, dt)
        for other in others:
            b = py[other] if other in py else np.ones(2, DTYPES.get(other, other))
            for op in ("add", "divide"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = jax.eval_shape(lambda p, q, op=op: getattr(jnp, op)(p, q), a, b)
                table[f"{op}:{name}:{other}"] = r.dtype.name + ("*" if r.weak_type else "")
        r = jax.eval_shape(jnp.sin, a)
        table[f"sin:{name}"] = r.dtype.name
    return table


def main(path):
    data = {"jax": jax.__version__, "promotion": {}}
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        data["promotion"]["x64" if x64 else "x32"] = promotion_tokens()
    # Values with 64-bit mode on: float64 casts are then float64.
    for name, dt in DTYPES.items():
        data[name] = {**elementwise(name, dt), **reductions(name, dt), **casts(name, dt)}
    with open(path, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_half.json")
