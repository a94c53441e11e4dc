"""`transpile.lax`: structured control flow, as `jax.lax`.

Outside `jit` these run eagerly as Python loops over NumPy values. Under `jit`,
`cond`/`switch`/`select` trace every branch and select between their results
(valid because traced code is pure), and `fori_loop` with Python-int bounds is
unrolled at trace time. Loops whose trip count is itself traced
(`while_loop`, `fori_loop` with traced bounds, `scan` of traced length) need
compiled loop regions in the IR, which this version does not have yet: they
raise a TypeError that says so rather than computing something wrong.
"""
from __future__ import annotations

import numpy as np

from .core import Tracer, current_trace
from .numpy import _elementwise as E
from .numpy._util import as_bool, operand
from .pytree import tree_flatten, tree_unflatten


def select(pred, on_true, on_false):
    return E.where(pred, on_true, on_false)


def _select_trees(pred, true_tree, false_tree, what: str):
    t_leaves, t_def = tree_flatten(true_tree)
    f_leaves, f_def = tree_flatten(false_tree)
    if t_def != f_def:
        raise TypeError(f"{what}: branches return different structures: {t_def} and {f_def}")
    return tree_unflatten(t_def, [E.where(pred, a, b) for a, b in zip(t_leaves, f_leaves)])


def _is_concrete(x) -> bool:
    return not isinstance(x, Tracer)


def cond(pred, true_fun, false_fun, *operands):
    if _is_concrete(pred) and current_trace() is None:
        return true_fun(*operands) if bool(np.asarray(pred)) else false_fun(*operands)
    p = as_bool(operand(pred))
    return _select_trees(p, true_fun(*operands), false_fun(*operands), "lax.cond")


def switch(index, branches, *operands):
    branches = list(branches)
    if not branches:
        raise ValueError("lax.switch needs at least one branch")
    if _is_concrete(index) and current_trace() is None:
        i = int(np.clip(np.asarray(index), 0, len(branches) - 1))
        return branches[i](*operands)
    index = E.clip(operand(index), 0, len(branches) - 1)
    result = branches[-1](*operands)
    for i in range(len(branches) - 2, -1, -1):
        result = _select_trees(E.equal(index, i), branches[i](*operands), result, "lax.switch")
    return result


def _needs_regions(what: str):
    raise TypeError(f"lax.{what} with a traced trip count needs compiled loop regions, which "
                    "this version of transpile does not have yet; use Python-int bounds (mark "
                    "them static) so the loop unrolls, or call the loop outside jit")


def fori_loop(lower, upper, body_fun, init_val):
    if isinstance(lower, Tracer) or isinstance(upper, Tracer):
        _needs_regions("fori_loop")
    val = init_val
    for i in range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def while_loop(cond_fun, body_fun, init_val):
    val = init_val
    while True:
        c = cond_fun(val)
        if isinstance(c, Tracer):
            _needs_regions("while_loop")
        if not bool(np.asarray(c)):
            return val
        val = body_fun(val)


def scan(f, init, xs=None, length=None, reverse=False):
    leaves, treedef = tree_flatten(xs)
    n = length if length is not None else (len(leaves[0]) if leaves else None)
    if n is None:
        raise ValueError("lax.scan needs xs or length")
    carry, ys = init, []
    order = range(n - 1, -1, -1) if reverse else range(n)
    for i in order:
        x = tree_unflatten(treedef, [leaf[i] for leaf in leaves]) if leaves else None
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, None
    from .numpy import stack
    y_leaves = [tree_flatten(y)[0] for y in ys]
    _, y_def = tree_flatten(ys[0])
    stacked = [stack([yl[j] for yl in y_leaves]) for j in range(len(y_leaves[0]))]
    return carry, tree_unflatten(y_def, stacked)
