"""`pure_callback`: call a Python function on concrete arrays, as `jax.pure_callback`.

Eagerly (outside jit, vmap and the autodiff transformations, or under `disable_jit`) the
callback runs at once on NumPy arrays, and its result is checked against
`result_shape_dtypes` (a pytree of anything with `.shape` and `.dtype`, such as
`ShapeDtypeStruct`): the same tree, and each leaf the declared shape and dtype, as JAX
checks them.

Inside a transformation the arguments are tracers, which hold no values, and transpile's
compiled C cannot call back into Python. There it raises NotImplementedError naming the
callback, instead of running it on placeholders or postponing it (JAX defers it to run time
through a host callback). The fix is to call it outside the transformed function, or to
write it with transpile.numpy.
"""
from __future__ import annotations

import numpy as np

from .core import Tracer, aval_of
from .eager_results import eager_tree
from .pytree import tree_flatten, tree_unflatten


def _name(callback) -> str:
    return getattr(callback, "__qualname__", None) or type(callback).__name__


def _concrete(leaf):
    """A NumPy array of `leaf` in its canonical dtype (Python scalars as JAX types them)."""
    return np.asarray(leaf, dtype=aval_of(leaf).dtype) if not isinstance(leaf, np.ndarray) \
        else np.asarray(leaf)


def _declares_one_array(x) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype")


def _checked(result, result_shape_dtypes, callback):
    """The callback's result as arrays of the declared tree, shapes and dtypes."""
    declared, treedef = tree_flatten(result_shape_dtypes, is_leaf=_declares_one_array)
    got, got_treedef = tree_flatten(result)
    if len(got) != len(declared):
        raise RuntimeError(
            f"pure_callback: {_name(callback)} returned {len(got)} arrays "
            f"({got_treedef}), but result_shape_dtypes declares {len(declared)} ({treedef}); "
            "make the callback return the declared structure")
    out = []
    for k, (leaf, want) in enumerate(zip(got, declared)):
        arr = np.asarray(leaf)
        shape, dtype = tuple(want.shape), np.dtype(want.dtype)
        if arr.shape != shape or arr.dtype != dtype:
            raise RuntimeError(
                f"pure_callback: result {k} of {_name(callback)} is {arr.dtype}{list(arr.shape)}"
                f", but result_shape_dtypes declares {dtype}{list(shape)}; convert it in the "
                "callback (e.g. np.asarray(r, dtype)) or declare what it returns")
        out.append(arr)
    return tree_unflatten(treedef, out)


def pure_callback(callback, result_shape_dtypes, *args, sharding=None, vmap_method=None,
                  **kwargs):
    """`callback(*args, **kwargs)` on concrete NumPy arrays, its result checked against
    `result_shape_dtypes`. `sharding` and `vmap_method` are accepted for JAX's signature;
    inside jit, vmap or grad this raises NotImplementedError (see the module docstring)."""
    del sharding, vmap_method      # one device; and vmap never reaches an eager call
    leaves, treedef = tree_flatten((args, kwargs))
    if any(isinstance(leaf, Tracer) for leaf in leaves):
        raise NotImplementedError(
            f"pure_callback({_name(callback)}) inside jit, vmap or a differentiation: "
            "transpile compiles the traced function to C, which cannot call back into "
            "Python, and tracers hold no values to call it with. Call it outside the "
            "transformed function (on concrete arrays), or write it with transpile.numpy.")
    args, kwargs = tree_unflatten(treedef, [_concrete(leaf) for leaf in leaves])
    result = callback(*args, **kwargs)
    return eager_tree(_checked(result, result_shape_dtypes, callback))
