"""TP201: `print` in jitted code runs once, at trace time."""

from __future__ import annotations

import ast

from ..model import Applicability, Fix
from .base import Example, Rule

PRINTERS = frozenset({"builtins.print", "pprint.pprint", "pprint.pp"})


class TracePrint(Rule):
    code = "TP201"
    name = "trace-time-print"
    summary = "`print` inside jitted code runs only while tracing"
    fix = "unsafe"
    what_it_does = """
        Checks for `print` (and `pprint.pprint`) in jitted functions and in the helpers and
        `lax` bodies they run.
    """
    why_bad = """
        Python side effects happen while tracing, not when the compiled code runs: the print
        fires on the first call for each new signature and then never again, and it shows
        tracers (`Traced<f64[]>`), not values. Print the result outside the jitted function.
        The fix deletes the call; it is unsafe because output disappears.
    """
    example = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def dotproduct(x, y):
            print("Inside dotproduct")
            return tnp.dot(x, y)
    """
    use_instead = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def dotproduct(x, y):
            return tnp.dot(x, y)

        # print(dotproduct(a, b)) outside, where values exist
    """
    valid = (
        """
        import transpile as tp

        def report(x):
            print(x)  # not jitted

        @tp.jit
        def f(x):
            return x + 1
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            def log(v):
                print("value", v)

            @tp.jit
            def f(x):
                log(x)
                print(f"x={x}")
                return x + 1
            """,
            line=4,
            contains=("'print' runs once, while tracing",),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x):
                y = x + 1
                print(y)
                return y
            """,
            line=6,
            fixed="""
            import transpile as tp

            @tp.jit
            def f(x):
                y = x + 1
                return y
            """,
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x):
                if x.ndim == 0:
                    print(x)
                return x
            """,
            line=6,
            fixed="""
            import transpile as tp

            @tp.jit
            def f(x):
                if x.ndim == 0:
                    pass
                return x
            """,
        ),
    )

    def check(self, ctx):
        statements = {id(line.value): line for line, _ in ctx.traced_code.of(ast.Expr)}
        for call, function in ctx.traced_code.of(ast.Call):
            if ctx.names.qualified(call.func, function) in PRINTERS:
                yield self._finding(ctx, call, statements.get(id(call)))

    def _finding(self, ctx, call: ast.Call, line: ast.Expr | None):
        message = "'print' runs once, while tracing, and shows tracers rather than values"
        help = "print the jitted function's result outside it instead"
        fix = self._delete(ctx, call, line) if line is not None else None
        return ctx.finding(self.code, call, message, help, fix)

    def _delete(self, ctx, call: ast.Call, line: ast.Expr) -> Fix:
        alone = ctx.line_text(line.lineno).strip() == ctx.code(line) and line.lineno == line.end_lineno
        if ctx.index.block_sizes.get(line, 1) <= 1 or not alone:
            edit = ctx.replace_edit(call, "pass")  # the block must keep a statement
        else:
            edit = ctx.lines_edit(line.lineno, line.end_lineno)
        return Fix(Applicability.UNSAFE, "remove the print", (edit,))
