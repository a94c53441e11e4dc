"""Record JAX's answers for the jax.numpy arguments and spellings that JAX's own
lax_numpy_test.py found missing or different in transpile (convolve's result dtypes and
preferred_element_type, complex logaddexp, interp's 'extrapolate', ravel_multi_index's dtype,
unravel_index's clipping, repeat's total_repeat_length), as test data for
tests/test_jax_numpy_gaps.py.

JAX is not a dependency of transpile; run with a separate environment that has it:

    /tmp/jaxenv/bin/python tools/record_jax_numpy_gaps.py tests/data/jax_numpy_gaps.json

x64 is on. Arrays are stored as {"values": flat values (complex as [re, im] pairs),
"shape": [...], "dtype": name}; inputs are built from fixed small lists so the test can
rebuild them.
"""
from __future__ import annotations

import json
import sys

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

CONV_DTYPES = ("bool", "int8", "int32", "uint8", "float16", "float32", "float64", "complex64")
CONV_A = [1, -2, 3, 0, 2]
CONV_V = [2, 1, -1]
COMPLEX_X = [0.5 + 1j, -2.0 + 0.25j, 3.0 - 2.0j, 1e3 + 1j, -1e3 - 3j]
COMPLEX_Y = [-1.0 + 2.5j, 0.5 - 0.5j, 3.0 + 2.0j, -1e3 + 2j, 1e3 + 3j]
INTERP_X = [0.5, 1.5, 3.5, 3.9, 6.0, -1.0]
INTERP_XP = [1.0, 2.0, 3.0, 5.0]
INTERP_FP = [10.0, 20.0, 30.0, 20.0]
UNRAVEL = [-13, -12, -5, -1, 0, 5, 11, 12, 30]


def encode(x) -> dict:
    a = np.asarray(x)
    flat = a.ravel()
    if np.iscomplexobj(a):
        values = [[float(v.real), float(v.imag)] for v in flat]
    elif a.dtype == np.bool_:
        values = [bool(v) for v in flat]
    elif np.issubdtype(a.dtype, np.integer):
        values = [int(v) for v in flat]
    else:
        values = [float(v) for v in flat]
    return {"values": values, "shape": list(a.shape), "dtype": str(a.dtype)}


def convolutions() -> dict:
    out = {}
    for dt in CONV_DTYPES:
        a, v = np.array(CONV_A).astype(dt), np.array(CONV_V).astype(dt)
        for name in ("convolve", "correlate"):
            for mode in ("full", "same", "valid"):
                out[f"{name},{dt},{mode}"] = encode(getattr(jnp, name)(a, v, mode=mode))
            if dt != "bool":
                out[f"{name},{dt},preferred"] = encode(
                    getattr(jnp, name)(a, v, preferred_element_type=dt))
    return out


def complex_logaddexp() -> dict:
    out = {}
    for dt in ("complex64", "complex128"):
        x, y = np.array(COMPLEX_X, dt), np.array(COMPLEX_Y, dt)
        out[f"logaddexp,{dt}"] = encode(jnp.logaddexp(x, y))
        out[f"logaddexp2,{dt}"] = encode(jnp.logaddexp2(x, y))
    return out


def interp() -> dict:
    x, xp, fp = (np.array(v) for v in (INTERP_X, INTERP_XP, INTERP_FP))
    cases = {"left": dict(left="extrapolate"), "right": dict(right="extrapolate"),
             "both": dict(left="extrapolate", right="extrapolate"),
             "mixed": dict(left=0.0, right="extrapolate")}
    return {name: encode(jnp.interp(x, xp, fp, **kw)) for name, kw in cases.items()}


def index_tricks() -> dict:
    out = {}
    for dt in ("int8", "int16", "int32", "uint8", "uint16"):
        i = np.array([0, 1], dt)
        out[f"ravel_multi_index,{dt}"] = encode(
            jnp.ravel_multi_index((i, i), (2, 3), mode="ignore"))
    for shape in ((12,), (3, 4), (2, 1, 6)):
        key = "unravel_index," + "x".join(map(str, shape))
        out[key] = [encode(c) for c in jnp.unravel_index(np.array(UNRAVEL), shape)]
    return out


def repeats() -> dict:
    m = np.array([1, 2, 3, 4, 5, 6])
    out = {}
    for length in (0, 3, 9, 15):
        out[f"repeat,{length}"] = encode(
            jnp.repeat(m, np.array([1, 3, 0, 1, 1, 2]), 0, total_repeat_length=length))
    return out


def main(path: str) -> None:
    data = {"jax_version": jax.__version__, "convolutions": convolutions(),
            "complex_logaddexp": complex_logaddexp(), "interp": interp(),
            "index_tricks": index_tricks(), "repeat": repeats()}
    with open(path, "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_numpy_gaps.json")
