"""transpile.example_libraries (stax, optimizers) against JAX's jax.example_libraries:
the same CNN, keys and optimizers give JAX 0.10.2's recorded losses (tests/stax_cases.py,
tools/record_jax_stax.py)."""
import json
import os

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.example_libraries import optimizers, stax

import stax_cases

RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "data", "jax_stax.json")))


# Each optimizer compiles its own training step (seconds each); the suite samples two (one
# with a schedule), `TP_ALL_OPTIMIZERS=1` checks all six.
SAMPLED = tuple(RECORDED["results"]) if os.environ.get("TP_ALL_OPTIMIZERS") else \
    ("adam", "sgd")


def test_a_stax_cnn_trains_as_in_jax():
    with tp.config.settings(transpile_dtype_rules="jax"):
        got = stax_cases.run(tp, tnp, stax, optimizers, names=SAMPLED)
    for name in SAMPLED:
        np.testing.assert_allclose(got[name], RECORDED["results"][name], rtol=2e-5,
                                   err_msg=name)


def test_initialisation_splits_keys_as_jax_and_keeps_a_batch_of_minus_one():
    init, _ = stax_cases.model(stax)
    shape, params = init(tp.random.PRNGKey(0), (-1, 8, 8, 1))
    assert shape == (-1, 10)
    assert [np.shape(w) for w, _ in (params[0], params[4])] == [(3, 3, 1, 3), (3, 3, 3, 4)]


def test_optimizer_state_packs_and_rejects_foreign_gradients():
    opt_init, opt_update, get_params = optimizers.adam(0.1)
    state = opt_init({"w": np.ones(3, np.float32), "b": np.zeros(2, np.float32)})
    again = optimizers.pack_optimizer_state(optimizers.unpack_optimizer_state(state))
    assert tp.tree_util.tree_structure(again) == tp.tree_util.tree_structure(state)
    with pytest.raises(TypeError, match="gradient tree"):
        opt_update(0, {"w": np.ones(3, np.float32)}, state)
    state = tp.jit(opt_update)(0, {"w": np.ones(3, np.float32), "b": np.ones(2, np.float32)},
                               state)
    np.testing.assert_allclose(get_params(state)["w"], 0.9, rtol=1e-6)   # adam's first step


def test_dropout_needs_a_key_and_conv_transpose_says_what_is_missing():
    _, apply = stax.Dropout(0.5)
    with pytest.raises(ValueError, match="rng=key"):
        apply((), np.ones(4, np.float32))
    kept = apply((), np.ones(1000, np.float32), rng=tp.random.PRNGKey(1))
    assert set(np.unique(np.asarray(kept))) == {0.0, 2.0}
    with pytest.raises(NotImplementedError, match="conv_transpose"):
        stax.ConvTranspose(4, (3, 3))
