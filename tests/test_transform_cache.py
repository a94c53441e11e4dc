"""Eager transformations keep their traces (transpile/transform_cache.py): a second
`grad(f)(x)` or `vmap(f)(xs)` with the same signature replays the traced program instead of
calling `f` again; new shapes, dtypes, static values, transformation parameters or rebound
closure/global values trace again, so no result is stale."""
from __future__ import annotations

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import transform_cache


def counted(body):
    """`body` wrapped to count how many times it is traced (run in Python)."""
    calls = []

    def f(*args, **kwargs):
        calls.append(1)
        return body(*args, **kwargs)
    return f, calls


def test_second_eager_grad_call_does_not_trace_again():
    f, calls = counted(lambda x: tnp.sum(tnp.sin(x) * x))
    x = np.array([0.3, -1.2, 2.5])
    first = tp.grad(f)(x)
    second = tp.grad(f)(x + 1.0)         # a new grad object, same function and signature
    assert len(calls) == 1
    np.testing.assert_allclose(second, np.sin(x + 1) + (x + 1) * np.cos(x + 1))
    np.testing.assert_allclose(first, np.sin(x) + x * np.cos(x))
    info = transform_cache.cache_info(f)
    assert (info.misses, info.hits) == (1, 1)


def test_new_shape_dtype_or_parameters_trace_again():
    f, calls = counted(lambda x: tnp.sum(x ** 2))
    g = tp.grad(f)
    g(np.ones(3))
    g(np.ones(4))                                  # shape
    g(np.ones(3, np.float32))                      # dtype
    g(2.0)                                         # a Python float: a weak-typed scalar
    g(np.ones(3))                                  # seen before
    assert len(calls) == 4
    tp.value_and_grad(f)(np.ones(3))               # grad's own program: shared
    tp.grad(f, has_aux=False)(np.ones(3))          # the same parameters as g
    assert len(calls) == 4
    tp.jacrev(f)(np.ones(3))                       # another transformation of f
    tp.grad(f, argnums=(0,))(np.ones(3))           # other parameters
    assert len(calls) == 6
    assert g(np.ones(3, np.float32)).dtype == np.float32


def test_static_arguments_key_by_value():
    f, calls = counted(lambda x, n: tnp.sum(x ** n))
    g = tp.grad(f)
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(g(x, 2), 2 * x)
    np.testing.assert_allclose(g(x, 3), 3 * x ** 2)
    np.testing.assert_allclose(g(x, 2), 2 * x)
    assert len(calls) == 2


SCALE = 2.0


def scaled_square(x):
    return tnp.sum(x ** 2) * SCALE


def test_rebinding_a_global_or_closure_value_traces_again():
    global SCALE
    x = np.array([1.0, 3.0])
    np.testing.assert_allclose(tp.grad(scaled_square)(x), 4 * x)
    SCALE = 5.0
    try:
        np.testing.assert_allclose(tp.grad(scaled_square)(x), 10 * x)
    finally:
        SCALE = 2.0
    offset = np.array([1.0, 1.0])

    def shifted(v):
        return tnp.sum((v - offset) ** 2)
    np.testing.assert_allclose(tp.grad(shifted)(x), 2 * (x - 1))
    offset = np.array([3.0, 0.0])      # the closure cell now holds a new array
    np.testing.assert_allclose(tp.grad(shifted)(x), 2 * (x - [3.0, 0.0]))


def test_eager_vmap_keeps_its_trace():
    f, calls = counted(lambda x, y: tnp.sin(x) * y)
    xs = np.linspace(0.0, 1.0, 6).reshape(3, 2)
    for k in range(3):
        out = tp.vmap(f, in_axes=(0, None))(xs + k, 2.0)
        np.testing.assert_allclose(out, np.sin(xs + k) * 2.0)
    assert len(calls) == 1
    tp.vmap(f, in_axes=(1, None))(xs, 2.0)         # other in_axes: another program
    tp.vmap(f, in_axes=(0, None))(xs[:2], 2.0)     # other batch size
    assert len(calls) == 3


def test_vmap_of_grad_made_anew_each_call_is_traced_once():
    f, calls = counted(lambda w, x: tnp.tanh(tnp.dot(w, x)) ** 2)
    w, xs = np.array([0.5, -0.3]), np.arange(8.0).reshape(4, 2) / 8
    expected = None
    for _ in range(3):
        out = tp.vmap(tp.grad(f), in_axes=(None, 0))(w, xs)
        expected = out if expected is None else expected
        np.testing.assert_array_equal(out, expected)
    assert len(calls) == 1


def test_a_function_needing_a_concrete_argument_still_runs_eagerly():
    # `n` is an array the gradient is not taken with respect to: eager grad passes it as
    # it is (as JAX), so Python may read its value; the cached trace cannot, and the call
    # falls back to the uncached path, with the same answers.
    def f(x, n):
        return tnp.sum(x ** int(n))
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(tp.grad(f)(x, np.array(3)), 3 * x ** 2)
    np.testing.assert_allclose(tp.grad(f)(x, np.array(2)), 2 * x)
    assert transform_cache.cache_info(f).uncached >= 1


def test_has_aux_and_keyword_arguments_through_the_cache():
    f, calls = counted(lambda x, *, scale: (tnp.sum(x * scale), {"n": x.shape[0]}))
    x = np.array([1.0, 2.0, 3.0])
    for _ in range(2):
        g, aux = tp.grad(f, has_aux=True)(x, scale=np.array(2.0))
        np.testing.assert_allclose(g, [2.0, 2.0, 2.0])
        assert int(aux["n"]) == 3
    assert len(calls) == 1
