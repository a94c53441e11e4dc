"""`transpile.tree`: the short names of `jax.tree` (map, leaves, flatten, ...)."""
from .pytree import (tree_flatten as flatten, tree_leaves as leaves, tree_map as map,
                     tree_reduce as reduce, tree_structure as structure,
                     tree_unflatten as unflatten)
from .tree_util import tree_all as all  # noqa: A004 (JAX's name)
from .pytree_keys import (tree_flatten_with_path as flatten_with_path,
                          tree_leaves_with_path as leaves_with_path,
                          tree_map_with_path as map_with_path)

__all__ = ["all", "flatten", "flatten_with_path", "leaves", "leaves_with_path", "map",
           "map_with_path", "reduce", "structure", "unflatten"]
