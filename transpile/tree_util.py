"""`transpile.tree_util`: JAX's pytree functions (`jax.tree_util`), over transpile's pytrees."""
from .pytree import (TreeDef as PyTreeDef, register_dataclass, register_pytree_node,
                     tree_flatten, tree_leaves, tree_map, tree_reduce, tree_structure,
                     tree_unflatten)
from .tree_partial import Partial

__all__ = ["Partial", "PyTreeDef", "register_dataclass", "register_pytree_node", "tree_flatten",
           "tree_leaves", "tree_map", "tree_reduce", "tree_structure", "tree_unflatten"]
