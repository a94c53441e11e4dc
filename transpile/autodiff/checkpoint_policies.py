"""`jax.checkpoint_policies`: the names a program passes as `checkpoint(f, policy=...)`.

A policy tells JAX which intermediate values of a checkpointed function to keep for the
backward pass instead of recomputing them. transpile's `checkpoint` accepts a policy and
ignores it (it always recomputes everything but the arguments, see custom.checkpoint), so
these exist so that programs naming them run; each answers as JAX's would if asked
`policy(primitive, *avals, **params) -> save?`.
"""
from __future__ import annotations

__all__ = ["checkpoint_dots", "dots_saveable", "dots_with_no_batch_dims_saveable",
           "everything_saveable", "nothing_saveable", "save_any_names_but_these",
           "save_from_both_policies", "save_only_these_names"]

_DOTS = {"dot_general", "matmul", "dot"}


def everything_saveable(*_, **__) -> bool:
    return True


def nothing_saveable(*_, **__) -> bool:
    return False


def dots_saveable(prim, *_, **__) -> bool:
    return getattr(prim, "name", prim) in _DOTS


checkpoint_dots = dots_saveable


def dots_with_no_batch_dims_saveable(prim, *_, **params) -> bool:
    dims = params.get("dimension_numbers")
    batch = dims[1] if dims is not None and len(dims) > 1 else ((), ())
    return dots_saveable(prim) and not any(batch)


def save_only_these_names(*names):
    return nothing_saveable                  # names come from checkpoint_name: none here


def save_any_names_but_these(*names):
    return nothing_saveable


def save_from_both_policies(policy_1, policy_2):
    def policy(*args, **params):
        return policy_1(*args, **params) or policy_2(*args, **params)
    return policy
