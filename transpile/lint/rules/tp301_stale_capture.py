"""TP301: jitted code reads a module-level variable that the module reassigns."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import Assignment, GlobalScope, ImportAssignment

from .base import Example, Rule


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
        for name, function in ctx.traced_code.of(cst.Name):
            lines = rebound.get(name.value)
            if lines is None or (function, name.value) in reported:
                continue
            access = ctx.access(name)
            if access is None or not _all_global(access.referents):
                continue
            reported.add((function, name.value))
            yield self._finding(ctx, name, lines)

    def _finding(self, ctx, name: cst.Name, assignments: list[cst.CSTNode]):
        lines = sorted({ctx.position(node).start.line for node in assignments})
        later = lines[1:] or lines
        where = f"line{'s' if len(later) > 1 else ''} {', '.join(map(str, later))}"
        message = (
            f"'{name.value}' is a module global that is reassigned ({where}); jitted code "
            "reads it once, while tracing, and keeps that value"
        )
        help = f"pass '{name.value}' as an argument (static if it must stay a Python value), or never reassign it"
        return ctx.finding(self.code, name, message, help)


def _all_global(referents) -> bool:
    return bool(referents) and all(isinstance(r.scope, GlobalScope) for r in referents)


def _rebound_globals(ctx) -> dict[str, list[cst.CSTNode]]:
    """Global variable name -> its assignment nodes, for names assigned more than once."""
    global_scope = ctx.scopes.get(ctx.module)
    if global_scope is None:
        return {}
    by_name: dict[str, list[cst.CSTNode]] = {}
    excluded: set[str] = set()
    for assignment in global_scope.assignments:
        if (
            not isinstance(assignment, Assignment)
            or isinstance(assignment, ImportAssignment)
            or isinstance(assignment.node, (cst.FunctionDef, cst.ClassDef))
        ):
            excluded.add(assignment.name)  # imports, defs and classes are not "variables"
            continue
        by_name.setdefault(assignment.name, []).append(assignment.node)
    return {name: nodes for name, nodes in by_name.items() if len(nodes) > 1 and name not in excluded}
