"""JAX's single-process helpers that scripts call unconditionally (transpile/process_api.py)
and tree_util.tree_all / tree.all: values a one-process, one-device JAX gives."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def test_one_process_one_device():
    assert tp.local_device_count() == 1 and tp.local_devices() == tp.devices()
    assert tp.process_index() == 0 and tp.process_count() == 1
    with pytest.raises(ValueError, match="single process"):
        tp.local_devices(process_index=1)


def test_scopes_and_names_change_nothing():
    f = tp.named_call(lambda x: tnp.sin(x) * 2, name="twice_sin")
    with tp.named_scope("outer"), tp.ensure_compile_time_eval():
        got = tp.jit(f)(np.float32(0.5))
    np.testing.assert_allclose(got, np.sin(0.5) * 2, rtol=1e-6)
    with pytest.raises(TypeError, match="'name' must be a str"):
        with tp.named_scope(3):
            pass


def test_tree_all():
    assert tp.tree_util.tree_all({"a": True, "b": (1, np.True_)})
    assert not tp.tree.all([1, 0]) and tp.tree.all([])
    assert tp.tree_util.tree_all([None, 1], is_leaf=lambda x: x is None) is False
