"""`.at[...]` outside jit: eager transpile results are EagerArrays (a numpy.ndarray subclass
with JAX's `.at`), so the same update code gives the same values and dtypes eagerly, under
jit (C), under the interpreter and under `disable_jit()`, without ever mutating an input."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.eager_array import EagerArray
from transpile.pytree import tree_leaves

IDX = np.array([0, 2, 0, 5])             # duplicates
WILD = np.array([-1, 9, 2, -9, 3])       # negative and out-of-bounds (dropped) indices


def _updates_1d(x, i):
    """Every kind of update on a 1-D array of length 6; `i` is traced under jit."""
    x = tnp.asarray(x)
    three = tnp.asarray(3).astype(x.dtype)
    return (
        x.at[1].set(5), x.at[-1].add(2), x.at[7].set(5), x.at[-8].multiply(3),
        x.at[1:4].multiply(2), x.at[2:].min(3), x.at[:3].max(4), x.at[4:2].set(1),
        x.at[IDX].add(1), x.at[IDX].multiply(2), x.at[IDX].min(three), x.at[IDX].max(4),
        x.at[np.array([1, 1, 3])].set(np.array([7, 8, 9])),          # the last set wins
        x.at[WILD].add(1), x.at[WILD].set(0),
        x.at[1:3].get(), x.at[np.array([0, -1, 2])].get(), x.at[2].get(),
        x.at[i].set(3), x.at[i].add(x[0]), x.at[i % 6].get(),
        (x * 2).at[0].set(1), tnp.zeros_like(x).at[np.array([1, 1])].add(x[0]),
        tnp.flip(x).at[1:3].set(0), tnp.cumsum(x).at[-1].set(0),
        x.at[0].set(1).at[1].add(x[2]).at[IDX].max(x[5]),
        tnp.arange(6).at[i].set(7), tnp.ones(6, x.dtype).at[::2].add(x[1::2]),
    )


def _updates_2d(a):
    a = tnp.asarray(a)
    stencil = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return (
        a.at[1:-1, 1:-1].set(stencil.astype(a.dtype)), a.at[1:-1, 1:-1].set(0),
        a.at[0, :].add(1), a.at[:, np.array([0, 2, 0])].add(1), a.at[-1, -1].max(100),
        a.at[np.array([0, 3]), np.array([1, -1])].multiply(3), a.at[..., 1].min(2),
        tnp.transpose(a).at[1].set(9), a.at[5, 0].set(1),
    )


def _all_ways(fn, *args):
    """(eager on EagerArrays, jit on the C backend, the interpreter, disable_jit) results;
    checks along the way that no argument was mutated."""
    before = [np.array(a, copy=True) for a in args]
    results = {"eager": fn(*args),
               "jit": tp.jit(fn)(*args),
               "interpret": tp.jit(fn, backend="interpret")(*args)}
    with tp.disable_jit():
        results["disable_jit"] = tp.jit(fn)(*args)
    for a, b in zip(args, before):
        np.testing.assert_array_equal(a, b)           # inputs are never mutated
    return results


def _assert_agree(results):
    reference = results["jit"]
    for how, got in results.items():
        assert len(got) == len(reference)
        for k, (g, w) in enumerate(zip(got, reference)):
            g, w = np.asarray(g), np.asarray(w)
            assert g.dtype == w.dtype and g.shape == w.shape, (how, k, g.dtype, w.dtype)
            np.testing.assert_array_equal(g, w, err_msg=f"{how}, result {k}")
    for k, g in enumerate(results["eager"]):
        if isinstance(g, np.ndarray):
            assert type(g) is EagerArray, k


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
@pytest.mark.parametrize("i", [2, -1, 10])
def test_updates_agree_eagerly_under_jit_interpret_and_disable_jit(dtype, i):
    x = (np.arange(6) * 3 % 7 + 1).astype(dtype)
    _assert_agree(_all_ways(_updates_1d, x, i))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_2d_slices_stencil_and_scatters_agree(dtype):
    a = (np.arange(30).reshape(5, 6) * 7 % 11).astype(dtype)
    _assert_agree(_all_ways(_updates_2d, a))


def test_expected_values_of_a_few_updates():
    """The agreement above is checked against NumPy-spelled answers here."""
    x = tnp.arange(6.0)
    np.testing.assert_array_equal(x.at[IDX].add(1), [2, 1, 3, 3, 4, 6])
    np.testing.assert_array_equal(x.at[WILD].add(10), [0, 1, 12, 13, 4, 15])
    np.testing.assert_array_equal(x.at[7].set(-1), x)
    a = tnp.zeros((4, 4))
    want = np.zeros((4, 4))
    want[1:-1, 1:-1] = 1
    np.testing.assert_array_equal(a.at[1:-1, 1:-1].set(1), want)


def test_an_update_returns_a_new_array_and_keeps_the_input():
    x = tnp.arange(4.0)
    for y in (x.at[1].set(7.0), x.at[9].set(7.0), x.at[np.zeros(0, np.int64)].add(1.0),
              x.at[1:3].add(1.0), x.at[np.array([1, 1])].add(1.0)):
        assert type(y) is EagerArray and not np.shares_memory(x, y)
    np.testing.assert_array_equal(x, np.arange(4.0))


def test_disable_jit_passes_arguments_as_eager_views():
    seen = []

    @tp.jit
    def step(u, i, params):
        seen.append((type(u), type(params["w"])))
        u = u.at[i].add(params["w"][0])
        return lax.fori_loop(0, 3, lambda k, v: v.at[k].multiply(params["w"][1]), u)

    u, w = np.arange(5.0), np.array([10.0, 2.0])
    want = step(u, 1, {"w": w})
    with tp.disable_jit():
        got = step(u, 1, {"w": w})
    assert seen[-1] == (EagerArray, EagerArray)
    assert type(got) is EagerArray and type(want) is EagerArray
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(u, np.arange(5.0))


def test_eager_control_flow_gives_bodies_eager_arrays():
    z = np.zeros(4)
    np.testing.assert_array_equal(lax.fori_loop(0, 3, lambda i, v: v.at[i].set(i + 1), z),
                                  [1, 2, 3, 0])
    np.testing.assert_array_equal(lax.cond(True, lambda v: v.at[0].set(5), lambda v: v, z),
                                  [5, 0, 0, 0])
    np.testing.assert_array_equal(lax.switch(1, [lambda v: v, lambda v: v.at[1].add(2)], z),
                                  [0, 2, 0, 0])
    carry, ys = lax.scan(lambda c, r: (c.at[0].add(r[0]), r.at[1].set(-1)),
                         z, np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(carry, [6, 0, 0, 0])
    np.testing.assert_array_equal(ys, [[0, -1], [2, -1], [4, -1]])
    out = lax.while_loop(lambda v: v[0] < 3, lambda v: v.at[0].add(1), z)
    assert type(out) is EagerArray and out[0] == 3
    assert type(lax.fori_loop(0, 0, lambda i, v: v, z)) is EagerArray
    np.testing.assert_array_equal(z, 0)


# -- every eager result is an EagerArray ----------------------------------------------------------

M = np.array([[4.0, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]])
V = np.array([0.5, 1.5, -2.0, 3.0])
KEY = np.array([0, 42], np.uint32)
# Arguments tried in order until a call succeeds: enough for most of each namespace.
CANDIDATES = [(M,), (V,), (M, M), (V, V), (M, 1), (V, 2), (M, M, M), (np.array([2, 0, 1]),),
              ((2, 3),), (3,), (np.array([True, False, True]), M, M), (KEY,), (KEY, (3,)),
              (KEY, (3,), 0, 5), (np.int32, (2, 3), 1), (M, (0,)), (M, np.float32),
              (M, (1, 0)), (M, (9,)), (M, (0, 0), (2, 2)), (M, 0, np.int32)]
EXPLICIT = [  # the eager paths that run Python instead of a primitive, and a few others
    lambda: lax.cond(False, lambda v: v, lambda v: v + 1, V),
    lambda: lax.switch(0, [lambda v: v], V),
    lambda: lax.fori_loop(0, 2, lambda i, v: v * 2, V),
    lambda: lax.while_loop(lambda v: v[0] < 2, lambda v: v + 1, V),
    lambda: lax.scan(lambda c, x: (c + x, x * 2), 0.0, V),
    lambda: lax.map(lambda x: x * 2, M),
    lambda: lax.slice(M, (0, 1), (2, 3)),
    lambda: lax.dynamic_slice(M, (1, 0), (2, 2)),
    lambda: lax.dynamic_update_slice(M, np.ones((1, 2)), (0, 1)),
    lambda: lax.pad(V, 0.0, [(1, 2, 0)]),
    lambda: lax.reduce_sum(M, (0,)),
    lambda: lax.concatenate([V, V], 0),
    lambda: lax.iota(np.int32, 4),
    lambda: tnp.einsum("ij,jk->ik", M, M),
    lambda: tnp.reshape(M, (9,)), lambda: tnp.asarray(M), lambda: tnp.array([1, 2]),
    lambda: tnp.broadcast_to(V, (2, 4)), lambda: tnp.astype(M, np.float32),
    lambda: tnp.linalg.qr(M), lambda: tnp.linalg.eigh(M), lambda: tnp.linalg.svd(M),
    lambda: tp.random.normal(KEY, (3,)), lambda: tp.random.split(KEY),
]


def _own_functions(module, owners):
    for name in sorted(getattr(module, "__all__", None) or dir(module)):
        fn = getattr(module, name)
        if not name.startswith("_") and callable(fn) and not isinstance(fn, type) \
                and getattr(fn, "__module__", "").startswith(owners):   # functions, ufuncs
            yield name, fn


def _first_success(fn):
    for args in CANDIDATES:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                return fn(*args)
        except Exception:       # noqa: BLE001  (wrong arguments for this function: next)
            continue
    return None


def _plain_arrays(out):
    return [type(a).__name__ for a in tree_leaves(out)
            if isinstance(a, np.ndarray) and type(a) is not EagerArray]


@pytest.mark.parametrize("module, owners, at_least", [
    (tnp, ("transpile.numpy",), 200),
    (tnp.linalg, ("transpile.numpy.linalg", "transpile.numpy._spectral"), 15),
    (lax, ("transpile.lax",), 35),
    (tp.random, ("transpile.random",), 6),
    (tp.scipy.special, ("transpile.scipy",), 5),
])
def test_every_eager_array_result_has_at(module, owners, at_least):
    checked, plain = 0, []
    for name, fn in _own_functions(module, owners):
        out = _first_success(fn)
        if not any(isinstance(a, np.ndarray) for a in tree_leaves(out)):
            continue
        checked += 1
        if _plain_arrays(out):
            plain.append(name)
    assert not plain, f"plain numpy.ndarray results from {module.__name__}: {plain}"
    assert checked >= at_least, checked


@pytest.mark.parametrize("k", range(len(EXPLICIT)))
def test_eager_paths_without_a_primitive_return_eager_arrays(k):
    out = EXPLICIT[k]()
    assert any(isinstance(a, np.ndarray) for a in tree_leaves(out))
    assert not _plain_arrays(out)
    for a in tree_leaves(out):
        if isinstance(a, np.ndarray) and a.size:
            np.testing.assert_array_equal(a.at[(0,) * a.ndim].get(), a[(0,) * a.ndim])


def test_numpy_scalars_stay_scalars_and_0d_arrays_are_eager():
    """Where the eager path returns a NumPy scalar (as NumPy's own functions do), it still
    does; every array, 0-d included, is an EagerArray."""
    assert type(tnp.sin(1.0)) is np.float64 and type(tnp.mean(M)) is np.float64
    for zero_d in (tnp.zeros(()), tnp.sum(M), tnp.asarray(2.0)):
        assert type(zero_d) is EagerArray and zero_d.shape == ()
    assert tnp.zeros(()).at[()].set(3.0) == 3.0


# -- an EagerArray is a NumPy array ----------------------------------------------------------------

@pytest.mark.parametrize("value", [np.arange(6.0).reshape(2, 3), np.array(2.5, np.float32),
                                   np.zeros((0, 3), np.int8), np.array([True, False]),
                                   np.arange(2000, dtype=np.uint16)])
def test_it_prints_pickles_and_converts_like_numpy(value):
    x = tnp.asarray(value)
    assert type(x) is EagerArray and isinstance(x, np.ndarray)
    assert repr(x) == repr(value) and str(x) == str(value)
    back = pickle.loads(pickle.dumps(x))
    assert type(back) is EagerArray and back.dtype == value.dtype
    np.testing.assert_array_equal(back, value)
    plain = np.asarray(x)
    assert type(plain) is np.ndarray and np.shares_memory(plain, x) or not x.size


def test_numpy_results_keep_at_and_views_cost_no_copy():
    x = tnp.arange(6.0)
    for y in (x + 1, np.sin(x), x.reshape(2, 3), x[1:], x.T, x.sum(keepdims=True), abs(x)):
        assert type(y) is EagerArray
    np.testing.assert_array_equal((x + 1).at[0].set(9.0), [9, 2, 3, 4, 5, 6])
    plain = np.arange(3.0)
    assert np.shares_memory(tnp.asarray(plain), plain)


def test_eager_arrays_hit_the_same_cache_entry_as_plain_ones():
    f = tp.jit(lambda x, t: x * t["s"])
    a, s = np.arange(4.0), np.ones(4)
    f(a, {"s": s})
    for args in ((tnp.asarray(a), {"s": s}), (a, {"s": tnp.asarray(s)}),
                 (tnp.asarray(a), {"s": tnp.asarray(s)})):
        f(*args)
        f(*args)          # the second call takes the dispatch fast path
    info = f.cache_info()
    assert info.misses == 1 and info.entries == 1
    assert f.lower(tnp.asarray(a), {"s": s}).signature == f.lower(a, {"s": s}).signature


@pytest.mark.parametrize("backend", ["cpu", "interpret"])
def test_compiled_outputs_are_eager_arrays_with_at_and_block_until_ready(backend):
    """Documented (README): compiled results are EagerArrays, as JAX's results have `.at`
    and `.block_until_ready()` (which returns the array itself: CPU results are complete)."""
    f = tp.jit(lambda x: (x * 2, x, 1.5), backend=backend)
    y, same, number = f(np.arange(3.0))
    assert type(y) is EagerArray and type(same) is EagerArray and type(number) is EagerArray
    assert y.block_until_ready() is y
    np.testing.assert_array_equal(y.at[0].set(-1.0), [-1, 2, 4])
    np.testing.assert_array_equal(y, [0, 2, 4])          # .at made a new array
    z = tnp.asarray(y)
    assert np.shares_memory(y, z)
