"""TP201: `print` in jitted code runs once, at trace time."""

from __future__ import annotations

import ast

from ..astwalk import nodes_of
from ..codes import Code, HazardKind
from ..model import Applicability, Fix
from .base import Example, Rule

PRINTERS = frozenset({"builtins.print", "pprint.pprint", "pprint.pp"})


class TracePrint(Rule):
    code = Code.TP201
    reports = frozenset({HazardKind.LOG, HazardKind.PRINT})
    name = "trace-time-print"
    summary = "`print` inside jitted code runs only while tracing"
    fix = "unsafe"
    what_it_does = """
        Checks for `print` (and `pprint.pprint`) in jitted functions and in the helpers and
        `lax` bodies they run, and for `logging` calls (module functions or a logger's
        methods) given a traced value. A log message without one is a deliberate trace-time
        message and is left alone, as is a print of static values under an `if` (a warning
        about shapes or settings, meant to show while tracing).
    """
    why_bad = """
        Python side effects happen while tracing, not when the compiled code runs: the print
        fires on the first call for each new signature and then never again, and it shows
        tracers (`Traced<f64[]>`), not values. Print the result outside the jitted function.
        The fix turns it into `jax.debug.print` (`transpile.debug.print` under `transpile.jit`),
        which prints the values each time the compiled code runs; it is unsafe because the
        output changes. A print the fix cannot express (`sep=`, `file=`) is left alone.
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
        """
        import transpile as tp

        @tp.jit
        def f(x, limit=8):
            if x.shape[0] > limit:  # a warning about static values, meant for trace time
                print(f"f: {x.shape} is longer than {limit}")
            return x + 1
        """,
    )
    invalid = (
        Example(
            """
            import logging
            import jax

            @jax.jit
            def f(x):
                logging.info("x = %s", x)
                return x + 1
            """,
            line=6,
            contains=("'logging.info' runs once, while tracing", "jax.debug.print"),
        ),
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
                tp.debug.print('{}', y)
                return y
            """,
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x):
                if x.ndim == 0:
                    print(f"x = {x:.3f}")
                return x
            """,
            line=6,
            fixed="""
            import transpile as tp

            @tp.jit
            def f(x):
                if x.ndim == 0:
                    tp.debug.print('x = {:.3f}', x)
                return x
            """,
        ),
    )

    def check(self, ctx):
        printed_tracers = {id(hazard.node) for hazard in ctx.facts.of_kinds(frozenset({HazardKind.PRINT}))}
        for call, function in ctx.traced_code.of(ast.Call):
            if ctx.names.qualified(call.func, function) not in PRINTERS:
                continue
            if id(call) not in printed_tracers and _under_an_if(call, function):
                continue  # a message about static values on a static condition: a trace-time warning
            yield self._finding(ctx, call, function)
        for hazard in ctx.facts.of_kinds(frozenset({HazardKind.LOG})):
            yield self._log_finding(ctx, hazard)

    def _log_finding(self, ctx, hazard):
        # Logging without a traced argument (`logging.info("compiling")`) is a deliberate
        # trace-time message; with one, it logs a tracer once instead of values per call.
        function = next(iter(hazard.functions))
        message = f"'{hazard.detail}' runs once, while tracing, and logs tracers rather than values"
        help = f"use {_debug_printer(ctx, function)}(fmt, *args) for run-time values, or log the jitted function's result"
        return ctx.finding(self.code, hazard.node, message, help)

    def _finding(self, ctx, call: ast.Call, function):
        message = "'print' runs once, while tracing, and shows tracers rather than values"
        printer = _debug_printer(ctx, function)
        spelled = ctx.names.spelling(printer)
        fmt_args = _format_call(ctx, call)
        if spelled is None or fmt_args is None:
            help = f"use {printer}(fmt, *args), which prints values when the compiled code runs"
            return ctx.finding(self.code, call, message, help)
        replacement = f"{spelled}({fmt_args})"
        help = f"use {replacement}, which prints the values when the compiled code runs"
        # Unsafe: the output changes from tracers once per compile to values on every call.
        fix = Fix(Applicability.UNSAFE, f"replace with {spelled}(...)", (ctx.replace_edit(call, replacement),))
        return ctx.finding(self.code, call, message, help, fix)


def _under_an_if(call: ast.Call, function) -> bool:
    """Whether `call` sits in an `if` statement's branches inside `function`."""
    for branch in nodes_of(function, ast.If):
        for statement in (*branch.body, *branch.orelse):
            if statement.lineno <= call.lineno <= (statement.end_lineno or statement.lineno) and any(
                node is call for node in ast.walk(statement)
            ):
                return True
    return False


def _debug_printer(ctx, function) -> str:
    """`transpile.debug.print` when only transpile's jit runs this code, else JAX's."""
    roots = ctx.facts.traced.get(function, set())
    packages = set()
    for root in roots:
        site = ctx.sites.sites[root]
        scope = site.call.function if site.call is not None else None
        packages.add((ctx.names.qualified(site.jit_expr, scope) or "").split(".", 1)[0])
    return "transpile.debug.print" if packages == {"transpile"} else "jax.debug.print"


def _format_call(ctx, call: ast.Call) -> str | None:
    """The arguments of the equivalent debug print: `"x={} y={}", x, y` for `print(f"x={x}", y)`;
    None when print is given what a format string cannot say (sep=, file=, *args)."""
    if call.keywords or any(isinstance(arg, ast.Starred) for arg in call.args):
        return None
    pieces: list[str] = []
    values: list[str] = []
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            pieces.append(_escape(arg.value))
        elif isinstance(arg, ast.JoinedStr):
            piece = _joined(ctx, arg, values)
            if piece is None:
                return None
            pieces.append(piece)
        else:
            pieces.append("{}")
            values.append(ctx.code(arg))
    return ", ".join([repr(" ".join(pieces)), *values])


def _joined(ctx, joined: ast.JoinedStr, values: list[str]) -> str | None:
    text = []
    for part in joined.values:
        if isinstance(part, ast.Constant):
            text.append(_escape(str(part.value)))
            continue
        spec = ""
        if part.format_spec is not None:
            if not all(isinstance(p, ast.Constant) for p in part.format_spec.values):
                return None
            spec = ":" + "".join(str(p.value) for p in part.format_spec.values)
        conversion = {115: "!s", 114: "!r", 97: "!a"}.get(part.conversion, "")
        text.append("{" + conversion + spec + "}")
        values.append(ctx.code(part.value))
    return "".join(text)


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
