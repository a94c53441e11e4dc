"""The JAX reference values of tests/data/jax_names.json (tools/record_jax_names.py) and the
machinery the tests of those names share: decode a recorded case, call transpile's function
of the same name eagerly or under `jit`, and compare with JAX's result."""
from __future__ import annotations

import importlib
import json
import os

import numpy as np

import transpile as tp

with open(os.path.join(os.path.dirname(__file__), "data", "jax_names.json")) as _f:
    DATA = json.load(_f)

_MODULES = {"jnp": "transpile.numpy", "lax": "transpile.lax", "nn": "transpile.nn",
            "special": "transpile.scipy.special", "stats": "transpile.scipy.stats"}
# Relative and absolute tolerances: XLA's and the C library's transcendental functions differ
# in their last bits, and composite functions carry that through a few operations.
TOLERANCE = {"float32": (4e-6, 1e-6), "float64": (1e-12, 1e-14)}


def cases(*prefixes):
    return [c for c in DATA["cases"] if c["fn"].startswith(prefixes)]


def case_id(case) -> str:
    dts = sorted({a["dtype"] for a in case["args"] if isinstance(a, dict) and "dtype" in a})
    extra = ",".join(f"{k}={v}" for k, v in case["kwargs"].items() if not isinstance(v, dict))
    return f"{case['fn']}[{'/'.join(dts)}]({extra})"


def resolve(path: str):
    head, *rest = path.split(".")
    obj = importlib.import_module(_MODULES[head])
    for part in rest:
        obj = getattr(obj, part)
    return obj


def decode(value):
    """Arrays back to NumPy arrays, dtype names to dtypes, lists of arrays to lists."""
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], dtype=value["dtype"]).reshape(value["shape"])
    if isinstance(value, dict) and "dtype_name" in value:
        return np.dtype(value["dtype_name"])
    if isinstance(value, dict) and list(value) == ["precision"] and \
            isinstance(value["precision"], str):
        return tp.lax.Precision[value["precision"]]
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def _is_array(v) -> bool:
    return isinstance(v, np.ndarray)


def call(case, jit: bool):
    """transpile's result for a recorded case. Under `jit`, array arguments (positional and
    keyword) are traced; everything else is static."""
    fn = resolve(case["fn"])
    args, kwargs = decode(case["args"]), decode(case["kwargs"])
    if not jit:
        return fn(*args, **kwargs)
    arrays = [a for a in args if _is_array(a)] + [v for v in kwargs.values() if _is_array(v)]

    def body(*traced):
        it = iter(traced)
        a = [next(it) if _is_array(x) else x for x in args]
        k = {n: next(it) if _is_array(v) else v for n, v in kwargs.items()}
        return fn(*a, **k)
    return tp.jit(body)(*arrays)


def tolerance_of(case):
    """The tolerance of the case's least precise float operand or result: a float32
    computation converted to float64 (norm.ppf) still carries float32's rounding."""
    names = {a.get("dtype") for a in case["args"] if isinstance(a, dict)}
    out = case["out"] if isinstance(case["out"], list) else [case["out"]]
    names |= {o["dtype"] for o in out}
    return TOLERANCE["float32" if "float32" in names else "float64"]


def assert_matches(got, expected, what, tolerance=None):
    """Same dtype and shape as JAX's, values within the tolerance (NaNs alike)."""
    if isinstance(expected, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), what
        for g, e in zip(got, expected):
            assert_matches(g, e, what, tolerance)
        return
    got = np.asarray(got)
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype}, JAX's {expected.dtype}"
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, JAX's {expected.shape}"
    if expected.dtype.kind in "fc":
        rtol, atol = tolerance or TOLERANCE[expected.dtype.name]
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=what)


def call_many(batch):
    """transpile's results for several cases from one jitted function (one compilation):
    every case's array arguments are traced, the rest static."""
    decoded = [(resolve(c["fn"]), decode(c["args"]), decode(c["kwargs"])) for c in batch]
    arrays = [[a for a in args if _is_array(a)] + [v for v in kw.values() if _is_array(v)]
              for _, args, kw in decoded]

    def body(traced):
        outs = []
        for (fn, args, kw), mine in zip(decoded, traced):
            it = iter(mine)
            a = [next(it) if _is_array(x) else x for x in args]
            k = {n: next(it) if _is_array(v) else v for n, v in kw.items()}
            outs.append(fn(*a, **k))
        return outs
    return tp.jit(body)(arrays)
