"""`transpile.tree_util`: JAX's pytree functions (`jax.tree_util`), over transpile's pytrees,
with key paths (`tree_flatten_with_path`, `keystr`, ...)."""
from .pytree import (TreeDef as PyTreeDef, register_dataclass, register_pytree_node,
                     tree_flatten, tree_leaves, tree_map, tree_reduce, tree_structure,
                     tree_unflatten)
from .pytree_keys import (DictKey, FlattenedIndexKey, GetAttrKey, KeyEntry, KeyPath,
                          SequenceKey, keystr, register_pytree_node_class,
                          register_pytree_with_keys, register_pytree_with_keys_class,
                          tree_flatten_with_path, tree_leaves_with_path, tree_map_with_path)
from .tree_partial import Partial


def tree_all(tree, *, is_leaf=None) -> bool:
    """Whether every leaf of `tree` is truthy (JAX's `tree_all`: `all(tree_leaves(tree))`)."""
    return all(tree_leaves(tree, is_leaf=is_leaf))

__all__ = ["DictKey", "FlattenedIndexKey", "GetAttrKey", "KeyEntry", "KeyPath", "Partial",
           "PyTreeDef", "SequenceKey", "keystr", "register_dataclass", "register_pytree_node",
           "register_pytree_node_class", "register_pytree_with_keys",
           "register_pytree_with_keys_class", "tree_all", "tree_flatten", "tree_flatten_with_path",
           "tree_leaves", "tree_leaves_with_path", "tree_map", "tree_map_with_path",
           "tree_reduce", "tree_structure", "tree_unflatten"]
