"""reduce_window (any reducer, base and window dilation, pytrees), rng_bit_generator (XLA's
bits), reduce_precision and ragged_dot against JAX's recorded values
(tests/jax_laxgaps_cases.py, tools/record_jax_laxgaps.py): under JAX's dtype rules with x64
on, eagerly and under jit (one C build per group of cases). Then what recordings cannot
show: platform_dependent's choice, reduce_precision's derivative, make_jaxpr's JAX-style
attributes."""
from __future__ import annotations

import re

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
from jax_laxgaps_cases import GROUPS
from recorded_cases import RecordedCases

JAX_CASES = RecordedCases("jax_laxgaps.json", GROUPS, (tnp, tlax, tp))
# The shared tests (recorded_cases.py): eager and jit results and refusals against JAX's.
globals().update(JAX_CASES.tests())


def test_reduce_window_computation_must_keep_the_tree():
    with pytest.raises(ValueError, match="reduce_window output must have the same tree "
                                         "structure as the operands"):
        tlax.reduce_window(np.ones(3), 0.0, lambda a, b: [a + b], (1,), (1,), "VALID")


def test_reduce_window_rejects_empty_windows_as_jax_does():
    with pytest.raises(TypeError, match="must have every element be"):
        tlax.reduce_window(np.ones(1), 0.0, tlax.add, (0,), (1,), "VALID")


def test_reduce_window_any_reducer_is_differentiable_in_reverse():
    """JAX cannot take grad of a reduce_window with its own reducer; here the windows are
    slices and elementwise calls, so grad of a windowed difference is the sum of signs."""
    x = np.arange(6.0)
    grad = tp.grad(lambda y: tlax.reduce_window(y, 0.0, lambda a, b: a - b, (2,), (1,),
                                                "VALID").sum())(x)
    # each output is (0 - x[i]) - x[i+1]: every element enters once or twice with sign -1
    np.testing.assert_array_equal(grad, [-1, -2, -2, -2, -2, -1])


def test_rng_bit_generator_vmap_draws_from_each_key():
    """Documented difference: JAX's batching rule draws the whole batch from the first key
    (and advances only that one); here each key gives what it gives alone."""
    keys = np.arange(12, dtype=np.uint32).reshape(3, 4)
    new_keys, bits = tp.vmap(lambda k: tlax.rng_bit_generator(k, (2, 5)))(keys)
    for key, new_key, row in zip(keys, new_keys, bits):
        alone = tlax.rng_bit_generator(key, (2, 5))
        np.testing.assert_array_equal(new_key, alone[0])
        np.testing.assert_array_equal(row, alone[1])
    assert len({row.tobytes() for row in np.asarray(bits)}) == 3


def test_platform_dependent_runs_only_this_platforms_branch():
    x = np.arange(3.0)
    here = tp.default_backend()
    want = np.sin(x) if here == "cpu" else np.cos(x)

    def f(y):
        return tlax.platform_dependent(y, cpu=tnp.sin, cuda=tnp.cos,
                                       default=lambda _: 1 / 0)   # never traced
    np.testing.assert_allclose(f(x), want)
    np.testing.assert_allclose(tp.jit(f)(x), want)
    np.testing.assert_allclose(tp.vmap(f)(x), want)
    no_args = tlax.platform_dependent(cpu=lambda: 1.0, default=lambda: 2.0)
    assert no_args == (1.0 if here == "cpu" else 2.0)
    with pytest.raises(NotImplementedError, match="translation rule .* not found for platform"):
        tlax.platform_dependent(3.0, tpu=lambda v: v + 2.0)


def test_reduce_precision_passes_derivatives_straight_through():
    """Documented difference: JAX rounds the tangent too; here d/dx is exactly 1."""
    x = np.array([np.pi, 1e-3, 7.0])
    g = tp.grad(lambda y: tlax.reduce_precision(y, 8, 7).sum())(x)
    np.testing.assert_array_equal(g, np.ones(3))
    y, pullback = tp.vjp(lambda v: tlax.reduce_precision(v, 5, 10), np.pi)
    assert y == np.float64(np.float16(np.pi)) and pullback(2.0)[0] == 2.0


def test_make_jaxpr_reads_like_a_closed_jaxpr():
    def f(x, i):
        return tlax.dynamic_slice(x, [i], [2]) + 1.0
    closed = tp.make_jaxpr(f)(np.arange(5.0), np.uint32(1))
    assert [e.primitive for e in closed.eqns] == [tlax.dynamic_slice_p, tlax.add_p]
    assert closed.jaxpr.eqns is closed.eqns
    first = closed.eqns[0]
    assert first.invars[0] is closed.jaxpr.invars[0] and first.params["slice_sizes"] == (2,)
    assert first.outvars[0] is closed.eqns[1].invars[0]
    assert [a.shape for a in closed.in_avals] == [(5,), ()]
    assert [a.shape for a in closed.out_avals] == [(2,)]
    assert re.match(r"\{ lambda ; a:f64\[5\] b:u32\[\]\. let", str(closed))
    # JAX's integer_pow_p: transpile's pow of a static exponent (lax_numpy_test.py)
    squared = tp.make_jaxpr(lambda x: tp.numpy.power(x, 2))(3)
    assert [e.primitive for e in squared.eqns] == [tlax.integer_pow_p]


def test_make_jaxpr_keeps_the_constants_values():
    table = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
    closed = tp.make_jaxpr(lambda i: tnp.asarray(table)[i] * 2.0)(np.int32(2))
    assert len(closed.consts) == len(closed.jaxpr.constvars) == 1
    np.testing.assert_array_equal(closed.consts[0], table)


def test_composite_runs_its_decomposition_and_refuses_derivatives():
    top = tlax.composite(lambda x, *, k: tlax.top_k(x, k), name="my.top_k")
    values, indices = tp.jit(top, static_argnames="k")(np.array([1.0, 5.0, 3.0, 4.0]), k=2)
    np.testing.assert_array_equal(values, [5.0, 4.0])
    np.testing.assert_array_equal(indices, [1, 3])
    square = tlax.composite(lambda x: x ** 2, name="my.square")
    assert square(3.0) == 9.0
    with pytest.raises(ValueError, match="JVP rule for composite not implemented"):
        tp.grad(square)(1.0)
    with pytest.raises(tp.errors.UnexpectedTracerError, match="use numpy arrays instead"):
        tp.jit(lambda x: tlax.composite(lambda y, **_: y, "my.id")(x, scale=x))(1.0)
