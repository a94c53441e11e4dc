"""vmap against recorded JAX 0.10 results (tests/data/jax_vmap.json, written by
tools/record_jax_vmap.py in 64-bit mode): the same programs, values and dtypes."""
import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax, random
from transpile.tree_util import tree_leaves, tree_map

from vmap_cases import cases

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_vmap.json").read_text())["cases"]


def extra_cases():
    """The JAX-only spellings of tools/record_jax_vmap.py, in transpile's modules."""
    keys = random.split(random.PRNGKey(3), 5)
    return {
        "random_normal_per_key": (lambda k: random.normal(k, dtype=np.float32),
                                  (np.asarray(keys),), 0, 0),
        "random_uniform_per_key": (lambda k: random.uniform(k, (3,), np.float32),
                                   (np.asarray(keys),), 0, 0),
    }


CASES = {**cases(tnp, lax), **extra_cases()}


def test_every_recorded_case_is_checked():
    assert sorted(RECORDED) == sorted(CASES)


def check_against_jax(name, out, what):
    leaves = tree_leaves(out)
    expected = RECORDED[name]
    assert len(leaves) == len(expected), what
    for k, (leaf, rec) in enumerate(zip(leaves, expected)):
        leaf = np.asarray(leaf)
        assert str(leaf.dtype) == rec["dtype"], f"{what} leaf {k}: dtype {leaf.dtype} != JAX's"
        want = np.asarray(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])
        if leaf.dtype.kind == "f":
            tol = 1e-6 if leaf.dtype == np.float32 else 1e-9     # libm vs XLA, in ulps
            np.testing.assert_allclose(leaf, want, rtol=tol, atol=tol * 1e-3,
                                       err_msg=f"{what} leaf {k}")
        else:
            np.testing.assert_array_equal(leaf, want, err_msg=f"{what} leaf {k}")


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_matches_jax(name):
    f, args, in_axes, out_axes = CASES[name]
    args = tree_map(lambda x: tnp.asarray(x) if isinstance(x, np.ndarray) else x, args)
    batched = tp.vmap(f, in_axes=in_axes, out_axes=out_axes)
    check_against_jax(name, batched(*args), f"{name} (eager)")
    check_against_jax(name, tp.jit(batched)(*args), f"{name} (jit)")
