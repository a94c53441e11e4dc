"""transpile.nn against jax.nn's recorded values (tests/data/jax_names.json, written by
tools/record_jax_names.py): each function eagerly, and all of them compiled to C in one
jitted program per dtype."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.nn as nn
import transpile.numpy as tnp
from jax_names_data import assert_matches, call, call_many, case_id, cases, decode

NN = cases("nn.")


@pytest.mark.parametrize("case", NN, ids=case_id)
def test_eager_matches_jax(case):
    got = call(case, jit=False)
    assert_matches(got, decode(case["out"]), case_id(case))
    assert isinstance(got, tp.numpy.ndarray) and hasattr(got, "at"), "eager results have .at"


def _by_dtype(dtype):
    return [c for c in NN if any(isinstance(a, dict) and a.get("dtype") == dtype
                                 for a in c["args"])]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_jit_matches_jax(dtype):
    batch = _by_dtype(dtype)
    assert batch
    for case, got in zip(batch, call_many(batch)):
        assert_matches(got, decode(case["out"]), case_id(case) + " under jit")


def test_functions_compile_to_c():
    """Not only traced: the C source holds the math (exp for softmax, tanh for gelu)."""
    x = np.linspace(-2, 2, 8).astype(np.float32)
    source = tp.jit(lambda v: nn.softmax(nn.gelu(v))).lower(x).source
    assert "tp_tanh_f32" in source and "expf" in source


def test_dtypes_follow_numpy_rules_for_integers():
    """Integer operands of float functions compute in float64 (NumPy's rule; JAX without
    x64 would give float32), and keep their type where the function is exact (relu)."""
    i = np.arange(-2, 3, dtype=np.int32)
    assert nn.sigmoid(i).dtype == np.float64
    assert nn.gelu(i).dtype == np.float64
    assert nn.relu(i).dtype == np.int32
    assert nn.one_hot(i, 3).dtype == np.float64
    assert nn.one_hot(i, 3, dtype=tnp.float32).dtype == np.float32


def test_softmax_sums_to_one_and_handles_huge_values():
    x = np.array([[1000.0, 1000.0], [-np.inf, 0.0]], dtype=np.float32)
    y = tp.jit(nn.softmax)(x)
    np.testing.assert_allclose(y, [[0.5, 0.5], [0.0, 1.0]])


def test_one_hot_needs_a_static_num_classes():
    with pytest.raises(tp.ConcretizationError):
        tp.jit(lambda x, n: nn.one_hot(x, n))(np.array([1]), 3)


def test_glu_needs_an_even_axis():
    with pytest.raises(ValueError, match="equal division"):
        nn.glu(np.ones((2, 3)))


def test_standardize_rejects_an_unknown_algorithm():
    with pytest.raises(ValueError, match="algorithm"):
        nn.standardize(np.ones(3), algorithm="exact")


def test_a_jax_style_classifier_runs_unchanged():
    """`import transpile as jax`: initializers, a dense layer with preferred_element_type,
    gelu, log_softmax and one_hot in one jitted loss, against the same math in NumPy."""
    import transpile as jax
    jnp = jax.numpy
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {"w": jax.nn.initializers.he_normal()(k1, (5, 3)),
              "b": jax.nn.initializers.zeros(k2, (3,))}
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
    labels = np.array([0, 2, 1, 2])

    @jax.jit
    def loss(p, x, y):
        logits = jax.nn.gelu(jnp.dot(x, p["w"], precision=jax.lax.Precision.HIGHEST,
                                     preferred_element_type=jnp.float32) + p["b"])
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, 3, dtype=jnp.float32)
                                 * jax.nn.log_softmax(logits), axis=-1))
    w = np.asarray(params["w"], np.float64)
    h = x.astype(np.float64) @ w
    g = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    log_p = g - np.log(np.exp(g).sum(-1, keepdims=True))
    expected = -log_p[np.arange(4), labels].mean()
    got = loss(params, x, labels)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5)
