"""transpile.random's distribution samplers (gamma, beta, poisson, binomial, ...) against draws
recorded from jax.random 0.10.2 (tests/data/jax_random_dists.json, written by
tools/record_jax_random_dists.py), eagerly, under jit and under vmap; the gradients through
gamma's parameter; their moments; shapes, dtypes and errors.

The samplers run JAX's algorithms on JAX's Threefry bits, so nearly every draw equals JAX's.
The exceptions are transcendental functions (log, lgamma, pow) rounding differently from
XLA's in the last bit: a value that went through them differs by an ulp or so (loggamma's
sums cancel near 0, hence an absolute tolerance too), and a rejection test sitting exactly
on its boundary may decide the other way (Poisson with lam in the thousands: ~0.2% of draws).
"""
from __future__ import annotations

import collections
import contextlib
import json
import math
import os

import numpy as np
import pytest

import transpile as tp
from transpile import random as R

with open(os.path.join(os.path.dirname(__file__), "data", "jax_random_dists.json")) as _f:
    DATA = json.load(_f)
CASES = collections.defaultdict(list)
for _case in DATA["cases"]:
    CASES[_case["fn"]].append(_case)
NAMES = sorted(name for name in CASES if not name.startswith("grad:"))
GRADS = [case for case in DATA["cases"] if case["fn"].startswith("grad:")]
KEY = R.PRNGKey(42)


def _expected(entry):
    dt = np.dtype(entry["dtype"])
    if "bits" in entry:
        return np.array(entry["bits"], f"uint{dt.itemsize * 8}").view(dt).reshape(entry["shape"])
    return np.array(entry["values"], dt).reshape(entry["shape"])


def _kwargs(case):
    return {k: np.asarray(v["array"], v["dtype"]) if isinstance(v, dict) else
            tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}


def _config(case):
    """x64 cases were recorded with JAX_ENABLE_X64: replay them under JAX's x64 rules."""
    if case["x64"]:
        return tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True)
    return contextlib.nullcontext()


def _matches(got, want):
    """Elementwise: equal to JAX's draw within 1e-5 relative (1e-6 absolute near zero)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind != "f":
        return got == want
    return np.isclose(got, want, rtol=1e-5, atol=1e-6) | (np.isnan(got) & np.isnan(want))


def _draw(case, jit=False):
    fn = getattr(R, case["fn"])
    kwargs = _kwargs(case)
    static = {k: v for k, v in kwargs.items() if not isinstance(v, np.ndarray)}
    arrays = {k: v for k, v in kwargs.items() if isinstance(v, np.ndarray)}

    def body(key, arrays):
        return fn(key, **static, **arrays)
    with _config(case):
        return (tp.jit(body) if jit else body)(R.PRNGKey(case["seed"]), arrays)


@pytest.mark.parametrize("name", NAMES)
def test_first_case_matches_jax_eagerly(name):
    case = CASES[name][0]
    assert np.all(_matches(_draw(case), _expected(case["expected"]))), case


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_case_matches_jax(name):
    matched = total = 0
    for case in CASES[name]:
        ok = _matches(_draw(case), _expected(case["expected"]))
        matched, total = matched + int(ok.sum()), total + ok.size
    assert matched >= 0.99 * total, (name, matched, total)


# The loops (the closed forms are elementwise code jit compiles everywhere else; orthogonal's
# QR is tested under jit by the linalg tests).
JITTED = ["gamma", "beta", "dirichlet", "poisson", "binomial", "multinomial"]


@pytest.mark.parametrize("name", JITTED)
def test_matches_jax_under_jit(name):
    """The rejection loops compile to C `while` loops over arrays; same draws as eagerly."""
    case = CASES[name][-1]
    want = _expected(case["expected"])
    assert np.mean(_matches(_draw(case, jit=True), want)) >= 0.99, case


VMAPPED = {  # the two kinds of loop: a lane per element (gamma), whole-array passes (poisson)
    False: lambda key: (R.gamma(key, np.float32(0.7), (5,)), R.poisson(key, 30.0, (4,))),
    True: lambda key: (R.gamma(key, np.float32(0.7), (5,)),),
}


@pytest.mark.parametrize("jit", [False, True])
def test_vmap_over_keys_draws_each_keys_sample(jit):
    """vmap of a sampler over a batch of keys equals one call per key (JAX's batching)."""
    keys = R.split(KEY, 3)
    draws = VMAPPED[jit]
    batched = tp.vmap(draws)
    got = (tp.jit(batched) if jit else batched)(keys)
    for i in range(3):
        for g, w in zip(got, draws(keys[i])):
            np.testing.assert_allclose(np.asarray(g)[i], w, rtol=1e-6)


def _moments(samples):
    x = np.asarray(samples, np.float64)
    return x.mean(axis=0), x.var(axis=0)


# name -> (draw 10^4 samples, the distribution's mean and variance)
MOMENTS = {
    "gamma": (lambda k, n: R.gamma(k, 2.5, (n,)), 2.5, 2.5),
    "gamma_small_a": (lambda k, n: R.gamma(k, 0.3, (n,)), 0.3, 0.3),
    "loggamma": (lambda k, n: R.loggamma(k, 4.0, (n,)),
                 1.2561176684318004, 0.2838229557371153),   # digamma(4), trigamma(4)
    "beta": (lambda k, n: R.beta(k, 2.0, 5.0, (n,)), 2 / 7, 10 / (49 * 8)),
    "dirichlet": (lambda k, n: R.dirichlet(k, np.array([1.0, 2.0, 5.0], np.float32), (n,)),
                  np.array([1, 2, 5]) / 8, np.array([1 * 7, 2 * 6, 5 * 3]) / (64 * 9)),
    "chisquare": (lambda k, n: R.chisquare(k, 3.0, (n,)), 3.0, 6.0),
    "t": (lambda k, n: R.t(k, 6.0, (n,)), 0.0, 1.5),
    "f": (lambda k, n: R.f(k, 4.0, 12.0, (n,)), 1.2, 2 * 144 * 14 / (4 * 100 * 8)),
    "poisson": (lambda k, n: R.poisson(k, 3.0, (n,)), 3.0, 3.0),
    "poisson_large": (lambda k, n: R.poisson(k, 40.0, (n,)), 40.0, 40.0),
    "binomial": (lambda k, n: R.binomial(k, 8.0, 0.3, (n,)), 2.4, 1.68),
    "binomial_btrs": (lambda k, n: R.binomial(k, 200.0, 0.7, (n,)), 140.0, 42.0),
    "multinomial": (lambda k, n: R.multinomial(k, 30.0, np.array([0.2, 0.3, 0.5], np.float32),
                                               shape=(n, 3)),
                    30 * np.array([0.2, 0.3, 0.5]), 30 * np.array([0.16, 0.21, 0.25])),
    "geometric": (lambda k, n: R.geometric(k, 0.25, (n,)), 4.0, 12.0),
    "pareto": (lambda k, n: R.pareto(k, 5.0, (n,)), 1.25, 5 / (16 * 3)),
    "weibull_min": (lambda k, n: R.weibull_min(k, 2.0, 3.0, (n,)),
                    2 * math.gamma(4 / 3), 4 * (math.gamma(5 / 3) - math.gamma(4 / 3) ** 2)),
    "rayleigh": (lambda k, n: R.rayleigh(k, 2.0, (n,)), 2 * math.sqrt(math.pi / 2),
                 4 * (4 - math.pi) / 2),
    "maxwell": (lambda k, n: R.maxwell(k, (n,)), 2 * math.sqrt(2 / math.pi), 3 - 8 / math.pi),
    "double_sided_maxwell": (lambda k, n: R.double_sided_maxwell(k, 1.0, 2.0, (n,)), 1.0, 12.0),
    "wald": (lambda k, n: R.wald(k, 2.0, (n,)), 2.0, 8.0),
    "triangular": (lambda k, n: R.triangular(k, 0.0, 1.0, 4.0, (n,)), 5 / 3, 13 / 18),
    "generalized_normal": (lambda k, n: R.generalized_normal(k, 1.0, (n,)), 0.0, 2.0),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MOMENTS))
def test_moments_match_the_distribution(name):
    """10^4 draws: mean within 5 standard errors, variance within 15% (loose: it catches a
    wrong algorithm or parameterisation, not the last digit)."""
    draw, mean, var = MOMENTS[name]
    got_mean, got_var = _moments(draw(KEY, 10_000))
    np.testing.assert_allclose(got_mean, mean, atol=5 * np.sqrt(np.max(var) / 10_000) + 1e-9)
    np.testing.assert_allclose(got_var, var, rtol=0.15)


@pytest.mark.parametrize("name", ["gamma", "poisson", "binomial", "wald"])
def test_moments_of_a_thousand_draws(name):
    draw, mean, var = MOMENTS[name]
    got_mean, got_var = _moments(draw(KEY, 1000))
    np.testing.assert_allclose(got_mean, mean, atol=5 * np.sqrt(var / 1000))
    np.testing.assert_allclose(got_var, var, rtol=0.3)


def test_supports_and_special_draws():
    assert np.all(np.asarray(R.beta(KEY, 0.5, 0.5, (200,))) <= 1)
    d = np.asarray(R.dirichlet(KEY, np.ones(4, np.float32), (50,)), np.float64)
    np.testing.assert_allclose(d.sum(-1), 1, rtol=1e-5)
    b = np.asarray(R.ball(KEY, 3, shape=(100,)), np.float64)
    assert b.shape == (100, 3) and np.all(np.linalg.norm(b, axis=-1) <= 1)
    q = np.asarray(R.orthogonal(KEY, 4, (2,)), np.float64)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(4), q.shape),
                               atol=1e-5)
    wide = np.asarray(R.orthogonal(KEY, 2, m=5), np.float64)
    np.testing.assert_allclose(wide @ wide.T, np.eye(2), atol=1e-5)
    lam = np.array([0.0, 2.0], np.float32)
    assert np.asarray(R.poisson(KEY, lam, (5, 2)))[:, 0].tolist() == [0] * 5
    tri = np.asarray(R.triangular(KEY, -1.0, 0.0, 1.0, (300,)))
    assert tri.min() >= -1 and tri.max() <= 1
    assert np.all(np.asarray(R.binomial(KEY, 7.0, 0.95, (100,))) <= 7)


def test_dtypes_and_shapes():
    assert R.gamma(KEY, 1.0).dtype == np.float32 and R.gamma(KEY, 1.0).shape == ()
    assert R.gamma(KEY, np.ones((2, 1), np.float32), (3, 2, 4)).shape == (3, 2, 4)
    assert R.gamma(KEY, 1.0, (2,), dtype=np.float64).dtype == np.float64
    assert R.poisson(KEY, 2.0, (3,)).dtype == np.int32
    assert R.poisson(KEY, 2.0, (3,), dtype=np.int16).dtype == np.int16
    assert R.geometric(KEY, 0.5, (3,)).dtype == np.int32
    assert R.binomial(KEY, 5.0, 0.5, (3,)).dtype == np.float32     # JAX's: a float dtype
    assert R.multinomial(KEY, 5.0, np.ones(3, np.float32) / 3).shape == (3,)
    assert R.dirichlet(KEY, np.ones(3, np.float32), (4, 2)).shape == (4, 2, 3)
    assert R.double_sided_maxwell(KEY, np.zeros(2, np.float32), 1.0).shape == (2, 2)
    assert R.weibull_min(KEY, np.ones(3, np.float32), 2.0).shape == (3,)
    assert R.orthogonal(KEY, 3, (2,), m=4).shape == (2, 3, 4)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        assert R.gamma(KEY, 1.0, (2,)).dtype == np.float64
        assert R.poisson(KEY, 2.0, (2,)).dtype == np.int64
        assert R.binomial(KEY, 5.0, 0.5, (2,)).dtype == np.float64


def test_bad_arguments_name_what_is_wrong():
    with pytest.raises(ValueError, match=r"random\.gamma: the parameter shapes a \(3,\)"):
        R.gamma(KEY, np.ones(3, np.float32), (2,))
    with pytest.raises(ValueError, match=r"random\.beta: the parameter shapes a \(2,\), b \(3,\)"):
        R.beta(KEY, np.ones(2, np.float32), np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"random\.poisson: .*lam \(4,\)"):
        R.poisson(KEY, np.ones(4, np.float32), (2, 3))
    with pytest.raises(ValueError, match="float dtype"):
        R.gamma(KEY, 1.0, dtype=np.int32)
    with pytest.raises(ValueError, match="integer dtype"):
        R.poisson(KEY, 1.0, dtype=np.float32)
    with pytest.raises(ValueError, match="alpha must have at least one dimension"):
        R.dirichlet(KEY, 1.0)
    with pytest.raises(ValueError, match=r"random\.orthogonal: n must be"):
        R.orthogonal(KEY, 2.5)
    with pytest.raises(TypeError, match="PRNG key"):
        R.poisson(np.zeros(3, np.uint32), 1.0)


def _sum_of_squares(x):
    return tp.numpy.sum(x * x)


def _gradient(case, jit=False):
    kwargs = _kwargs(case)
    fn, wrt = getattr(R, case["fn"][len("grad:"):]), kwargs.pop("wrt")
    key = R.PRNGKey(case["seed"])
    grad = tp.grad(lambda v: _sum_of_squares(fn(key, **{**kwargs, wrt: v})))
    with _config(case):
        return (tp.jit(grad) if jit else grad)(kwargs[wrt])


@pytest.mark.parametrize("case", GRADS, ids=lambda c: f"{c['fn']}-{c['seed']}")
def test_gradients_match_jax(case):
    """JAX's implicit reparameterisation gradients through gamma's parameter (gamma, loggamma
    and the samplers built on them), not derivatives of the rejection loop."""
    want = _expected(case["expected"])
    got = np.asarray(_gradient(case))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-7)


def test_gradient_under_jit_matches_eager():
    case = GRADS[0]
    np.testing.assert_allclose(_gradient(case, jit=True), _gradient(case), rtol=1e-5)


def test_grad_of_other_inputs_passes_through_gamma():
    """Only the parameter's derivative is missing: a draw used as a constant is fine."""
    g = tp.grad(lambda x: x * R.gamma(KEY, 3.0))(np.float32(2.0))
    np.testing.assert_allclose(g, R.gamma(KEY, 3.0), rtol=1e-6)


def test_traced_parameters_under_jit_draw_as_eagerly():
    def draws(key, a, lam, p):
        return R.gamma(key, a, (8,)), R.poisson(key, lam), R.generalized_normal(key, p, (4,))
    args = (KEY, np.float32(0.3), np.array([3.0, 50.0], np.float32), np.float32(1.5))
    for got, want in zip(tp.jit(draws)(*args), draws(*args)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_empty_shapes():
    assert R.gamma(KEY, 1.0, (0,)).shape == (0,)
    assert R.poisson(KEY, 1.0, (0, 2)).shape == (0, 2)
    assert tp.jit(lambda k: R.binomial(k, 3.0, 0.5, (0,)))(KEY).shape == (0,)
