"""`.aval` / `.weak_type` of eager values and tracers, and `isinstance(v, transpile.Array)`,
against JAX's answers recorded by tools/record_jax_avals.py (tests/data/jax_avals.json; the
values are tests/jax_aval_cases.py's), under JAX's dtype rules with x64 off and on."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
from jax_aval_cases import NOT_ARRAYS, cases
from transpile.config import config
from transpile.eager_array import EagerArray, WeakEagerArray

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_avals.json").read_text())
MODES = {"x64": True, "x32": False}


def _aval(value) -> dict:
    aval = value.aval
    return {"shape": list(aval.shape), "dtype": str(aval.dtype), "weak_type": aval.weak_type}


def test_every_case_was_recorded():
    for mode in MODES:
        assert sorted(cases(tnp, tlax)) == sorted(RECORDED[mode])


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", sorted(cases(tnp, tlax)))
def test_eager_aval_matches_jax(name, mode):
    expected = RECORDED[mode][name]
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=MODES[mode]):
        value = cases(tnp, tlax)[name]()
        assert _aval(value) == expected["eager"]
        assert value.weak_type == expected["eager"]["weak_type"]
        assert value.dtype == np.dtype(expected["eager"]["dtype"])
        assert isinstance(value, tp.Array) == expected["is_array"]


# Under jit, lax.convert_element_type of a Python scalar is folded to a NumPy constant (no
# equation, no tracer, so no aval to compare); eagerly it is an array as in JAX.
TRACED = sorted(set(cases(tnp, tlax)) - {"convert_element_type"})


@pytest.mark.parametrize("name", TRACED)
def test_traced_aval_matches_jax(name):
    expected = RECORDED["x64"][name]["traced"]
    seen = []
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        tp.jit(lambda: seen.append(_aval(cases(tnp, tlax)[name]())) or 0)()
    assert seen == [expected]


@pytest.mark.parametrize("name", sorted(NOT_ARRAYS))
def test_scalars_and_lists_are_not_arrays(name):
    assert RECORDED["not_arrays"][name] is False      # JAX's answer, the same as ours
    assert not isinstance(NOT_ARRAYS[name], tp.Array)


def test_every_kind_of_array_transpile_hands_out_is_an_array():
    seen = []
    tp.jit(lambda x: seen.append(isinstance(x, tp.Array)) or x)(np.ones(2))
    tp.grad(lambda x: seen.append(isinstance(x, tp.Array)) or x)(1.0)
    tp.vmap(lambda x: seen.append(isinstance(x, tp.Array)) or x)(np.ones(3))
    assert seen == [True, True, True]
    assert isinstance(tnp.ones(2), tp.Array) and isinstance(np.ones(2), tp.Array)
    assert issubclass(tp.DeviceArray, tp.Array) and issubclass(EagerArray, tp.Array)
    with pytest.raises(TypeError, match="abstract type"):
        tp.Array()


def test_numpy_rules_keep_numpy_scalars_and_strong_arrays():
    """Nothing changes under NumPy's rules: a scalar result is a NumPy scalar (not an Array),
    and an eager array's aval is strong (NumPy has no weak arrays)."""
    with config.settings(transpile_dtype_rules="numpy"):
        assert type(tlax.abs(1.0)) is np.float64 and not isinstance(tlax.abs(1.0), tp.Array)
        x = tnp.ones(3)
        assert x.aval == tp.ShapedArray((3,), np.dtype(np.float64)) and x.weak_type is False


def test_a_weak_value_passed_to_jit_is_traced_weak_and_keyed_apart():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        weak = tlax.abs(2.0)
        assert type(weak) is WeakEagerArray
        f = tp.jit(lambda x: x * tnp.ones(2, tnp.float16))
        assert f(weak).dtype == np.float16                  # promotes as a Python float
        assert f(np.float64(2.0)).dtype == np.float64       # a strong float64 does not
        assert f(weak).dtype == np.float16
        assert weak.view(EagerArray).weak_type is False     # the strong view of the same data
        assert type(weak[()]) is WeakEagerArray             # an element keeps the weak type


def test_compiled_results_keep_weak_types_under_jax_rules():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        twice = tp.jit(lambda x: x * 2)
        assert twice(tlax.abs(2.0)).weak_type is True        # as JAX's jit: still weak
        assert twice(tlax.abs(2.0)).weak_type is True        # (the cached entry too)
        assert twice(np.float64(2.0)).weak_type is False


class _OtherLibraryArray:
    """An array of another library (as JAX's are): `__array__`, shape, dtype, weak_type."""

    def __init__(self, values, weak_type):
        self._values, self.weak_type = np.asarray(values), weak_type
        self.shape, self.dtype = self._values.shape, self._values.dtype

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)


@pytest.mark.parametrize("weak", [False, True])
def test_other_libraries_arrays_are_operands_keeping_their_weak_type(weak):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        x = _OtherLibraryArray(np.arange(3), weak)
        assert tnp.add(x, x).weak_type is weak and list(tnp.add(x, x)) == [0, 2, 4]
        assert tp.jit(lambda a: a + 1)(x).weak_type is weak
        assert tlax.bitcast_convert_type(x, np.float64).weak_type is False


def test_numpy_namespace_ndarray_is_the_abstract_array_type():
    """jnp.ndarray is jax.Array in JAX: an isinstance check that tracers pass too, and not
    something to construct."""
    seen = []
    tp.jit(lambda x: seen.append(isinstance(x, tnp.ndarray)) or x)(np.ones(2))
    assert seen == [True] and tnp.ndarray is tp.Array
    with pytest.raises(TypeError):
        tnp.ndarray((1, 1))


def test_elements_index_arrays_under_jit_and_vmap():
    """Under JAX's rules an element is a 0-d array (not a NumPy scalar); as an index it is an
    integer, as JAX's are (JAX's testIndexApplyBatchingBug)."""
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        arr, ind = tnp.array([[1, 2, 3, 4, 5, 6]]), tnp.array([3])
        func = lambda a, i: a.at[i].apply(lambda x: x - 1)    # noqa: E731
        assert func(arr[0], ind[0]).tolist() == [1, 2, 3, 3, 5, 6]
        assert tp.vmap(func)(arr, ind).tolist() == [[1, 2, 3, 3, 5, 6]]
        assert tp.jit(lambda x: x[np.array(2)])(np.arange(4.0)) == 2.0


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_like_functions_keep_a_weak_input_weak_without_a_dtype(jit):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        weak = tlax.abs(2.0)
        for make, weak_out in [(lambda x: tnp.full_like(x, -100), True),
                               (lambda x: tnp.zeros_like(x, shape=(3,)), True),
                               (lambda x: tnp.ones_like(x), True),
                               (lambda x: tnp.zeros_like(x, dtype=float), False)]:
            run = tp.jit(make) if jit else make
            assert run(weak).weak_type is weak_out
            assert run(np.float64(2.0)).weak_type is False


def test_an_array_that_cannot_be_copied_to_numpy_is_refused_with_why():
    class Unreadable(_OtherLibraryArray):
        def __array__(self, dtype=None, copy=None):
            raise RuntimeError("values not known yet")
    with pytest.raises(TypeError, match="copying it to NumPy failed.*values not known yet"):
        tnp.add(Unreadable(np.ones(2), False), 1)
