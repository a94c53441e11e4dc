"""Flattening nested containers (pytrees) into leaves and a structure to rebuild them.

Containers: tuple, list, dict (keys sorted), None, namedtuples, dataclasses, and any type
registered with `register_pytree_node` / `register_dataclass`. Everything else is a leaf.
Structures are hashable so they can key caches (registered aux data must be hashable).
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple


class TreeDef(NamedTuple):
    kind: Any             # a container type, or None for a leaf
    aux: Any              # dict keys / dataclass field names / None
    children: tuple       # child TreeDefs

    def __repr__(self):
        return tree_repr(self)


LEAF = TreeDef(None, None, ())

# type -> (flatten(x) -> (children, aux), unflatten(aux, children) -> x)
_REGISTRY: dict[type, tuple] = {}
# dataclass type registered with register_dataclass -> its data fields (children, in order)
DATACLASS_FIELDS: dict[type, tuple] = {}


def register_pytree_node(nodetype: type, flatten_func, unflatten_func) -> None:
    """Make `nodetype` a container: flatten_func(x) gives (children, aux data) and
    unflatten_func(aux, children) rebuilds it, as in jax.tree_util."""
    _REGISTRY[nodetype] = (flatten_func, unflatten_func)


def register_dataclass(nodetype: type, data_fields=None, meta_fields=None):
    """A dataclass whose `data_fields` are children and `meta_fields` static aux data."""
    if data_fields is None:
        data_fields = [f.name for f in dataclasses.fields(nodetype)
                       if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in dataclasses.fields(nodetype) if f.name not in data_fields]
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields or ())

    def flatten(x):
        return ([getattr(x, n) for n in data_fields],
                tuple(getattr(x, n) for n in meta_fields))

    def unflatten(aux, children):
        return nodetype(**dict(zip(data_fields, children)), **dict(zip(meta_fields, aux)))
    register_pytree_node(nodetype, flatten, unflatten)
    DATACLASS_FIELDS[nodetype] = data_fields
    return nodetype


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def sorted_keys(d: dict) -> tuple:
    """A dict's keys in flattening order: sorted, as JAX sorts them (by repr where they do
    not compare, as str with int)."""
    try:
        return tuple(sorted(d))
    except TypeError:
        return tuple(sorted(d, key=repr))


def tree_flatten(tree, is_leaf=None) -> tuple[list, TreeDef]:
    leaves: list = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(x, leaves: list, is_leaf=None) -> TreeDef:
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return LEAF
    if type(x) in _REGISTRY:
        children, aux = _REGISTRY[type(x)][0](x)
        return TreeDef(type(x), aux, tuple(_flatten(c, leaves, is_leaf) for c in children))
    if x is None:
        return TreeDef(type(None), None, ())
    if type(x) in (tuple, list) or _is_namedtuple(x):
        return TreeDef(type(x), None, tuple(_flatten(c, leaves, is_leaf) for c in x))
    if isinstance(x, dict):
        keys = sorted_keys(x)
        return TreeDef(type(x), keys, tuple(_flatten(x[k], leaves, is_leaf) for k in keys))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = tuple(f.name for f in dataclasses.fields(x))
        return TreeDef(type(x), names,
                       tuple(_flatten(getattr(x, n), leaves, is_leaf) for n in names))
    leaves.append(x)
    return LEAF


def tree_unflatten(treedef: TreeDef, leaves) -> Any:
    it = iter(leaves)
    result = _unflatten(treedef, it)
    return result


def _unflatten(td: TreeDef, it):
    if td.kind is None:
        return next(it)
    if td.kind is type(None):
        return None
    children = [_unflatten(c, it) for c in td.children]
    if td.kind in _REGISTRY:
        return _REGISTRY[td.kind][1](td.aux, children)
    if td.kind in (tuple, list):
        return td.kind(children)
    if issubclass(td.kind, tuple):          # namedtuple
        return td.kind(*children)
    if issubclass(td.kind, dict):
        return td.kind(zip(td.aux, children))
    return td.kind(**dict(zip(td.aux, children)))


def tree_leaf_paths(tree, prefix: str) -> list[str]:
    """Human names for each leaf, e.g. "xs[0]" or "params['w']", in flatten order."""
    paths: list[str] = []
    _paths(tree, prefix, paths)
    return paths


def _paths(x, prefix, out):
    if x is None:
        return
    if type(x) in _REGISTRY:
        for i, c in enumerate(_REGISTRY[type(x)][0](x)[0]):
            _paths(c, f"{prefix}[{i}]", out)
        return
    if type(x) in (tuple, list) or _is_namedtuple(x):
        for i, c in enumerate(x):
            _paths(c, f"{prefix}[{i}]", out)
    elif isinstance(x, dict):
        for k in sorted_keys(x):
            _paths(x[k], f"{prefix}[{k!r}]", out)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _paths(getattr(x, f.name), f"{prefix}.{f.name}", out)
    else:
        out.append(prefix)


def tree_map(fn, tree, *rest, is_leaf=None):
    leaves, td = tree_flatten(tree, is_leaf)
    others = [tree_flatten(r, is_leaf) for r in rest]
    for other_leaves, other_td in others:
        if other_td != td:
            raise ValueError(f"tree_map: tree structures differ: {td} and {other_td}")
    return tree_unflatten(td, [fn(*xs) for xs in zip(leaves, *(o[0] for o in others))])


def tree_leaves(tree, is_leaf=None) -> list:
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None) -> TreeDef:
    return tree_flatten(tree, is_leaf)[1]


def tree_reduce(fn, tree, initializer=None, is_leaf=None):
    import functools
    leaves = tree_leaves(tree, is_leaf)
    return functools.reduce(fn, leaves) if initializer is None else \
        functools.reduce(fn, leaves, initializer)


def tree_repr(td: TreeDef) -> str:
    if td.kind is None:
        return "*"
    if td.kind is type(None):
        return "None"
    inner = ", ".join(tree_repr(c) for c in td.children)
    if td.kind is dict:
        inner = ", ".join(f"{k!r}: {tree_repr(c)}" for k, c in zip(td.aux, td.children))
        return "{" + inner + "}"
    if td.kind is list:
        return f"[{inner}]"
    if td.kind is tuple:
        return f"({inner}{',' if len(td.children) == 1 else ''})"
    return f"{td.kind.__name__}({inner})"
