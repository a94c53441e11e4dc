"""tree_util.Partial: bound arguments are pytree leaves (tree_map, jit arguments, grad through
them) and the function is static, as JAX's Partial."""
from __future__ import annotations

import functools

import numpy as np

import transpile as tp
from transpile.tree_util import Partial


def _scale(x, y, *, power):
    return x * y ** power


def test_partial_is_a_partial_with_leaves():
    p = Partial(_scale, np.float32(2.0), power=2)
    assert isinstance(p, functools.partial)
    assert p(np.float32(3.0)) == 18.0
    assert [float(v) for v in tp.tree_util.tree_leaves(p)] == [2.0, 2.0]


def test_partial_passes_through_jit_and_tree_map():
    p = Partial(_scale, np.float32(2.0), power=2)
    call = tp.jit(lambda f, x: f(x))
    np.testing.assert_array_equal(call(p, np.arange(3, dtype=np.float32)), [0.0, 2.0, 8.0])
    q = tp.tree_util.tree_map(lambda v: v * 10, p)
    assert isinstance(q, Partial) and q.func is _scale and float(q(np.float32(1.0))) == 20.0


def test_grad_flows_through_bound_arguments():
    call = tp.jit(lambda f, x: f(x))
    g = tp.grad(lambda a: call(Partial(_scale, a, power=1), np.float32(4.0)))(np.float32(1.0))
    assert float(g) == 4.0
