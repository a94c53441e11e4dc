"""vmap against a Python loop: `vmap(f)(xs)` equals stacking `f(x)` over the batch, eagerly
and under jit (compiled C), over the shared case programs (tests/vmap_cases.py)."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.tree_util import tree_map

from conftest import assert_same
from vmap_cases import cases

CASES = cases(tnp, lax)


def member(tree, spec, i):
    """Member i of the batched arguments `tree` mapped along `spec` (a prefix tree)."""
    if spec is None:
        return tree_map(lambda x: tnp.asarray(x) if isinstance(x, np.ndarray) else x, tree)
    if isinstance(spec, int):
        return tree_map(lambda x: tnp.asarray(np.take(np.asarray(x), i, axis=spec)), tree)
    if isinstance(spec, dict):
        return {k: member(tree[k], spec[k], i) for k in tree}
    return type(tree)(member(t, s, i) for t, s in zip(tree, spec))


def stack(outs, spec):
    """Stack the members' results along `spec` (an int, None, or a prefix tree)."""
    first = outs[0]
    if spec is None:
        return first
    if isinstance(spec, int):
        return tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs], axis=spec), *outs)
    if isinstance(first, dict):
        return {k: stack([o[k] for o in outs], spec[k]) for k in first}
    return type(first)(stack([o[j] for o in outs], s) for j, s in enumerate(spec))


def batch_size(args, in_axes):
    specs = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    for a, s in zip(args, specs):
        leaves = tp.tree_util.tree_leaves(a)
        found = [np.shape(x)[s] for x in leaves] if isinstance(s, int) else []
        if isinstance(s, dict):
            found = [np.shape(a[k])[s[k]] for k in s if s[k] is not None]
        if found:
            return found[0]
    raise AssertionError("no mapped argument")


def looped(f, args, in_axes, out_axes):
    specs = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    n = batch_size(args, in_axes)
    outs = [f(*[member(a, s, i) for a, s in zip(args, specs)]) for i in range(n)]
    if not isinstance(out_axes, int) and not isinstance(outs[0], (tuple, list, dict)):
        out_axes = out_axes[0]
    return stack(outs, out_axes)


def compare(actual, expected, what):
    a_leaves = tp.tree_util.tree_leaves(actual)
    e_leaves = tp.tree_util.tree_leaves(expected)
    assert len(a_leaves) == len(e_leaves), what
    for a, e in zip(a_leaves, e_leaves):
        e = np.asarray(e)
        assert isinstance(a, np.ndarray), f"{what}: {type(a).__name__} is not a NumPy array"
        if e.dtype.kind in "fc":
            assert_same(a, e, rtol=1e-5 if e.dtype == np.float32 else 1e-11, what=what)
        else:
            assert_same(a, e, what=what)


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_equals_loop_eagerly_and_under_jit(name):
    f, args, in_axes, out_axes = CASES[name]
    expected = looped(f, args, in_axes, out_axes)
    batched = tp.vmap(f, in_axes=in_axes, out_axes=out_axes)
    compare(batched(*args), expected, f"{name} (eager)")
    compare(tp.jit(batched)(*args), expected, f"{name} (jit)")


def test_cond_with_a_batched_predicate_keeps_a_forwarded_value_unbatched():
    """Both branches return the same unbatched operand: JAX forwards it (out_axes None is
    accepted); selecting it per member made it batched (lax_control_flow_test.py
    test_cond_vmap_forwarding_doesnt_promote)."""
    def f(x, y):
        return lax.cond(x < 3, lambda x, y: (x * 2, y), lambda x, y: (x * 3, y), x, y)

    batched = tp.vmap(f, in_axes=(0, None), out_axes=(0, None))
    for run in (batched, tp.jit(batched)):
        x2, y2 = run(np.arange(5), np.float64(3.0))
        assert_same(np.asarray(x2), np.array([0, 2, 4, 9, 12]))
        assert np.shape(y2) == () and float(y2) == 3.0
