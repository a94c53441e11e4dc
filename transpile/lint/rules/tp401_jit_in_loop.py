"""TP401: `tp.jit(lambda ...)` or `tp.jit(partial(...))` in a loop or a function body."""

from __future__ import annotations

import ast

from ..codes import Code
from ..model import Applicability, Fix
from ..jitsites import is_transform
from ..resolve import function_name
from .base import Example, Rule


class JitOfFreshFunction(Rule):
    code = Code.TP401
    name = "jit-of-fresh-function"
    summary = "`jit` of a new lambda/partial/transformed function on every pass of a loop"
    fix = "sometimes"
    what_it_does = """
        Checks for `tp.jit(lambda ...)` and `tp.jit(partial(...))` inside a loop (at any
        level, comprehensions included), or inside a function that a loop of the module calls
        (directly or through other functions). A function body that runs once (a factory, a
        script's `main`, a test) builds its jit object once and is not reported.
    """
    why_bad = """
        The jit cache is keyed on the function object. A `lambda` or `partial` expression makes
        a new object every time it runs, so each call misses the cache and traces (and, without
        the disk cache, compiles) again: the seeds measure this at about 10x slower. Define the
        function once and jit it once, outside the loop. When the lambda only forwards its
        arguments (`lambda x: f(x)`) or the partial binds nothing (`partial(f)`), the safe fix
        jits `f` itself.
    """
    example = """
        import transpile as tp

        def body(i):
            return i + 1

        def run(n):
            i = 0
            while i < n:
                i = tp.jit(lambda v: body(v))(i)
            return i
    """
    use_instead = """
        import transpile as tp

        def body(i):
            return i + 1

        body_jit = tp.jit(body)

        def run(n):
            i = 0
            while i < n:
                i = body_jit(i)
            return i
    """
    valid = (
        """
        import transpile as tp
        from functools import partial

        def body(i, k):
            return i + k

        step = tp.jit(partial(body, k=2))
        inc = tp.jit(lambda v: v + 1)

        def make_step(k):
            return tp.jit(partial(body, k=k))  # a factory: runs once per configuration

        def run(n):
            for _ in range(n):
                n = step(n)
            return tp.jit(body)(n, 1)
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp
            from functools import partial

            def body(i):
                return i + 1

            def run(x, n):
                i = 0
                while i < n:
                    i = tp.jit(partial(body))(i)
                return x + i
            """,
            line=10,
            contains=("'tp.jit(partial(...))' inside a loop",),
            fixed="""
            import transpile as tp
            from functools import partial

            def body(i):
                return i + 1

            def run(x, n):
                i = 0
                while i < n:
                    i = tp.jit(body)(i)
                return x + i
            """,
            unsafe=False,
        ),
        Example(
            """
            import transpile as tp

            for k in range(3):
                f = tp.jit(lambda x: x * k)
            """,
            line=4,
            contains=("inside a loop",),
        ),
        Example(
            """
            import transpile as tp

            def apply(x, scale):
                return tp.jit(lambda v: v * scale)(x)

            def run(xs):
                return [apply(x, 2.0) for x in xs]
            """,
            line=4,
            contains=("inside 'apply'", "each call of 'apply'"),
        ),
    )

    def check(self, ctx):
        hot: dict[str, int] | None = None
        for site in ctx.sites.sites:
            call = site.call
            if call is None or not (call.in_loop or call.function is not None):
                continue
            kind = self._fresh_kind(ctx, site.target_expr, call.function)
            if kind is None:
                continue
            loop_line = None
            if not call.in_loop:
                # A function body that runs once (a factory, a test, a script's main) builds
                # its jit object once: only one that runs again and again is a hazard.
                hot = hot if hot is not None else repeatedly_called(ctx.index)
                loop_line = _enclosing_hot_line(ctx.index, call.function, hot)
                if loop_line is None or _built_per_pass_by_design(ctx.index, site.target_expr, call.function):
                    continue
            yield self._finding(ctx, site, kind, loop_line)

    @staticmethod
    def _fresh_kind(ctx, expr, function) -> str | None:
        if isinstance(expr, ast.Lambda):
            return "lambda"
        if isinstance(expr, ast.Call) and ctx.names.is_partial(expr.func, function):
            return "partial"
        if isinstance(expr, ast.Call) and is_transform(ctx.names.qualified(expr.func, function)):
            return ctx.code(expr.func)  # jax.jit(jax.grad(f)): grad makes a new function each time
        return None

    def _finding(self, ctx, site, kind: str, loop_line: int | None):
        call = site.call
        shown = f"{ctx.code(site.jit_expr)}({kind}{' ...' if kind == 'lambda' else '(...)'})"
        if call.in_loop:
            where, why = "inside a loop", "each pass"
        else:
            outer = function_name(call.function)
            where = f"inside '{outer}'"
            why = f"each call of '{outer}' (called repeatedly, from the loop on line {loop_line})"
        message = f"'{shown}' {where} makes a new function on {why}, so every call traces and compiles again"
        direct = _direct_function(site.target_expr) if kind in ("lambda", "partial") else None
        if direct is not None:
            help = f"jit '{ctx.code(direct)}' itself: the cache is keyed on the function object"
            edit = ctx.replace_edit(site.target_expr, ctx.code(direct))
            return ctx.finding(self.code, call.node, message, help, Fix(Applicability.SAFE, help, (edit,)))
        help = "define the function once and jit it once, outside the loop or function (e.g. at module level)"
        if kind not in ("lambda", "partial"):
            help = f"jit '{ctx.code(site.target_expr)}' once, outside the loop or function, and call that"
        return ctx.finding(self.code, call.node, message, help)


def _direct_function(expr) -> ast.expr | None:
    """`f` for `partial(f)` and for `lambda a, b: f(a, b)`; None when that is not equivalent."""
    if isinstance(expr, ast.Call):
        plain = len(expr.args) == 1 and not expr.keywords and not isinstance(expr.args[0], ast.Starred)
        return expr.args[0] if plain else None
    if not isinstance(expr, ast.Lambda) or not isinstance(expr.body, ast.Call):
        return None
    args = expr.args
    if args.posonlyargs or args.kwonlyargs or args.kwarg or args.vararg or args.defaults:
        return None
    names = [param.arg for param in args.args]
    body = expr.body
    passed = [arg.id if isinstance(arg, ast.Name) else None for arg in body.args]
    if body.keywords or passed != names or not isinstance(body.func, (ast.Name, ast.Attribute)):
        return None
    if _mentions(body.func, set(names)):
        return None
    return body.func


def _mentions(expr: ast.expr, names: set[str]) -> bool:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id in names


def repeatedly_called(index) -> dict[str, int]:
    """Names of functions that run again and again: called inside a loop or a comprehension
    anywhere in the module, or called from such a function (to a fixed point). Maps each
    name to the line of the loop that drives it."""
    calls = index.calls_on_lines(set(range(1, (index.tree.body[-1].end_lineno or 1) + 1))) if index.tree.body else []
    callees_of: dict[str, set[str]] = {}
    hot: dict[str, int] = {}
    for call in calls:
        name = _called_name(call.node.func)
        if name is None:
            continue
        if call.in_loop:
            hot.setdefault(name, (call.loop or call.node).lineno)
        if call.function is not None:
            callees_of.setdefault(function_name(call.function), set()).add(name)
    pending = list(hot)
    while pending:
        caller = pending.pop()
        for name in callees_of.get(caller, ()):
            if name not in hot:
                hot[name] = hot[caller]
                pending.append(name)
    return hot


def _built_per_pass_by_design(index, target: ast.expr, factory) -> bool:
    """A factory whose jitted function captures one of its parameters, called from loops that
    pass that parameter a value set on each pass (an autotuning sweep: `for cfg in configs:
    run(build(config=cfg))`): each pass needs a different function, and so a compilation."""
    if isinstance(factory, ast.Lambda):
        return False
    params = {p.arg for p in (*factory.args.posonlyargs, *factory.args.args, *factory.args.kwonlyargs)}
    kwarg = factory.args.kwarg.arg if factory.args.kwarg is not None else None
    mentioned = {node.id for node in ast.walk(target) if isinstance(node, ast.Name)}
    captured = mentioned & (params | {kwarg})
    calls = [
        call for call in index.calls_on_lines(_lines_of_loops(index))
        if call.in_loop and _called_name(call.node.func) == factory.name
    ]  # fmt: skip
    if not captured or not calls:
        return False
    positional = [p.arg for p in (*factory.args.posonlyargs, *factory.args.args)]
    for call in calls:
        if not isinstance(call.loop, (ast.For, ast.AsyncFor, ast.While)):
            return False
        varying = _names_set_in(call.loop)
        given: dict[str, list[ast.expr]] = {name: [arg] for name, arg in zip(positional, call.node.args)}
        for keyword in call.node.keywords:
            name = keyword.arg if keyword.arg in params else kwarg  # `**kwargs` takes the rest
            if name is not None:
                given.setdefault(name, []).append(keyword.value)
        if not any(_mentions_any(arg, varying) for name in captured for arg in given.get(name, ())):
            return False
    return True


def _lines_of_loops(index) -> set[int]:
    lines: set[int] = set()
    for holder in index.holders:
        if holder.loop is not None:
            lines.update(range(holder.node.lineno, (holder.node.end_lineno or holder.node.lineno) + 1))
    return lines


def _names_set_in(loop: ast.AST) -> set[str]:
    """Names a loop (re)binds on each pass: its target and what its body assigns."""
    found: set[str] = set()
    for node in ast.walk(loop):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
    return found


def _mentions_any(expr: ast.expr, names: set[str]) -> bool:
    return any(isinstance(node, ast.Name) and node.id in names for node in ast.walk(expr))


def _enclosing_hot_line(index, function, hot: dict[str, int]) -> int | None:
    """The driving loop's line when `function` (or a def it is nested in) runs repeatedly."""
    while function is not None:
        line = hot.get(function_name(function))
        if line is not None:
            return line
        function = index.parent_function.get(function)
    return None


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None
