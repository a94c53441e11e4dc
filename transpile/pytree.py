"""Flattening nested containers (pytrees) into leaves and a structure to rebuild them.

Containers: tuple, list, dict (keys sorted), None, namedtuples and dataclasses.
Everything else is a leaf. Structures are hashable so they can key caches.
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


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def tree_flatten(tree) -> tuple[list, TreeDef]:
    leaves: list = []
    return leaves, _flatten(tree, leaves)


def _flatten(x, leaves: list) -> TreeDef:
    if x is None:
        return TreeDef(type(None), None, ())
    if type(x) in (tuple, list) or _is_namedtuple(x):
        return TreeDef(type(x), None, tuple(_flatten(c, leaves) for c in x))
    if isinstance(x, dict):
        keys = tuple(sorted(x, key=repr)) if not all(isinstance(k, str) for k in x) \
            else tuple(sorted(x))
        return TreeDef(type(x), keys, tuple(_flatten(x[k], leaves) for k in keys))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = tuple(f.name for f in dataclasses.fields(x))
        return TreeDef(type(x), names, tuple(_flatten(getattr(x, n), leaves) for n in names))
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
    if type(x) in (tuple, list) or _is_namedtuple(x):
        for i, c in enumerate(x):
            _paths(c, f"{prefix}[{i}]", out)
    elif isinstance(x, dict):
        keys = sorted(x, key=repr) if not all(isinstance(k, str) for k in x) else sorted(x)
        for k in keys:
            _paths(x[k], f"{prefix}[{k!r}]", out)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _paths(getattr(x, f.name), f"{prefix}.{f.name}", out)
    else:
        out.append(prefix)


def tree_map(fn, tree):
    leaves, td = tree_flatten(tree)
    return tree_unflatten(td, [fn(x) for x in leaves])


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
