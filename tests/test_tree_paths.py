"""tree_util key paths against jax.tree_util's recorded answers (tests/data/jax_names.json,
written by tools/record_jax_names.py): the same trees give the same paths (as reprs), the
same keystr text, the same leaves in the same order, and tree_map_with_path sees them."""
from __future__ import annotations

import dataclasses
from collections import namedtuple

import numpy as np
import pytest

import transpile as tp
from transpile import tree_util as tu
from jax_names_data import DATA

Point = namedtuple("Point", ["x", "y"])


@tu.register_dataclass
@dataclasses.dataclass
class Params:
    w: object
    b: object


class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b


tu.register_pytree_node(Box, lambda s: ((s.a, s.b), None), lambda _, c: Box(*c))


class Keyed:
    def __init__(self, left, right):
        self.left, self.right = left, right


tu.register_pytree_with_keys(
    Keyed, lambda s: (((tu.GetAttrKey("left"), s.left), (tu.DictKey("r"), s.right)), None),
    lambda _, c: Keyed(*c))

TREES = {
    "nested": {"b": [1, (2, 3)], "a": None, "c": {"z": 4, "y": [5]}},
    "namedtuple": [Point(1, 2), Point(x=(3, 4), y=None)],
    "dataclass": {"layer": Params(w=1, b=[2, 3])},
    "registered": (Box(1, [2, 3]), 4),
    "with_keys": [Keyed(1, {"q": 2})],
    "int_keys": {2: "a", 1: "b"},
    "leaf": 7,
}


@pytest.mark.parametrize("name", sorted(TREES))
def test_paths_match_jax(name):
    expected = DATA["tree_paths"][name]
    tree = TREES[name]
    pairs, treedef = tu.tree_flatten_with_path(tree)
    assert [[repr(k) for k in path] for path, _ in pairs] == expected["paths"]
    assert [tu.keystr(path) for path, _ in pairs] == expected["keystr"]
    assert [tu.keystr(path, simple=True, separator="/") for path, _ in pairs] == \
        expected["keystr_simple"]
    assert [leaf for _, leaf in pairs] == expected["leaves"] == tu.tree_leaves(tree)
    assert treedef == tu.tree_structure(tree)
    mapped = tu.tree_map_with_path(lambda p, v: f"{tu.keystr(p)}={v}", tree)
    assert tu.tree_leaves(mapped) == expected["mapped"]


def test_keys_compare_and_hash_by_value():
    assert tu.DictKey("a") == tu.DictKey("a") and tu.SequenceKey(0) != tu.SequenceKey(1)
    assert len({tu.GetAttrKey("w"), tu.GetAttrKey("w")}) == 1


def test_map_with_path_over_several_trees_and_under_jit():
    params = {"w": np.ones(2), "b": np.zeros(2)}
    grads = {"w": np.full(2, 2.0), "b": np.full(2, 3.0)}

    def sgd(p, g):   # decay only the weights, found by their path
        return tu.tree_map_with_path(
            lambda path, x, dx: x - 0.1 * dx - (0.01 * x if path[-1].key == "w" else 0), p, g)
    out = tp.jit(sgd)(params, grads)
    np.testing.assert_allclose(out["w"], 1 - 0.2 - 0.01)
    np.testing.assert_allclose(out["b"], -0.3)


def test_register_pytree_node_class_round_trips():
    @tu.register_pytree_node_class
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten(self):
            return (self.a, self.b), "meta"

        @classmethod
        def tree_unflatten(cls, aux, children):
            assert aux == "meta"
            return cls(*children)
    doubled = tp.jit(lambda p: tu.tree_map(lambda v: v * 2, p))(Pair(np.ones(1), np.ones(2)))
    assert isinstance(doubled, Pair) and doubled.b.tolist() == [2.0, 2.0]
    assert [tu.keystr(p) for p, _ in tu.tree_flatten_with_path(doubled)[0]] == \
        ["[<flat index 0>]", "[<flat index 1>]"]


def test_register_pytree_with_keys_class():
    @tu.register_pytree_with_keys_class
    class Named:
        def __init__(self, x):
            self.x = x

        def tree_flatten_with_keys(self):
            return ((tu.GetAttrKey("x"), self.x),), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)
    pairs, _ = tu.tree_flatten_with_path([Named(5)])
    assert tu.keystr(pairs[0][0]) == "[0].x" and pairs[0][1] == 5
    assert tu.tree_leaves(tu.tree_map(lambda v: v + 1, Named(5))) == [6]


def test_is_leaf_stops_the_descent():
    pairs, _ = tu.tree_flatten_with_path({"a": (1, 2)}, is_leaf=lambda x: isinstance(x, tuple))
    assert pairs == [((tu.DictKey("a"),), (1, 2))]


def test_tree_module_short_names():
    assert [tu.keystr(p) for p, _ in tp.tree.leaves_with_path([1, [2]])] == ["[0]", "[1][0]"]
    assert tp.tree.map_with_path(lambda p, v: len(p), [1, [2]]) == [1, [2]]
