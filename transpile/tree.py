"""`transpile.tree`: the short names of `jax.tree` (map, leaves, flatten, ...)."""
from .pytree import (tree_flatten as flatten, tree_leaves as leaves, tree_map as map,
                     tree_reduce as reduce, tree_structure as structure,
                     tree_unflatten as unflatten)

__all__ = ["flatten", "leaves", "map", "reduce", "structure", "unflatten"]
