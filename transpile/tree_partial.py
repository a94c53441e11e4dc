"""`tree_util.Partial`: a functools.partial that is a pytree, as JAX's, so a function with
some arguments bound can be passed through jit (and tree_map'd): the bound positional and
keyword arguments are the children, the function itself is static (part of the tree's
structure, compared by identity as JAX compares it)."""
from __future__ import annotations

import functools

from .pytree import register_pytree_node


class Partial(functools.partial):
    """functools.partial whose bound arguments are pytree children."""


def _flatten(p: Partial):
    return (p.args, p.keywords), p.func


def _unflatten(func, children):
    args, keywords = children
    return Partial(func, *args, **keywords)


register_pytree_node(Partial, _flatten, _unflatten)
