"""JAX's top-level helpers: tree_util / tree, ShapeDtypeStruct and eval_shape, disable_jit,
tnp.ndarray, and NumPy method names on traced values that internal fields once shadowed."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import tree_util


class Point:
    def __init__(self, x, y, label):
        self.x, self.y, self.label = x, y, label


tree_util.register_pytree_node(
    Point, lambda p: ((p.x, p.y), p.label), lambda label, xy: Point(*xy, label))


@dataclasses.dataclass
class Layer:
    w: object
    b: object
    name: str


tree_util.register_dataclass(Layer, data_fields=["w", "b"], meta_fields=["name"])


def test_registered_nodes_flatten_and_cross_jit():
    p = Point(np.ones(3), np.arange(3.0), "p")
    leaves, tree = tree_util.tree_flatten(p)
    assert len(leaves) == 2 and tree_util.tree_structure(p) == tree
    back = tree_util.tree_unflatten(tree, [a * 2 for a in leaves])
    assert back.label == "p" and np.array_equal(back.y, np.arange(3.0) * 2)
    f = tp.jit(lambda p: Point(p.x + p.y, p.x * p.y, p.label + "!"))
    out = f(p)
    assert out.label == "p!" and np.array_equal(out.x, 1 + np.arange(3.0))
    layer = Layer(np.eye(2), np.zeros(2), "dense")
    g = tp.jit(lambda layer, v: layer.w @ v + layer.b)
    assert np.array_equal(g(layer, np.ones(2)), np.ones(2))
    g(Layer(np.eye(2), np.zeros(2), "other"), np.ones(2))
    assert g.cache_info().misses == 2      # meta fields are static: a new name retraces


def test_tree_map_many_trees_and_is_leaf():
    a, b = {"x": 1, "y": (2, 3)}, {"x": 10, "y": (20, 30)}
    assert tp.tree.map(lambda u, v: u + v, a, b) == {"x": 11, "y": (22, 33)}
    assert tp.tree.leaves([(1, 2), [3]]) == [1, 2, 3]
    assert tp.tree.leaves([(1, 2), [3]], is_leaf=lambda t: isinstance(t, tuple)) == [(1, 2), 3]
    assert tp.tree.reduce(lambda u, v: u + v, [1, (2, 3)]) == 6
    with pytest.raises(ValueError, match="structures differ"):
        tp.tree.map(lambda u, v: u, (1, 2), [1, 2])


def test_eval_shape_traces_without_computing():
    big = tp.ShapeDtypeStruct((100_000, 50_000), np.float32)   # 20 GB if it were real
    out = tp.eval_shape(lambda x, y: {"s": x.sum(axis=0), "p": (x[:, :3] @ y).T},
                        big, np.zeros((3, 7), np.float64))
    assert out["s"] == tp.ShapeDtypeStruct((50_000,), np.float32)
    assert out["p"].shape == (7, 100_000) and out["p"].dtype == np.float64


def test_disable_jit_runs_python_eagerly_and_restores():
    seen = []

    @tp.jit
    def f(x):
        seen.append(type(x).__name__)
        return x * 2

    with tp.disable_jit():
        with tp.disable_jit():
            assert np.array_equal(f(np.ones(2)), 2 * np.ones(2))
        f(np.ones(2))
    # Eagerly the argument is an EagerArray: a zero-copy ndarray view with `.at` (README).
    assert seen == ["EagerArray", "EagerArray"] and f.cache_info().misses == 0
    f(np.ones(2))
    assert seen[-1] == "Tracer" and f.cache_info().misses == 1


def test_numpy_method_names_are_not_shadowed_by_internals():
    x = np.arange(12.0).reshape(3, 4)
    var, trace = tp.jit(lambda x: (x.var(), x.trace()))(x)
    assert var == pytest.approx(x.var()) and trace == x.trace()
    assert isinstance(np.zeros(2), tnp.ndarray)
