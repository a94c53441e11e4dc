"""transpile.ops segment reductions against a NumPy loop (eagerly and under jit), and
random.categorical's eager and jitted draws agreeing with each other and with softmax
frequencies; JAX's own values for both are checked by the gnn_message_passing and
ppo_sampling programs of tests/test_realprog.py."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp

REDUCERS = {"segment_sum": (np.add, 0.0), "segment_prod": (np.multiply, 1.0),
            "segment_max": (np.maximum, -np.inf), "segment_min": (np.minimum, np.inf)}


def _reference(name, data, ids, n):
    combine, identity = REDUCERS[name]
    out = np.full((n,) + data.shape[1:], identity, data.dtype)
    for row, i in zip(data, ids):
        if 0 <= i < n:
            out[i] = combine(out[i], row)
    return out


@pytest.mark.parametrize("name", sorted(REDUCERS))
@pytest.mark.parametrize("jitted", [False, True])
def test_segment_reduction_drops_out_of_range_ids(name, jitted):
    data = np.random.default_rng(3).standard_normal((7, 2)).astype(np.float32)
    ids = np.array([0, 3, 3, 1, 0, 6, -1], np.int32)
    fn = getattr(tp.ops, name)
    run = tp.jit(lambda d, i: fn(d, i, num_segments=5)) if jitted else \
        (lambda d, i: fn(d, i, num_segments=5))
    np.testing.assert_allclose(run(data, ids), _reference(name, data, ids, 5), rtol=1e-6)


def test_segment_sum_counts_segments_from_concrete_ids():
    out = tp.ops.segment_sum(np.ones(4), np.array([0, 2, 2, 0]))
    np.testing.assert_array_equal(out, [2.0, 0.0, 2.0])


def test_integer_segment_max_empty_segment_is_dtype_min():
    out = tp.ops.segment_max(np.array([3, 5], np.int32), np.array([0, 0]), num_segments=2)
    np.testing.assert_array_equal(out, [5, np.iinfo(np.int32).min])


def test_traced_ids_need_num_segments():
    with pytest.raises(ValueError, match="num_segments is required"):
        tp.jit(lambda d, i: tp.ops.segment_sum(d, i))(np.ones(3), np.array([0, 1, 1]))


def test_categorical_eager_equals_jit_and_follows_softmax():
    key = tp.random.PRNGKey(5)
    logits = np.log(np.array([0.1, 0.3, 0.6], np.float32))
    eager = np.asarray(tp.random.categorical(key, logits, shape=(4000,)))
    jitted = np.asarray(tp.jit(lambda k, l: tp.random.categorical(k, l, shape=(4000,)))(
        key, logits))
    np.testing.assert_array_equal(eager, jitted)
    np.testing.assert_allclose(np.bincount(eager, minlength=3) / 4000, [0.1, 0.3, 0.6],
                               atol=0.03)


def test_categorical_without_replacement_is_distinct_and_bounded():
    draws = np.asarray(tp.random.categorical(tp.random.PRNGKey(1), np.zeros(4, np.float32),
                                             shape=(4,), replace=False))
    assert sorted(draws.tolist()) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="exceed"):
        tp.random.categorical(tp.random.PRNGKey(1), np.zeros(4, np.float32), shape=(5,),
                              replace=False)
