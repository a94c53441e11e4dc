"""Derivative rules registered on a function: `@f.defjvp`, `f.defvjp(fwd, bwd)`.

JAX runs a `custom_jvp`/`custom_vjp` function's rules while tracing whenever a jitted function
differentiates it, so their bodies are traced code too. This module finds, for each function of
the module, the rules registered on it (by name, in the same module).
"""

from __future__ import annotations

import ast

from .index import DEFS, Function, ModuleIndex

JVP_REGISTRARS = ("defjvp",)
VJP_REGISTRARS = ("defvjp",)


def derivative_rules(index: ModuleIndex) -> dict[str, list[tuple[str, Function]]]:
    """Primal function name -> [("jvp" | "fwd" | "bwd", rule function)]."""
    by_name = {function.name: function for function in index.functions if isinstance(function, DEFS)}
    found: dict[str, list[tuple[str, Function]]] = {}
    for function in index.functions:
        for decorator in function.decorator_list:  # @f.defjvp
            primal = _registrar(decorator, JVP_REGISTRARS)
            if primal is not None:
                found.setdefault(primal, []).append(("jvp", function))
    for holder in index.holders:  # f.defjvp(f_jvp) / f.defvjp(f_fwd, f_bwd)
        call = getattr(holder.node, "value", None)
        if not isinstance(holder.node, ast.Expr) or not isinstance(call, ast.Call):
            continue
        primal = _registrar(call.func, JVP_REGISTRARS + VJP_REGISTRARS)
        if primal is None:
            continue
        kinds = ("jvp",) if call.func.attr in JVP_REGISTRARS else ("fwd", "bwd")
        for kind, arg in zip(kinds, call.args):
            if isinstance(arg, ast.Name) and arg.id in by_name:
                found.setdefault(primal, []).append((kind, by_name[arg.id]))
    return found


def _registrar(expr: ast.expr, names: tuple[str, ...]) -> str | None:
    """`f` for `f.defjvp` (the primal's name)."""
    if isinstance(expr, ast.Attribute) and expr.attr in names and isinstance(expr.value, ast.Name):
        return expr.value.id
    return None
