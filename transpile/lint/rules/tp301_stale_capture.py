"""TP301: jitted code reads a module-level variable that the module reassigns."""

from __future__ import annotations

import ast

from .base import Example, Rule
from .scoping import outer_binding


class StaleCapture(Rule):
    code = "TP301"
    name = "stale-global-capture"
    summary = "jitted code reads a module global that is reassigned"
    what_it_does = """
        Checks for reads, in jitted code, of module-level variables that the module assigns
        more than once (or that a function rebinds through `global`). Imports, functions and
        classes are not counted as variables.
    """
    why_bad = """
        A global is read while tracing and its value is baked into the compiled code. Later
        reassignments are silently ignored until something else forces a retrace (a new
        shape or dtype), so results depend on call history. Pass the value as an argument
        (static if it must stay a Python value) or make it a constant.
    """
    example = """
        import transpile as tp

        power = 5

        def powerof(x):
            return x ** power

        powerof_jit = tp.jit(powerof)
        power = 10
    """
    use_instead = """
        from functools import partial

        import transpile as tp

        @partial(tp.jit, static_argnames=['power'])
        def powerof(x, power):
            return x ** power
    """
    valid = (
        """
        import transpile as tp

        SCALE = 3.0

        @tp.jit
        def f(x):
            return x * SCALE
        """,
        """
        import transpile as tp

        scale = 1

        def g(x):
            return x * scale  # not jitted

        scale = 2
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            power = 5

            def set_power(p):
                global power
                power = p

            @tp.jit
            def f(x):
                return x ** power
            """,
            line=11,
            contains=("'power' is a module global that is reassigned (line 7)",),
        ),
    )

    def check(self, ctx):
        rebound = _rebound_globals(ctx)
        if not rebound:
            return
        reported: set[tuple[object, str]] = set()
        for name, function in ctx.traced_code.of(ast.Name):
            lines = rebound.get(name.id)
            if lines is None or not isinstance(name.ctx, ast.Load) or (function, name.id) in reported:
                continue
            outer = outer_binding(ctx, name.id, function)
            if outer is None or outer[0] != "global":
                continue
            reported.add((function, name.id))
            yield self._finding(ctx, name, lines)

    def _finding(self, ctx, name: ast.Name, lines: list[int]):
        later = lines[1:] or lines
        where = f"line{'s' if len(later) > 1 else ''} {', '.join(map(str, later))}"
        message = (
            f"'{name.id}' is a module global that is reassigned ({where}); jitted code "
            "reads it once, while tracing, and keeps that value"
        )
        help = f"pass '{name.id}' as an argument (static if it must stay a Python value), or never reassign it"
        return ctx.finding(self.code, name, message, help)


def _rebound_globals(ctx) -> dict[str, list[int]]:
    """Global variable name -> the lines assigning it, for names assigned more than once
    (at module level or through `global` in a function)."""
    index = ctx.index
    by_name: dict[str, list[ast.AST]] = {name: list(nodes) for name, nodes in index.module.bound.items()}
    for scope in index.scopes.values():
        for name, kind in scope.declared.items():
            if kind == "global":
                by_name.setdefault(name, []).extend(scope.bound.get(name, []))
    found: dict[str, list[int]] = {}
    for name, nodes in by_name.items():
        if len(nodes) < 2 or any(isinstance(node, NOT_VARIABLES) for node in nodes):
            continue  # imports, defs and classes are not "variables"
        found[name] = sorted({node.lineno for node in nodes})
    return found


NOT_VARIABLES = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
