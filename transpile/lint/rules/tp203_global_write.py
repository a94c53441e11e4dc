"""TP203: jitted code assigning to a `global` or `nonlocal` name."""

from __future__ import annotations

import ast

from ..codes import Code
from .base import Example, Rule
from .scoping import WRITES, assignment_targets, target_names


class GlobalWrite(Rule):
    code = Code.TP203
    name = "trace-time-global-write"
    summary = "jitted code writes a `global`/`nonlocal` variable"
    what_it_does = """
        Checks for assignments, augmented assignments, `for` targets and `del` of names that
        jitted code (or a helper it runs) declares `global` or `nonlocal`.
    """
    why_bad = """
        The write happens while tracing, once per compilation, not on each call; counters stop
        counting after the first call, and a tracer stored in a global outlives its trace.
    """
    example = """
        import transpile as tp

        calls = 0

        @tp.jit
        def f(x):
            global calls
            calls += 1
            return x * 2
    """
    use_instead = """
        import transpile as tp

        calls = 0

        @tp.jit
        def f(x):
            return x * 2

        # calls += 1 next to each call of f
    """
    valid = (
        """
        import transpile as tp

        counter = 0

        def bump():
            global counter
            counter += 1  # not traced

        @tp.jit
        def f(x):
            return x + counter
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            def outer():
                last = None

                @tp.jit
                def g(x):
                    nonlocal last
                    last = x
                    return x

                return g
            """,
            line=9,
            contains=("write to nonlocal 'last'",),
        ),
    )

    def check(self, ctx):
        declared: dict[object, dict[str, str]] = {}
        for node, function in ctx.traced_code.of(ast.Global, ast.Nonlocal):
            kind = "global" if isinstance(node, ast.Global) else "nonlocal"
            for name in node.names:
                declared.setdefault(function, {})[name] = kind
        for node, function in ctx.traced_code.of(*WRITES):
            names = declared.get(function, {})
            for target in assignment_targets(node):
                for name in target_names(target):
                    if name.id in names:
                        yield self._finding(ctx, name, names[name.id])

    def _finding(self, ctx, name: ast.Name, kind: str):
        message = f"write to {kind} '{name.id}' happens once, while tracing, not on every call"
        help = f"return the new value from the jitted function and assign '{name.id}' outside it"
        return ctx.finding(self.code, name, message, help)
