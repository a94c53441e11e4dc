"""lax.gather / lax.scatter beyond the recorded JAX values (test_jax_laxapi.py): they lower
onto the one-axis gather and flat scatter primitives (no new primitive), agree with NumPy
indexing in NumPy mode, and refuse malformed dimension numbers as JAX does."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.lax as lax

ROWS = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                  start_index_map=(0,))
SROWS = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                    scatter_dims_to_operand_dims=(0,))


def test_gather_lowers_onto_the_existing_gather_primitive():
    ir = tp.make_ir(lambda x, i: lax.gather(x, i, ROWS, (1, 4), mode="fill"))(
        np.ones((3, 4)), np.array([[1], [2]]))
    names = {e.prim.name for e in ir.eqns}
    assert "gather" in names and "scatter" not in names


def test_point_gather_is_numpy_fancy_indexing():
    x = np.arange(20.).reshape(4, 5)
    idx = np.array([[0, 4], [3, 1], [2, 2]])
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1),
                                    start_index_map=(0, 1))
    got = tp.jit(lambda x, i: lax.gather(x, i, dn, (1, 1)))(x, idx)
    np.testing.assert_array_equal(got, x[idx[:, 0], idx[:, 1]])


def test_scatter_add_accumulates_duplicates_like_np_add_at():
    x = np.zeros((4, 3))
    idx = np.array([[1], [3], [1], [1]])
    upd = np.arange(12.).reshape(4, 3)
    want = x.copy()
    np.add.at(want, idx[:, 0], upd)
    np.testing.assert_array_equal(tp.jit(lambda x, u: lax.scatter_add(x, idx, u, SROWS))(
        x, upd), want)


@pytest.mark.parametrize("mode, expected", [("clip", lax.GatherScatterMode.CLIP),
                                            ("fill", lax.GatherScatterMode.FILL_OR_DROP),
                                            ("drop", lax.GatherScatterMode.FILL_OR_DROP),
                                            (None, lax.GatherScatterMode.FILL_OR_DROP),
                                            ("promise_in_bounds",
                                             lax.GatherScatterMode.PROMISE_IN_BOUNDS)])
def test_mode_spellings(mode, expected):
    assert lax.GatherScatterMode.from_any(mode) is expected


def test_malformed_calls_raise_naming_the_problem():
    x = np.zeros((3, 4))
    with pytest.raises(ValueError, match="Unknown gather mode"):
        lax.gather(x, np.array([[1]]), ROWS, (1, 4), mode="bogus")
    with pytest.raises(ValueError, match="integer type"):
        lax.gather(x, np.array([[1.0]]), ROWS, (1, 4))
    with pytest.raises(TypeError, match="Slice size at index 1 in gather op is out of range"):
        lax.gather(x, np.array([[1]]), ROWS, (1, 5))
    with pytest.raises(TypeError, match="Gather op has 1 elements in start_index_map"):
        lax.gather(x, np.array([[1, 2]]), ROWS, (1, 4))
    with pytest.raises(TypeError, match="same dtype.*astype"):
        lax.scatter_add(x, np.array([[1]]), np.ones((1, 4), np.float32), SROWS)
    with pytest.raises(TypeError, match="Bounds of the scatter dimensions of updates"):
        lax.scatter(x, np.array([[1], [2]]), np.ones((3, 4)), SROWS)
    with pytest.raises(NotImplementedError, match="ONE_HOT"):
        lax.gather(x, np.array([[1]]), ROWS, (1, 4), mode=lax.GatherScatterMode.ONE_HOT)


def test_dot_algorithm_preset_and_its_name_are_accepted():
    a = np.arange(6.).reshape(2, 3)
    for precision in (lax.DotAlgorithmPreset.F32_F32_F32, "F64_F64_F64"):
        np.testing.assert_allclose(lax.dot(a, a.T, precision=precision), a @ a.T)
