"""JAX's API behaviours, against what JAX 0.10 did (tests/data/jax_api.json, recorded by
tools/record_jax_api.py): indexing constants with traced values, `x[i] = v`, jit's argument
checks and accepted options, `where(c, size=)`, `unroll=`, `make_jaxpr`, `Compiled`,
devices, `block_until_ready`. Values are compared (NumPy's dtypes differ from JAX's x64-off
ones by design); errors by kind and, where transpile copies JAX's wording, by message."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.eager_array import EagerArray

with open(os.path.join(os.path.dirname(__file__), "data", "jax_api.json")) as _f:
    JAX = json.load(_f)

TABLE = tnp.array([0, 9])             # made outside jit, as a module's own constants are
GRID = tnp.array([[0, 9], [3, 4]])
HOST = np.array([0, 9])
X32 = np.arange(6, dtype=np.float32).reshape(2, 3)


def jax_value(name):
    return JAX[name]["value"]


def assert_like_jax(got, name):
    recorded = JAX[name]
    if "tuple" in recorded:
        assert len(got) == len(recorded["tuple"])
        for g, r in zip(got, recorded["tuple"]):
            np.testing.assert_array_equal(g, r["value"])
    else:
        np.testing.assert_array_equal(got, recorded["value"])


# -- arrays made outside jit index with traced integers ------------------------------------------

def test_a_module_constant_indexes_with_a_traced_int_as_in_jax():
    assert_like_jax(tp.jit(lambda i: TABLE[i])(1), "index_module_constant_with_tracer")
    assert tp.jit(lambda i: GRID[i, 1])(0) == 9
    np.testing.assert_array_equal(tp.jit(lambda i: GRID[:, i])(1), [9, 4])
    np.testing.assert_array_equal(tp.jit(lambda i: GRID[i])(5), [3, 4])    # clamps, as JAX
    np.testing.assert_array_equal(tp.jit(lambda i: GRID[tnp.array([1, 0]), i])(0), [3, 0])


def test_a_traced_slice_bound_on_a_constant_says_to_use_dynamic_slice():
    with pytest.raises(IndexError, match="dynamic_slice"):
        tp.jit(lambda i: TABLE[i:])(1)


def test_eager_indexing_of_eager_arrays_is_numpys():
    assert TABLE[1] == 9 and type(TABLE[1]) is np.int64
    assert type(GRID[0]) is EagerArray and GRID[1:, ::-1].tolist() == [[4, 3]]
    with pytest.raises(IndexError):
        TABLE[5]


def test_a_plain_numpy_array_indexed_by_a_tracer_says_to_wrap_it():
    assert JAX["index_numpy_constant_with_tracer"]["error"] == "TracerArrayConversionError"
    with pytest.raises(tp.ConcretizationError, match=r"tnp\.asarray\(a\)\[i\]"):
        tp.jit(lambda i: HOST[i])(1)
    assert tp.jit(lambda i: tnp.asarray(HOST)[i])(1) == 9      # the fix it names


def test_writing_into_a_numpy_array_at_a_traced_index_names_at_set():
    def f(i):
        HOST[i] = 3
        return i
    with pytest.raises(tp.ConcretizationError, match=r"\.at\[i\]\.set\(v\)"):
        tp.jit(f)(1)


def test_item_assignment_on_a_tracer_says_at_set_as_jax():
    def f(x):
        x[0] = 1.0
        return x
    recorded = JAX["setitem_on_tracer"]
    assert recorded["error"] == "TypeError"
    with pytest.raises(TypeError) as info:
        tp.jit(f)(np.zeros(3))
    phrase = "Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method"
    assert phrase in recorded["message"] and phrase in str(info.value)


# -- jit's arguments ----------------------------------------------------------------------------

def _two(x, n):
    return x * n


def _positional_only(x, /, n):
    return x * n


@pytest.mark.parametrize("name, make", [
    ("jit_static_argnames_unknown", lambda: tp.jit(_two, static_argnames=("m",))),
    ("jit_static_argnames_positional_only",
     lambda: tp.jit(_positional_only, static_argnames=("x",))),
    ("jit_static_argnums_out_of_range", lambda: tp.jit(_two, static_argnums=(2,))),
    ("jit_static_argnums_negative_out_of_range", lambda: tp.jit(_two, static_argnums=(-3,))),
])
def test_static_arguments_naming_no_parameter_raise_when_jit_is_applied(name, make):
    recorded = JAX[name]
    with pytest.raises(ValueError) as info:
        make()
    assert recorded["error"] == "ValueError" and str(info.value) == recorded["message"]


def test_static_argnums_beyond_the_parameters_of_a_varargs_function_are_fine():
    assert "PjitFunction" in jax_value("jit_static_argnums_varargs_any")
    f = tp.jit(lambda *a: a[0] * a[5], static_argnums=(5,))
    assert f(np.ones(2), 0, 0, 0, 0, 3).tolist() == [3.0, 3.0]
    assert tp.jit(lambda x, **kw: x, static_argnames=("anything",))(1.0) == 1.0


def test_static_argnames_still_covers_positional_use():
    f = tp.jit(_two, static_argnames="n")
    assert f(np.ones(2), 3).tolist() == [3.0, 3.0] and f(np.ones(2), n=2).tolist() == [2.0, 2.0]


def test_donation_and_other_jit_options_are_accepted_and_change_nothing():
    x = np.arange(4.0)
    f = tp.jit(lambda x, y: x * 2 + y, donate_argnums=0, donate_argnames="y", keep_unused=True,
               inline=True, device=tp.devices()[0])
    np.testing.assert_array_equal(f(x, 1.0), [1, 3, 5, 7])
    np.testing.assert_array_equal(x, [0, 1, 2, 3])     # a donated NumPy input is never reused
    decorated = tp.jit(donate_argnums=(0,), inline=True)(lambda x: x + 1)
    np.testing.assert_array_equal(decorated(x), [1, 2, 3, 4])
    with pytest.raises(ValueError, match="donate_argnums"):
        tp.jit(_two, donate_argnums=(4,))
    with pytest.raises(ValueError, match="cannot intersect"):
        tp.jit(_two, static_argnames="n", donate_argnames="n")


# -- where(c, size=), unroll= ----------------------------------------------------------------------

C = np.array([[True, False, True], [False, False, True]])


@pytest.mark.parametrize("name, kwargs", [("where_size", {"size": 4}),
                                          ("where_size_fill", {"size": 4, "fill_value": -1}),
                                          ("where_size_truncates", {"size": 2})])
def test_one_argument_where_with_static_size_as_jax(name, kwargs):
    assert_like_jax(tnp.where(C, **kwargs), name)
    assert_like_jax(tp.jit(lambda c: tnp.where(c, **kwargs))(C), name)


def test_one_argument_where_under_jit_needs_size_and_three_arguments_take_none():
    assert_like_jax(tp.jit(lambda c: tnp.where(c, size=4, fill_value=7))(C), "where_size_jit")
    with pytest.raises(Exception, match="size"):
        tp.jit(lambda c: tnp.where(c))(C)
    with pytest.raises(ValueError, match="three-term"):
        tnp.where(C, 1, 2, size=3)
    assert [a.tolist() for a in tnp.where(C)] == [a.tolist() for a in np.where(C)]


def _scan_sum(unroll):
    return lax.scan(lambda c, x: (c + x, c * x), 0.0, tnp.arange(5.0), unroll=unroll)


@pytest.mark.parametrize("unroll, name", [(2, "scan_unroll_2"), (True, "scan_unroll_true")])
def test_scan_accepts_unroll(unroll, name):
    assert_like_jax(_scan_sum(unroll), name)
    assert_like_jax(tp.jit(lambda: _scan_sum(unroll))(), name)


def test_fori_loop_accepts_unroll_with_static_bounds_only_as_jax():
    body = lambda i, a: a + i   # noqa: E731
    assert lax.fori_loop(0, 7, body, 0, unroll=3) == jax_value("fori_unroll_3")
    assert tp.jit(lambda a: lax.fori_loop(0, 7, body, a, unroll=True))(0) == 21
    recorded = JAX["fori_unroll_traced_bound"]
    with pytest.raises(ValueError) as info:
        tp.jit(lambda n: lax.fori_loop(0, n, body, 0, unroll=2))(5)
    assert str(info.value) == recorded["message"]
    assert tp.jit(lambda n: lax.fori_loop(0, n, body, 0, unroll=1))(5) == 10
    with pytest.raises(ValueError, match="non-negative"):
        lax.scan(lambda c, x: (c, x), 0.0, tnp.arange(3.0), unroll=-1)
    with pytest.raises(TypeError, match="unroll"):
        lax.scan(lambda c, x: (c, x), 0.0, tnp.arange(3.0), unroll=1.5)


# -- make_jaxpr, Lowered.compile(), devices, block_until_ready ------------------------------------

def test_make_jaxpr_prints_like_jax_and_returns_shapes():
    jaxpr = tp.make_jaxpr(lambda x: x + 1)(1.0)
    assert str(jaxpr).startswith(jax_value("make_jaxpr_str_starts"))
    assert str(jaxpr) == str(tp.make_ir(lambda x: x + 1)(1.0))
    _, shapes = tp.make_jaxpr(lambda x, n: (x * n, x.sum()), static_argnums=1,
                              return_shape=True)(X32, 2)
    assert [s.shape for s in shapes] == [(2, 3), ()] and shapes[0].dtype == np.float32


def test_lowered_compile_is_callable_like_jax_compiled():
    compiled = tp.jit(lambda x: x * 2).lower(X32).compile()
    assert_like_jax(compiled(X32), "compiled_call")
    assert compiled(X32).dtype == np.float32
    assert isinstance(compiled.as_text(), str) == jax_value("compiled_as_text_is_str")
    assert "Generated by transpile" in compiled.as_text()
    lowered = tp.jit(lambda x: x * 2).lower(X32)      # JAX's as_text(dialect): IR or source
    assert lowered.as_text() == lowered.as_text("stablehlo") == str(lowered.ir)
    assert "Generated by transpile" in lowered.as_text("hlo")
    with pytest.raises(ValueError, match="dialect"):
        lowered.as_text("mhlo")
    assert compiled.source_path.endswith("module.c")           # the executable's attributes
    with pytest.raises(TypeError, match="compiled with f32\\[2,3\\] and called with f32\\[3\\]"):
        compiled(np.ones(3, np.float32))


def test_compiled_is_called_without_its_static_arguments_as_jax():
    compiled = tp.jit(_two, static_argnums=1).lower(X32, 3).compile()
    np.testing.assert_array_equal(compiled(X32), X32 * 3)
    with pytest.raises(TypeError, match="structured"):
        compiled(X32, 3)
    by_name = tp.jit(_two, static_argnames="n").lower(X32, n=2).compile()
    np.testing.assert_array_equal(by_name(X32), X32 * 2)


def test_devices_and_default_backend_on_the_cpu(monkeypatch):
    monkeypatch.delenv("TRANSPILE_BACKEND", raising=False)
    assert tp.default_backend() == jax_value("default_backend")
    assert tp.devices()[0].platform == jax_value("devices_platform")
    assert repr(tp.devices()[0]) == "CpuDevice(id=0)" and tp.device_count() == 1
    monkeypatch.setenv("TRANSPILE_BACKEND", "cuda")
    assert tp.default_backend() == "gpu"


def test_device_put_without_a_gpu_is_a_host_copy(monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "0")
    monkeypatch.setenv("TRANSPILE_CUDART", "/nonexistent/libcudart.so")
    host = np.arange(3.0)
    put = tp.device_put({"a": host, "b": 2.0})
    assert type(put["a"]) is EagerArray and not np.shares_memory(put["a"], host)
    host[0] = 9.0
    assert put["a"].tolist() == [0.0, 1.0, 2.0] and put["b"] == 2.0
    on_cpu = tp.device_put(host, tp.devices("cpu")[0])
    assert type(on_cpu) is EagerArray and on_cpu.tolist() == [9.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="'tpu' is not one of"):
        tp.device_put(host, backend="tpu")


def test_block_until_ready_on_results_and_trees():
    y = tp.jit(lambda x: x * 2)(X32)
    assert y.block_until_ready() is y
    tree = (y, {"a": y})
    assert tp.block_until_ready(tree) is tree
    assert_like_jax(tp.block_until_ready(tree)[1]["a"] / 2, "block_until_ready_tree")


def test_numpy_functions_on_tracers_compute_as_jax_does():
    assert tp.jit(lambda x: np.sum(x))(X32) == jax_value("numpy_sum_on_tracer")


# -- jax.numpy's extra arguments --------------------------------------------------------------

X = np.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize("name, fun", [
    ("reshape_order_F", lambda x: tnp.reshape(x, (3, 2), order="F")),
    ("reshape_order_F_1d", lambda x: tnp.reshape(x, -1, order="F")),
    ("reshape_order_F", lambda x: x.reshape(3, 2, order="F")),
    ("clip_min_max", lambda x: tnp.clip(tnp.arange(6), min=1, max=4)),
    ("clip_min_only", lambda x: tnp.clip(tnp.arange(6), min=2)),
    ("size_axis", lambda x: tnp.size(x, 1)),
    ("size_axis_negative", lambda x: tnp.size(x, -2)),
    ("nansum_initial", lambda x: tnp.nansum(tnp.array([1.0, np.nan]), initial=5.0)),
    ("nanmax_initial", lambda x: tnp.nanmax(tnp.array([1.0, np.nan]), initial=5.0)),
    ("nanmin_initial", lambda x: tnp.nanmin(tnp.array([1.0, np.nan, 3.0]), initial=-1.0)),
    ("nanprod_initial", lambda x: tnp.nanprod(tnp.array([2.0, np.nan]), initial=3.0)),
])
def test_extra_arguments_give_jaxs_values_eagerly_and_under_jit(name, fun):
    assert_like_jax(fun(X), name)
    assert_like_jax(tp.jit(fun)(X), name)


def test_nan_extremes_with_initial_match_numpy_on_all_nan_rows():
    a = np.array([[np.nan, np.nan], [1.0, np.nan]])
    want = np.nanmax(a, axis=1, initial=0.5)
    np.testing.assert_array_equal(tp.jit(lambda a: tnp.nanmax(a, axis=1, initial=0.5))(a), want)
    ints = np.array([3, 1, 2])
    assert tnp.nanmin(ints, initial=0) == np.nanmin(ints, initial=0)


def test_reshape_order_a_and_both_clip_spellings_are_refused():
    with pytest.raises(NotImplementedError, match="order='A'"):
        tnp.reshape(X, 6, order="A")
    with pytest.raises(ValueError, match="a_min or min"):
        tnp.clip(X, a_min=1, min=2)


def test_a_list_reduced_under_jit_raises_as_jax():
    recorded = JAX["sum_of_list_jit"]
    with pytest.raises(TypeError) as info:
        tp.jit(lambda: tnp.sum([1, 2, 3]))()
    assert recorded["error"] == "TypeError" and str(info.value) == recorded["message"]
    with pytest.raises(TypeError, match="nanmax requires ndarray"):
        tp.jit(lambda x: tnp.nanmax([x, x]))(1.0)
    assert tp.jit(lambda x: tnp.sum(tnp.stack([x, x])))(1.5) == 3.0     # the fix
    assert tnp.sum([1, 2, 3]) == 6          # eagerly NumPy's conversion, as documented


def test_arange_of_a_complex_raises_as_jax():
    assert JAX["arange_complex"]["error"] == "ValueError"
    with pytest.raises(ValueError, match="complex"):
        tnp.arange(1 + 2j)
    with pytest.raises(ValueError, match="complex"):
        tp.jit(lambda: tnp.arange(0, 3 + 0j))()
    assert tnp.arange(3, dtype=np.complex64).tolist() == [0, 1, 2]   # a complex dtype is fine
