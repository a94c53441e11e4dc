"""Key paths: where each leaf sits in a pytree, as jax.tree_util's `tree_flatten_with_path`,
`tree_map_with_path` and `keystr` give it.

A path is a tuple of keys, one per container on the way down: `DictKey` for dict entries,
`SequenceKey` for list and tuple items, `GetAttrKey` for namedtuple and dataclass fields,
`FlattenedIndexKey` for the children of a node registered without keys, and whatever a node
registered with `register_pytree_with_keys` names its children. Leaves come in
`tree_flatten`'s order.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .pytree import (DATACLASS_FIELDS, _REGISTRY, _is_namedtuple, register_pytree_node,
                     sorted_keys, tree_flatten, tree_unflatten)


@dataclasses.dataclass(frozen=True)
class DictKey:
    key: Any

    def __str__(self):
        return f"[{self.key!r}]"

    def simple(self) -> str:
        return str(self.key)


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self):
        return f"[{self.idx}]"

    def simple(self) -> str:
        return str(self.idx)


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self):
        return f".{self.name}"

    def simple(self) -> str:
        return str(self.name)


@dataclasses.dataclass(frozen=True)
class FlattenedIndexKey:
    key: int

    def __str__(self):
        return f"[<flat index {self.key}>]"

    def simple(self) -> str:
        return str(self.key)


KeyEntry = Any      # one of the four key types above, or a registered node's own key
KeyPath = tuple
_KEY_TYPES = (DictKey, SequenceKey, GetAttrKey, FlattenedIndexKey)

# type -> flatten_with_keys(x) -> (((key, child), ...), aux)
_KEYED: dict[type, Any] = {}


def register_pytree_with_keys(nodetype, flatten_with_keys, unflatten_func, flatten_func=None):
    """A container whose `flatten_with_keys(x)` gives ((key, child), ...) and aux data;
    `flatten_func` (children and aux data without keys) is derived when not given."""
    if flatten_func is None:
        def flatten_func(x):
            pairs, aux = flatten_with_keys(x)
            return [child for _, child in pairs], aux
    register_pytree_node(nodetype, flatten_func, unflatten_func)
    _KEYED[nodetype] = flatten_with_keys
    return nodetype


def register_pytree_node_class(cls):
    """Register a class by its own `tree_flatten()` method and `tree_unflatten(aux,
    children)` classmethod; returns the class (a decorator)."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls):
    """Register a class by its `tree_flatten_with_keys()` method and `tree_unflatten`
    classmethod (and `tree_flatten`, when it has one)."""
    flatten = (lambda x: x.tree_flatten()) if hasattr(cls, "tree_flatten") else None
    return register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(),
                                     cls.tree_unflatten, flatten)


def _keyed_children(x):
    """[(key, child), ...] for a container, None for a leaf (tree_flatten's order)."""
    t = type(x)
    if t in _KEYED:
        return list(_KEYED[t](x)[0])
    if t in DATACLASS_FIELDS:
        return [(GetAttrKey(n), getattr(x, n)) for n in DATACLASS_FIELDS[t]]
    if t in _REGISTRY:
        return [(FlattenedIndexKey(i), c) for i, c in enumerate(_REGISTRY[t][0](x)[0])]
    if x is None:
        return []
    if _is_namedtuple(x):
        return [(GetAttrKey(n), getattr(x, n)) for n in t._fields]
    if t in (tuple, list):
        return [(SequenceKey(i), c) for i, c in enumerate(x)]
    if isinstance(x, dict):
        return [(DictKey(k), x[k]) for k in sorted_keys(x)]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [(GetAttrKey(f.name), getattr(x, f.name)) for f in dataclasses.fields(x)]
    return None


def _walk(x, path, out, is_leaf):
    children = None if is_leaf is not None and is_leaf(x) else _keyed_children(x)
    if children is None:
        out.append((path, x))
        return
    for key, child in children:
        _walk(child, path + (key,), out, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    """([(key path, leaf), ...], treedef): tree_flatten's leaves, each with its path."""
    pairs: list = []
    _walk(tree, (), pairs, is_leaf)
    return pairs, tree_flatten(tree, is_leaf)[1]


def tree_leaves_with_path(tree, is_leaf=None):
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(f, tree, *rest, is_leaf=None):
    """tree_map where `f` also receives each leaf's key path first: f(path, leaf, *others)."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf)
    others = [tree_flatten(r, is_leaf) for r in rest]
    for other_leaves, other_def in others:
        if other_def != treedef:
            raise ValueError(f"tree_map_with_path: tree structures differ: {treedef} and "
                             f"{other_def}")
    values = [f(path, leaf, *(o[0][i] for o in others))
              for i, (path, leaf) in enumerate(pairs)]
    return tree_unflatten(treedef, values)


def keystr(keys, *, simple=False, separator=""):
    """A path as text: "['params'][0].w", or with simple=True the bare names joined by
    `separator` ("params/0/w" with separator="/")."""
    return separator.join(k.simple() if simple and isinstance(k, _KEY_TYPES) else str(k)
                          for k in keys)
