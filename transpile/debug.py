"""`transpile.debug.print`: print traced values when the compiled code runs, as
`jax.debug.print`.

Under `jit` it records a `debug_print` equation (an effect: never dropped, merged or
constant-folded); the generated C hands the values to a Python hook at that point of the
program, so prints come out in program order on every call, once per iteration inside lax
loops. Eagerly (and with backend="interpret") it prints straight away. The text is
`fmt.format(*args, **kwargs)` on NumPy values.
"""
from __future__ import annotations

import builtins

from . import primitives as P
from .core import Tracer, bind, current_trace
from .base.operands import operand
from .pytree import tree_flatten
from .rules.effects import emit


def print(fmt: str, *args, **kwargs) -> None:  # noqa: A001 (JAX's name)
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print: fmt must be a str, got {type(fmt).__name__}")
    leaves, treedef = tree_flatten((args, kwargs))
    leaves = [operand(x, "debug.print argument") for x in leaves]
    if current_trace() is None and not builtins.any(isinstance(x, Tracer) for x in leaves):
        emit(fmt, treedef, leaves)
        return
    bind(P.debug_print, *leaves, fmt=fmt, treedef=treedef)


def callback(*args, **kwargs):
    raise NotImplementedError("transpile.debug.callback is not supported; use debug.print")
