"""TP403: a Python loop in jitted code that unrolls over a large static range."""

from __future__ import annotations

import ast

from ..codes import Code
from ..index import COMPREHENSIONS
from ..jitsites import literal_int
from .base import Example, Rule
from .traced import lax_name

# Operators a static trip count may be computed with.
_OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b if b else None,
    ast.Pow: lambda a, b: a**b if 0 <= b < 64 else None,
}


class LargeUnroll(Rule):
    code = Code.TP403
    name = "large-unrolled-loop"
    summary = "Python loop in jitted code unrolls over more than `max-unroll` iterations"
    options = ("max-unroll (default 100): the largest trip count allowed, loops nested included",)
    what_it_does = """
        Checks for `for` loops and comprehensions in jitted code over a `range()` (or literal
        sequence) whose length is known statically and larger than `max-unroll`, counting the
        iterations of enclosing loops too (a 20 x 20 nest unrolls 400 times).
    """
    why_bad = """
        Tracing runs Python loops, so the compiled program contains one copy of the body per
        iteration: trace time, compile time and code size grow with the trip count.
        `lax.fori_loop` keeps the loop in the compiled code and compiles the body once.
    """
    example = """
        import transpile as tp

        @tp.jit
        def smooth(x):
            for _ in range(1000):
                x = 0.5 * (x + x**2)
            return x
    """
    use_instead = """
        import transpile as tp
        from transpile import lax

        @tp.jit
        def smooth(x):
            return lax.fori_loop(0, 1000, lambda i, v: 0.5 * (v + v**2), x)
    """
    valid = (
        """
        import transpile as tp

        @tp.jit
        def f(x):
            for i in range(10):
                for j in range(10):
                    x = x + i * j
            return x
        """,
        """
        import transpile as tp

        def f(x):
            for i in range(10**6):  # not jitted
                x = x + i
            return x
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            STEPS = 50

            @tp.jit
            def f(x):
                for i in range(STEPS):
                    for j in range(2 * STEPS):
                        x = x + i * j
                return x
            """,
            line=8,
            contains=("unrolls 5000 times", "50 x 100", "lax.fori_loop"),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x):
                return sum(x * k for k in range(0, 30, 2))
            """,
            line=5,
            contains=("unrolls 15 times",),
            max_unroll=10,
        ),
    )

    def check(self, ctx):
        limit = ctx.config.max_unroll
        for function in ctx.facts.traced:
            if not self._may_exceed(ctx, function, limit):
                continue  # even every loop nested in every other stays under the limit
            finder = _LoopFinder(ctx, limit, function)
            body = function.body if isinstance(function.body, list) else [function.body]
            for statement in body:
                finder.walk(statement)
            for node, counts in finder.found:
                yield self._finding(ctx, node, counts, limit)

    @staticmethod
    def _may_exceed(ctx, function, limit: int) -> bool:
        total = 1
        for loop in ctx.traced_code.in_function(function, ast.For, ast.AsyncFor):
            total *= trip_count(ctx, loop.iter, function) or 1
        for comprehension in ctx.traced_code.in_function(function, *COMPREHENSIONS):
            for generator in comprehension.generators:
                total *= trip_count(ctx, generator.iter, function) or 1
        return total > limit

    def _finding(self, ctx, node, counts: list[int], limit: int):
        total = 1
        for count in counts:
            total *= count
        nest = f" ({' x '.join(map(str, counts))})" if len(counts) > 1 else ""
        message = f"this loop unrolls {total} times{nest} while tracing (max-unroll is {limit}); compile time grows with every iteration"
        help = f"use {lax_name(ctx, 'fori_loop')}(lower, upper, body_fn, init_val), which compiles the body once"
        return ctx.finding(self.code, node, message, help)


class _LoopFinder:
    """Tracks the static trip counts of enclosing loops; reports the loop that crosses the limit."""

    def __init__(self, ctx, limit: int, function):
        self.ctx = ctx
        self.limit = limit
        self.function = function
        self.counts: list[int] = []
        self.found: list[tuple[ast.AST, list[int]]] = []

    def walk(self, node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return  # nested code runs (and is listed) on its own, if at all
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.walk(node.iter)
            self._enter(node, node.iter)
            for child in (node.target, *node.body):
                self.walk(child)
            self.counts.pop()
            for child in node.orelse:
                self.walk(child)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self._comprehension(node)
            return
        for child in ast.iter_child_nodes(node):
            self.walk(child)

    def _comprehension(self, node) -> None:
        entered = 0
        for generator in node.generators:
            self.walk(generator.iter)
            self._enter(generator, generator.iter)
            entered += 1
            for condition in generator.ifs:
                self.walk(condition)
        for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
            self.walk(part)
        del self.counts[len(self.counts) - entered :]

    def _enter(self, node: ast.AST, iterable: ast.expr) -> None:
        count = trip_count(self.ctx, iterable, self.function)
        before = _product(self.counts)
        self.counts.append(count if count is not None else 1)
        if count is not None and before <= self.limit < before * count:
            shown = [c for c in self.counts if c > 1] or [count]
            anchor = node.iter if isinstance(node, ast.comprehension) else node
            self.found.append((anchor, shown))


def _product(counts: list[int]) -> int:
    total = 1
    for count in counts:
        total *= count
    return total


def trip_count(ctx, iterable: ast.expr, function) -> int | None:
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return len(iterable.elts)
    if not isinstance(iterable, ast.Call) or ctx.names.builtin(iterable.func, function) != "range":
        return None
    if iterable.keywords or any(isinstance(arg, ast.Starred) for arg in iterable.args):
        return None
    bounds = [static_int(ctx, arg, function) for arg in iterable.args]
    if not bounds or None in bounds:
        return None
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds[:2], bounds[2] if len(bounds) > 2 else 1)
    return len(range(start, stop, step)) if step else None


def static_int(ctx, expr: ast.expr, function, depth: int = 0) -> int | None:
    """The value of an int expression built from literals and module constants, if static."""
    if depth > 8:
        return None
    number = literal_int(expr)
    if number is not None:
        return number
    if isinstance(expr, ast.BinOp) and type(expr.op) in _OPERATORS:
        left = static_int(ctx, expr.left, function, depth + 1)
        right = static_int(ctx, expr.right, function, depth + 1)
        if left is None or right is None:
            return None
        return _OPERATORS[type(expr.op)](left, right)
    if isinstance(expr, ast.Name):
        return _module_constant(ctx, expr, function, depth)
    return None


def _module_constant(ctx, name: ast.Name, function, depth: int) -> int | None:
    owner = function
    while owner is not None:
        if name.id in ctx.index.scope(owner).bound:
            return None
        owner = ctx.index.parent_function.get(owner)
    nodes = ctx.index.module.bound.get(name.id, [])
    if len(nodes) != 1 or not isinstance(nodes[0], ast.Assign) or len(nodes[0].targets) != 1:
        return None
    return static_int(ctx, nodes[0].value, None, depth + 1)
