"""transpile.nn.initializers against jax.nn.initializers' recorded weights (PRNGKey(0);
tests/data/jax_names.json, written by tools/record_jax_names.py): eagerly, and compiled with
the key traced. Normal draws go through erf_inv, whose last bits differ between XLA and
libm (see test_random.py), hence a few ulp of tolerance."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
from transpile import random
from transpile.nn import initializers
from jax_names_data import DATA, decode

INITS = DATA["initializers"]
TOLERANCE = {"float32": 2e-6, "float64": 1e-13}


def _case_id(case):
    params = ",".join(f"{k}={v}" for k, v in (case["params"] or {}).items())
    return f"{case['name']}({params})-{case['dtype']}-{'x'.join(map(str, case['shape']))}"


def _init(case):
    builder = getattr(initializers, case["name"])
    return builder if case["params"] is None else builder(**case["params"])


def _check(got, case, what):
    expected = decode(case["out"])
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, what
    np.testing.assert_allclose(got, expected, rtol=TOLERANCE[case["dtype"]],
                               atol=TOLERANCE[case["dtype"]], err_msg=what)


@pytest.mark.parametrize("case", INITS["cases"], ids=_case_id)
def test_eager_matches_jax(case):
    init = _init(case)
    _check(init(random.PRNGKey(0), tuple(case["shape"]), np.dtype(case["dtype"])), case,
           _case_id(case))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_jit_matches_jax(dtype):
    batch = [c for c in INITS["cases"] if c["dtype"] == dtype]

    def all_weights(key):
        return [_init(c)(key, tuple(c["shape"]), np.dtype(dtype)) for c in batch]
    for case, got in zip(batch, tp.jit(all_weights)(random.PRNGKey(0))):
        _check(got, case, _case_id(case) + " under jit")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_random_truncated_normal_matches_jax(dtype):
    expected = decode(INITS["random_truncated_normal"][dtype])
    for f in (random.truncated_normal, tp.jit(random.truncated_normal, static_argnums=(3, 4))):
        got = f(random.PRNGKey(3), -1.5, 0.5, (6,), np.dtype(dtype))
        np.testing.assert_allclose(got, expected, rtol=TOLERANCE[dtype])
        assert got.dtype == dtype and np.all((got > -1.5) & (got < 0.5))


def test_default_dtype_is_float32_as_transpile_random():
    w = initializers.glorot_uniform()(random.PRNGKey(0), (3, 2))
    assert w.dtype == np.float32


def test_orthogonal_columns_are_orthonormal():
    w = initializers.orthogonal(scale=3.0)(random.PRNGKey(1), (6, 4), np.float64)
    np.testing.assert_allclose(w.T @ w, 9.0 * np.eye(4), atol=1e-12)


@pytest.mark.parametrize("bad, match", [
    (lambda: initializers.variance_scaling(1.0, "fan_sum", "normal")(random.PRNGKey(0), (2, 2)),
     "mode"),
    (lambda: initializers.variance_scaling(1.0, "fan_in", "cauchy"), "distribution"),
    (lambda: initializers.lecun_normal()(random.PRNGKey(0), (5,)), "in_axis"),
    (lambda: initializers.normal()(random.PRNGKey(0), (2,), np.int32), "floating"),
])
def test_bad_arguments_name_themselves(bad, match):
    with pytest.raises((ValueError, TypeError), match=match):
        bad()
