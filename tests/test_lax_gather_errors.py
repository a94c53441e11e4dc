"""Malformed dimension numbers of lax.gather / lax.scatter (and bad lax.pad and
dynamic_slice arguments) raise the error type JAX raises, with a message that begins with
JAX's words (the cases follow JAX's tests/lax_test.py), so code matching JAX's errors works."""
from __future__ import annotations

import numpy as np
import pytest

import transpile
from transpile import lax

G = lax.GatherDimensionNumbers
S = lax.ScatterDimensionNumbers
OPERAND5 = (10, 9, 8, 7, 6)

GATHER_CASES = [
    ((5, 4, 3, 2, 1), G((4, 5, 6, 8, 7), (), (0, 1, 2, 3, 4)), OPERAND5,
     "offset_dims in gather op must be sorted"),
    ((5, 4, 3, 2, 1), G((4, 5, 100, 101, 102), (), (0, 1, 2, 3, 4)), OPERAND5,
     "Offset dimension 2 in gather op is out of bounds"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7, 8), (4,), (0, 1, 2, 3, 4)), OPERAND5,
     "All components of the offset index in a gather op must either be a offset dimension"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7, 8), (0, 1, 2, 3, 19), (0, 1, 2, 3, 4)), OPERAND5,
     "Invalid collapsed_slice_dims set in gather op; valid range is"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7, 8), (), (0, 1, 2, 3)), OPERAND5,
     "Gather op has 4 elements in start_index_map and the bound of dimension "
     "index_vector_dim=4 of indices is 5. These two numbers must be equal."),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7, 8), (), (0, 1, 2, 3, 7)), OPERAND5,
     "Invalid start_index_map"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7, 8), (), (0, 1, 2, 3, 3)), OPERAND5,
     "start_index_map in gather op must not repeat"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7), (2,), (0, 1, 2, 3, 4)), (10, 9, 8, 100, 6),
     "Slice size at index 3 in gather op is out of range"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7), (), (0, 1, 2, 3, 4)), (10, 9, 8, 7),
     "Gather op must have one slice size for every input dimension"),
    ((5, 4, 3, 2, 5), G((4, 5, 6, 7), (1,), (0, 1, 2, 3, 4)), OPERAND5,
     "Gather op can only collapse slice dims with bound 1, but bound is 9 for index 1 at "
     "position 0."),
    ((5, 4, 3, 2, 4), G((4, 5, 6), (0, 1), (0, 1, 2, 4), (2, 3)), OPERAND5,
     "start_index_map and operand_batching_dims in gather op must be disjoint"),
    ((5, 4, 3, 2, 5), G((4, 5, 6), (0, 1), (0, 1, 2, 3, 4), (), (0, 4)), OPERAND5,
     "Gather op cannot have the index vector dimension as a batching dimension"),
    ((10, 9, 3, 2, 3), G((4, 5, 6, 7, 8), (2, 3, 4), (2, 3, 4), (0, 1), (1, 0)), OPERAND5,
     "Gather op requires operand batching dimensions and indices batching dimensions to "
     "have the same shape"),
]


@pytest.mark.parametrize("indices_shape, dnums, slice_sizes, message", GATHER_CASES)
def test_gather_shape_errors_begin_with_jax_words(indices_shape, dnums, slice_sizes, message):
    operand = np.ones(OPERAND5, np.int32)
    with pytest.raises(TypeError) as raised:
        lax.gather(operand, np.ones(indices_shape, np.int32), dnums, slice_sizes)
    assert str(raised.value).startswith(message)


OPERAND_SC = (50, 49, 48, 47, 46)
SCATTER_CASES = [
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4, 1),
     S((4, 5, 6), (1, 2), (0, 1, 2, 3, 4)), "Updates tensor must be of rank 7; got 8."),
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4), S((4, 5, 6), (1, 5), (0, 1, 2, 3, 4)),
     "Invalid inserted_window_dims set in scatter op"),
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4), S((4, 5, 6), (2, 1), (0, 1, 2, 3, 4)),
     "inserted_window_dims in scatter op must be sorted"),
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4), S((4, 5, 6), (1, 2), (0, 1, 2, 3)),
     "Scatter op has 4 elements in scatter_dims_to_operand_dims and the bound of dimension "
     "index_vector_dim=4 of indices is 5. These two numbers must be equal"),
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4),
     S((4, 5, 6), (1, 2), (0, 1, 2, 3, 10)), "Invalid scatter_dims_to_operand_dims mapping"),
    (OPERAND_SC, (10, 9, 8, 7, 4), (10, 9, 8, 7, 3, 2, 4), S((4, 5, 6), (1,), (0, 1, 2, 3)),
     "Scatter op has window of size 4; doesn't match operand of rank 5."),
    (OPERAND_SC, (10, 9, 8, 7, 5), (10, 9, 8, 7, 3, 2, 4),
     S((4, 5, 6), (0, 1), (0, 1, 4), (1, 2)),
     "inserted_window_dims and operand_batching_dims in scatter op must be disjoint"),
    ((64, 48), (32, 1), (64, 31), S((1,), (0,), (1,)), "Bounds of the scatter dimensions"),
    ((64, 48), (10, 9, 8, 7, 1), (10, 9, 8, 7, 65), S((4,), (1,), (1,)),
     "Bounds of the window dimensions"),
]


@pytest.mark.parametrize("operand_shape, indices_shape, update_shape, dnums, message",
                         SCATTER_CASES)
def test_scatter_shape_errors_begin_with_jax_words(operand_shape, indices_shape, update_shape,
                                                   dnums, message):
    with pytest.raises(TypeError) as raised:
        lax.scatter(np.ones(operand_shape, np.int32), np.zeros(indices_shape, np.int32),
                    np.ones(update_shape, np.int32), dnums)
    assert str(raised.value).startswith(message)


def test_scatter_variants_share_the_checks():
    with pytest.raises(TypeError, match="^Updates tensor must be of rank 2; got 1"):
        lax.scatter_add(np.zeros((3, 4)), np.array([[1]]), np.ones(4),
                        S((1,), (0,), (0,)))


@pytest.mark.parametrize("value, config, message", [
    (np.zeros(2), [(0, 0, 0)], "padding_value must be a scalar"),
    (0.0, [(0, 1, 0), (0, 1, 0)], "length of padding_config"),
    (0.0, [(0, 1, -1)], "interior padding in padding_config must be nonnegative"),
    (0.0, [(-3, 0, 0)], "Dimension size after padding is not at least 0"),
    (0.0, [(-4, 0, 1)], "Dimension size after padding is not at least 0"),
])
def test_pad_errors_are_jax_value_errors(value, config, message):
    with pytest.raises(ValueError) as raised:
        lax.pad(np.zeros(2), value, config)
    assert str(raised.value).startswith(message)


# Expected values as jax.lax.pad 0.10.2 gives them: a negative side crops after the other
# side is padded, so it may cut into that padding.
@pytest.mark.parametrize("config, expected", [
    ((-3, 1, 0), [3.0, 4.0, 9.0]),
    ((-6, 1, 0), []),
    ((-7, 3, 0), [9.0]),
    ((2, -6, 1), [9.0, 9.0, 0.0, 9.0, 1.0]),
    ((-2, 3, 1), [1.0, 9.0, 2.0, 9.0, 3.0, 9.0, 4.0, 9.0, 9.0, 9.0]),
])
def test_negative_padding_crops_after_padding(config, expected):
    for pad in (lambda x: lax.pad(x, 9.0, [config]), transpile.jit(
            lambda x: lax.pad(x, 9.0, [config]))):      # eager and traced
        np.testing.assert_array_equal(np.asarray(pad(np.arange(5.0))), np.array(expected))


def test_dynamic_slice_refuses_mixed_start_types_but_not_python_ints():
    x = np.ones((3, 4), np.float32)
    with pytest.raises(TypeError, match="^index arguments to dynamic_slice must be integers"):
        lax.dynamic_slice(x, (np.int32(1), np.int16(2)), (2, 2))
    with pytest.raises(TypeError, match="^index arguments to dynamic_update_slice must be"):
        lax.dynamic_update_slice(x, np.zeros((2, 2), np.float32), (np.int32(1), np.int16(2)))
    np.testing.assert_array_equal(lax.dynamic_slice(x, (1, np.int16(2)), (2, 2)),
                                  np.ones((2, 2), np.float32))
