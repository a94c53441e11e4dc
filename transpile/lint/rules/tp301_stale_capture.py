"""TP301: jitted code reads a module-level variable that the module reassigns."""

from __future__ import annotations

import ast

from ..codes import Code
from .base import Example, Rule
from .scoping import outer_binding


class StaleCapture(Rule):
    code = Code.TP301
    name = "stale-global-capture"
    summary = "jitted code reads a module global that is reassigned"
    what_it_does = """
        Checks for reads, in jitted code, of module-level variables that a function rebinds
        through `global`, or that the module assigns again after the jitted function is
        defined. Imports, functions and classes are not variables; `f = jax.jit(f)` and
        `if`/`else` or `try`/`except` branches choosing one value are not rebindings.
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
        """
        import transpile as tp

        try:
            import scipy
            EPS = 1e-6
        except ImportError:
            EPS = 1e-5

        def f(x):
            return x + EPS

        f = tp.jit(f)
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
        rebinding = _Rebinding(ctx)
        if not rebinding.candidates:
            return
        reported: set[tuple[object, str]] = set()
        for name, function in ctx.traced_code.of(ast.Name):
            if name.id not in rebinding.candidates or not isinstance(name.ctx, ast.Load):
                continue
            if (function, name.id) in reported:
                continue
            outer = outer_binding(ctx, name.id, function)
            if outer is None or outer[0] != "global":
                continue
            lines = rebinding.after(name.id, _outermost(ctx, function))
            if not lines:
                continue
            reported.add((function, name.id))
            yield self._finding(ctx, name, lines)

    def _finding(self, ctx, name: ast.Name, lines: list[int]):
        where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
        message = (
            f"'{name.id}' is a module global that is reassigned ({where}); jitted code "
            "reads it once, while tracing, and keeps that value"
        )
        help = f"pass '{name.id}' as an argument (static if it must stay a Python value), or never reassign it"
        return ctx.finding(self.code, name, message, help)


def _outermost(ctx, function):
    """The module-level def a traced function is nested in (its def line is when it exists)."""
    parent = ctx.index.parent_function.get(function)
    while parent is not None:
        function, parent = parent, ctx.index.parent_function.get(parent)
    return function


class _Rebinding:
    """Module globals that can hold different values over time: written through `global` in
    a function (at any time), or assigned at module level again *after* a traced function's
    definition. Not counted: imports, defs and classes; `f = jax.jit(f)`-style wrappings of
    the name itself; bindings in exclusive branches (`if`/`else`, `try`/`except`), which
    choose one value once."""

    def __init__(self, ctx):
        index = ctx.index
        self.from_functions: dict[str, list[int]] = {}
        for scope in index.scopes.values():
            for name, kind in scope.declared.items():
                if kind == "global" and scope.bound.get(name):
                    self.from_functions.setdefault(name, []).extend(node.lineno for node in scope.bound[name])
        self.module: dict[str, list[ast.AST]] = {}
        for name, nodes in index.module.bound.items():
            if any(isinstance(node, NOT_VARIABLES) for node in nodes):
                continue
            values = [node for node in nodes if not _wraps_itself(node, name)]
            if values and (len(values) > 1 or name in self.from_functions):
                self.module[name] = values
        self.candidates = set(self.module) | {n for n in self.from_functions if n in index.module.bound}
        self._branches = _branch_paths(index.tree) if self.module else {}

    def after(self, name: str, function) -> list[int]:
        """Lines that rebind `name` once `function` is defined (and may have been traced)."""
        lines = set(self.from_functions.get(name, ()))
        nodes = self.module.get(name, [])
        defined = function.lineno if function is not None else 0
        for node in nodes:
            if node.lineno <= defined:
                continue
            earlier = [other for other in nodes if other.lineno < node.lineno]
            if any(not self._exclusive(other, node) for other in earlier) or name in self.from_functions:
                lines.add(node.lineno)
        return sorted(lines)

    def _exclusive(self, first: ast.AST, second: ast.AST) -> bool:
        one, two = self._branches.get(id(first), ()), self._branches.get(id(second), ())
        return any(a[0] == b[0] and a[1] != b[1] for a, b in zip(one, two))


def _wraps_itself(node: ast.AST, name: str) -> bool:
    """`f = jax.jit(f)`, `f = partial(jax.jit, ...)(f)`: the same function, wrapped."""
    value = getattr(node, "value", None)
    if not isinstance(value, ast.Call):
        return False
    return any(isinstance(arg, ast.Name) and arg.id == name for arg in value.args)


def _branch_paths(tree: ast.Module) -> dict[int, tuple[tuple[int, int], ...]]:
    """For each module-level statement: the (if/try statement, branch number) path to it."""
    paths: dict[int, tuple[tuple[int, int], ...]] = {}
    pending: list[tuple[list[ast.stmt], tuple]] = [(tree.body, ())]
    while pending:
        body, path = pending.pop()
        for statement in body:
            paths[id(statement)] = path
            if isinstance(statement, ast.If):
                pending.append((statement.body, (*path, (id(statement), 0))))
                pending.append((statement.orelse, (*path, (id(statement), 1))))
            elif isinstance(statement, (ast.Try, getattr(ast, "TryStar", ast.Try))):
                pending.append((statement.body + statement.orelse, (*path, (id(statement), 0))))
                for number, handler in enumerate(statement.handlers, start=1):
                    pending.append((handler.body, (*path, (id(statement), number))))
                pending.append((statement.finalbody, path))
            elif isinstance(statement, (ast.For, ast.While, ast.With, ast.AsyncFor, ast.AsyncWith)):
                pending.append((statement.body + getattr(statement, "orelse", []), path))
    return paths


NOT_VARIABLES = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
