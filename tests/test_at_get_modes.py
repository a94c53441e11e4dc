"""`x.at[idx].get(mode=..., fill_value=...)` as JAX 0.10.2 answers it (values below printed by
JAX for the same calls): "fill" gives the fill value (NaN, or the dtype's extreme) where an
index is out of range, with advanced indices broadcast and placed as NumPy places them;
"clip" clamps after wrapping negatives. Eagerly and under jit."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

NAN = np.nan
X = np.arange(12.0).reshape(3, 4)

CASES = [
    (lambda x: x.at[np.array([2, 11])].get(mode="fill", fill_value=-1.0),
     [[8, 9, 10, 11], [-1, -1, -1, -1]]),
    (lambda x: x.at[:, np.array([0, 5, -1])].get(mode="fill"),
     [[0, NAN, 3], [4, NAN, 7], [8, NAN, 11]]),
    (lambda x: x.at[np.array([[0], [4]]), np.array([1, 9])].get(mode="fill"),
     [[1, NAN], [NAN, NAN]]),
    (lambda x: x.at[np.array([0, 7, -9])].get(mode="clip"),
     [[0, 1, 2, 3], [8, 9, 10, 11], [0, 1, 2, 3]]),
    (lambda x: x.at[np.array([1, 3]), 1:3].get(mode="drop"), [[5, 6], [NAN, NAN]]),
    (lambda x: x.at[1, np.array([3, 4])].get(mode="fill", fill_value=0.5), [7, 0.5]),
]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_matches_jax_eagerly_and_under_jit(k):
    fn, want = CASES[k]
    np.testing.assert_array_equal(fn(tnp.asarray(X)), want)
    np.testing.assert_array_equal(tp.jit(fn)(X), want)


def test_traced_scalar_index_and_integer_fill_under_jax_rules():
    with tp.config.settings(transpile_dtype_rules="jax"):
        got = tp.jit(lambda x, i: x.at[i].get(mode="fill"))(np.arange(4, dtype=np.int32), 9)
        assert got.dtype == np.int32 and int(got) == -2147483648     # JAX's fill for int32
        inside = tp.jit(lambda x, i: x.at[i].get(mode="fill"))(np.arange(4, dtype=np.int32), -1)
        assert int(inside) == 3


def test_unsupported_forms_say_so():
    with pytest.raises(ValueError, match="mode must be"):
        tnp.asarray(X).at[0].get(mode="wrap")
    # a newaxis is kept as indexing keeps it (JAX: [[0, 1, 2, 3]] and [[nan]])
    np.testing.assert_array_equal(tnp.asarray(X).at[None, 0].get(mode="fill"), X[None, 0])
    np.testing.assert_array_equal(tp.jit(lambda x: x.at[None, 5, 0].get(mode="fill"))(X),
                                  [NAN])
