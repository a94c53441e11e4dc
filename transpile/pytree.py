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

    # Compared on an explicit stack: a structure built by a Python loop (`acc = (y, acc)`)
    # is as deep as its trip count, deeper than tuple comparison may recurse. Hashing
    # stays tuple hashing, which recurses in C without a Python frame per level.
    def __eq__(self, other):
        return _same_treedef(self, other)

    def __ne__(self, other):
        return not _same_treedef(self, other)

    __hash__ = tuple.__hash__


def _same_treedef(a, b) -> bool:
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if not (isinstance(x, TreeDef) and isinstance(y, TreeDef)):
            return False
        if x.kind is not y.kind or len(x.children) != len(y.children) or x.aux != y.aux:
            return False
        stack.extend(zip(x.children, y.children))
    return True


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


_END = object()


def _flatten(tree, leaves: list, is_leaf=None) -> TreeDef:
    """The structure of `tree`, its leaves appended to `leaves` depth first. On an explicit
    stack of open containers: a loop-built structure is as deep as its trip count."""
    stack: list = []          # [kind, aux, iterator over the children left, their TreeDefs]
    node = tree
    while True:
        kind, aux, children = _split(node, is_leaf)
        if kind is None:
            leaves.append(node)
            done = LEAF
        elif children:
            stack.append((kind, aux, iter(children[1:]), []))
            node = children[0]
            continue
        else:
            done = TreeDef(kind, aux, ())
        while True:                           # close every container this completes
            if not stack:
                return done
            kind, aux, rest, built = stack[-1]
            built.append(done)
            node = next(rest, _END)
            if node is not _END:
                break
            stack.pop()
            done = TreeDef(kind, aux, tuple(built))


def _split(x, is_leaf):
    """(container type, aux data, children) of one node; (None, None, ()) for a leaf."""
    if is_leaf is not None and is_leaf(x):
        return None, None, ()
    if type(x) in _REGISTRY:
        children, aux = _REGISTRY[type(x)][0](x)
        return type(x), aux, list(children)
    if x is None:
        return type(None), None, ()
    if type(x) in (tuple, list) or _is_namedtuple(x):
        return type(x), None, list(x)
    if isinstance(x, dict):
        keys = sorted_keys(x)
        return type(x), keys, [x[k] for k in keys]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = tuple(f.name for f in dataclasses.fields(x))
        return type(x), names, [getattr(x, n) for n in names]
    return None, None, ()


def tree_unflatten(treedef: TreeDef, leaves) -> Any:
    it = iter(leaves)
    result = _unflatten(treedef, it)
    return result


def _unflatten(treedef: TreeDef, it):
    """Rebuild depth first, children before their container, on an explicit stack."""
    stack: list = []          # (TreeDef of an open container, its children built so far)
    td = treedef
    while True:
        if td.kind is None:
            value = next(it)
        elif td.kind is type(None):
            value = None
        elif td.children:
            stack.append((td, []))
            td = td.children[0]
            continue
        else:
            value = _build(td, [])
        while stack:
            parent, built = stack[-1]
            built.append(value)
            if len(built) < len(parent.children):
                td = parent.children[len(built)]
                break
            stack.pop()
            value = _build(parent, built)
        else:
            return value


def _build(td: TreeDef, children: list):
    """One container of kind `td.kind` holding `children`."""
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
    stack = [(tree, prefix)]
    while stack:
        x, path = stack.pop()
        if x is None:
            continue
        named = _named_children(x, path)
        if named is None:
            paths.append(path)
        else:
            stack.extend(reversed(named))
    return paths


def _named_children(x, prefix):
    """[(child, its path)] of a container, in flatten order; None for a leaf."""
    if type(x) in _REGISTRY:
        return [(c, f"{prefix}[{i}]") for i, c in enumerate(_REGISTRY[type(x)][0](x)[0])]
    if type(x) in (tuple, list) or _is_namedtuple(x):
        return [(c, f"{prefix}[{i}]") for i, c in enumerate(x)]
    if isinstance(x, dict):
        return [(x[k], f"{prefix}[{k!r}]") for k in sorted_keys(x)]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [(getattr(x, f.name), f"{prefix}.{f.name}") for f in dataclasses.fields(x)]
    return None


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
    """`(*, [*, *], {'a': *})`: written children first, on an explicit stack."""
    stack, done = [(td, False)], []
    while stack:
        node, ready = stack.pop()
        if not ready and node.children:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
            continue
        parts = [done.pop() for _ in node.children][::-1]
        done.append(_one_repr(node, parts))
    return done[0]


def _one_repr(td: TreeDef, parts: list) -> str:
    if td.kind is None:
        return "*"
    if td.kind is type(None):
        return "None"
    inner = ", ".join(parts)
    if td.kind is dict:
        inner = ", ".join(f"{k!r}: {p}" for k, p in zip(td.aux, parts))
        return "{" + inner + "}"
    if td.kind is list:
        return f"[{inner}]"
    if td.kind is tuple:
        return f"({inner}{',' if len(td.children) == 1 else ''})"
    return f"{td.kind.__name__}({inner})"
