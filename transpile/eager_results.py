"""Eager results of the public front end are EagerArrays, whatever path made them.

`bind` already returns EagerArrays outside a trace (rules/impl.py: eager_apply), but some
public functions make arrays without it: eagerly, `lax.cond`/`fori_loop`/`scan` run Python
control flow and return what the user's functions returned, `lax.broadcasted_iota` and
`random.PRNGKey` build NumPy arrays directly, `lax.stop_gradient` returns its argument.
`install` wraps a module's public functions so that, outside a trace, every NumPy array in
their (pytree) result becomes an EagerArray view (no copy). `transpile.numpy`'s own
namespace does the same through strength.py's result wrapper.
"""
from __future__ import annotations

import functools
import types

import numpy as np

from .config import config
from .core import aval_of, current_trace
from .eager_array import EagerArray, as_weak, eager
from .pytree import tree_map


def eager_tree(tree):
    """`tree` with each NumPy array leaf as an EagerArray (views; numbers stay numbers)."""
    t = type(tree)
    if t is EagerArray:
        return tree
    if t is np.ndarray:
        return tree.view(EagerArray)
    if t in (int, float, bool, complex):
        return _as_jax_array(tree) if config._token else tree
    if tree is None:
        return tree
    if isinstance(tree, np.generic):
        return eager(tree)         # a 0-d array under JAX's rules, else the scalar
    return tree_map(_as_jax_array if config._token else eager, tree)


def _as_jax_array(x):
    """Under JAX's rules every result is an array: a Python number a function returns (as
    lax.cond returns its branch's) becomes a 0-d array of JAX's dtype for it, weakly typed
    as the number was (a bool is not weak)."""
    if type(x) in (int, float, bool, complex):
        aval = aval_of(x)
        array = np.asarray(x, aval.dtype)
        return as_weak(array) if aval.weak_type else eager(array)
    return eager(x)


def eager_results(fn):
    """`fn`, whose eager results have EagerArrays for NumPy arrays (under a trace: as is)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        return out if current_trace() is not None else eager_tree(out)
    return wrapper


def install(namespace: dict, modules: tuple[str, ...]) -> None:
    """Wrap the public functions in `namespace` that are defined in one of `modules`. A
    wrapper names the namespace as its module, so that it pickles by reference (pickle finds
    it there; the original in its defining module is another object)."""
    for name, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and not name.startswith("_") \
                and value.__module__ in modules:
            wrapper = eager_results(value)
            wrapper.__module__, wrapper.__qualname__ = namespace["__name__"], name
            namespace[name] = wrapper
