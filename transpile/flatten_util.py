"""`transpile.flatten_util.ravel_pytree`: a pytree of arrays as one flat vector and the
function that rebuilds the tree from such a vector (JAX's `jax.flatten_util`). evosax's
parameter reshaper, Hessians of neural-network parameters and L-BFGS on pytrees use it.

The vector's dtype is the leaves' promoted dtype (the mode's rules); an empty tree gives an
empty float32 vector. When every leaf has that dtype, the rebuild keeps the vector's dtype (so
it also rebuilds tangents or batched values of another float type); otherwise each leaf is
converted back to its own dtype and the vector must have the raveled dtype. The rebuild is made
of reshapes, slices and conversions, so it works under jit, vmap and grad.
"""
from __future__ import annotations

import math

import numpy as np

from . import numpy as tnp
from .pytree import tree_flatten, tree_unflatten


def ravel_pytree(pytree):
    """(flat 1-D array of every leaf raveled in tree order, unravel function)."""
    leaves, treedef = tree_flatten(pytree)
    flat, unravel_leaves = _ravel_leaves(leaves)
    return flat, lambda vector: tree_unflatten(treedef, unravel_leaves(vector))


def _ravel_leaves(leaves):
    if not leaves:
        return tnp.zeros((0,), np.float32), lambda vector: _split(vector, (), (), None)
    leaf_dtypes = [tnp.result_type(leaf) for leaf in leaves]
    common = tnp.result_type(*leaf_dtypes)      # as JAX: by the leaves' dtypes, none weak
    shapes = tuple(tnp.shape(leaf) for leaf in leaves)
    sizes = tuple(math.prod(shape) for shape in shapes)
    flat = tnp.concatenate([tnp.ravel(tnp.asarray(leaf)).astype(common) for leaf in leaves])
    if all(dt == common for dt in leaf_dtypes):
        return flat, lambda vector: _split(vector, sizes, shapes, None)
    return flat, lambda vector: [
        leaf.astype(dt) for leaf, dt in zip(_split(vector, sizes, shapes, common), leaf_dtypes)]


def _split(vector, sizes, shapes, expected_dtype):
    total = sum(sizes)
    if tnp.shape(vector) != (total,):
        raise ValueError(f"ravel_pytree's unravel: expected a 1-D array of {total} elements "
                         f"(the raveled tree's length), got shape {tnp.shape(vector)}")
    if expected_dtype is not None and tnp.result_type(vector) != expected_dtype:
        raise TypeError(f"ravel_pytree's unravel: the tree's leaves have several dtypes, so "
                        f"it expects the raveled dtype {expected_dtype}, got "
                        f"{tnp.result_type(vector)}; convert with .astype({expected_dtype})")
    pieces, start = [], 0
    for size, shape in zip(sizes, shapes):
        pieces.append(tnp.reshape(vector[start:start + size], shape))
        start += size
    return pieces


__all__ = ["ravel_pytree"]
