"""TP403: a Python loop in jitted code that unrolls over a large static range."""

from __future__ import annotations

import libcst as cst

from ..fastwalk import FastWalker
from ..jitsites import literal_int
from .base import Example, Rule
from .traced import lax_name

# Operators a static trip count may be computed with.
_OPERATORS = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.FloorDivide: lambda a, b: a // b if b else None,
    cst.Power: lambda a, b: a**b if 0 <= b < 64 else None,
}


class LargeUnroll(Rule):
    code = "TP403"
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
            finder = _LoopFinder(ctx, limit)
            finder.walk(function.body)
            for node, counts in finder.found:
                yield self._finding(ctx, node, counts, limit)

    def _finding(self, ctx, node, counts: list[int], limit: int):
        total = 1
        for count in counts:
            total *= count
        nest = f" ({' x '.join(map(str, counts))})" if len(counts) > 1 else ""
        message = f"this loop unrolls {total} times{nest} while tracing (max-unroll is {limit}); compile time grows with every iteration"
        help = f"use {lax_name(ctx, 'fori_loop')}(lower, upper, body_fn, init_val), which compiles the body once"
        return ctx.finding(self.code, node, message, help)


class _LoopFinder(FastWalker):
    """Tracks the static trip counts of enclosing loops; reports the loop that crosses the limit."""

    def __init__(self, ctx, limit: int):
        self.ctx = ctx
        self.limit = limit
        self.counts: list[int] = []
        self.found: list[tuple[cst.CSTNode, list[int]]] = []

    # Nested code runs (and is listed) on its own, if at all.
    def _skip(self, node) -> bool:
        return False

    enter_FunctionDef = enter_Lambda = enter_ClassDef = _skip

    def enter_For(self, node: cst.For) -> None:
        self._enter(node, node.iter)

    def leave_For(self, node: cst.For) -> None:
        self.counts.pop()

    def enter_CompFor(self, node: cst.CompFor) -> None:
        self._enter(node, node.iter)

    def leave_CompFor(self, node: cst.CompFor) -> None:
        self.counts.pop()

    def _enter(self, node: cst.CSTNode, iterable: cst.BaseExpression) -> None:
        count = trip_count(self.ctx, iterable)
        before = _product(self.counts)
        self.counts.append(count if count is not None else 1)
        if count is not None and before <= self.limit < before * count:
            shown = [c for c in self.counts if c > 1] or [count]
            self.found.append((node, shown))


def _product(counts: list[int]) -> int:
    total = 1
    for count in counts:
        total *= count
    return total


def trip_count(ctx, iterable: cst.BaseExpression) -> int | None:
    if isinstance(iterable, (cst.List, cst.Tuple)):
        return len(iterable.elements)
    if not isinstance(iterable, cst.Call) or ctx.names.builtin(iterable.func) != "range":
        return None
    bounds = [static_int(ctx, arg.value) for arg in iterable.args]
    if not bounds or None in bounds or any(arg.keyword or arg.star for arg in iterable.args):
        return None
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds[:2], bounds[2] if len(bounds) > 2 else 1)
    return len(range(start, stop, step)) if step else None


def static_int(ctx, expr: cst.BaseExpression, depth: int = 0) -> int | None:
    """The value of an int expression built from literals and module constants, if static."""
    if depth > 8:
        return None
    number = literal_int(expr)
    if number is not None:
        return number
    if isinstance(expr, cst.BinaryOperation) and type(expr.operator) in _OPERATORS:
        left = static_int(ctx, expr.left, depth + 1)
        right = static_int(ctx, expr.right, depth + 1)
        if left is None or right is None:
            return None
        return _OPERATORS[type(expr.operator)](left, right)
    if isinstance(expr, cst.Name):
        return _module_constant(ctx, expr, depth)
    return None


def _module_constant(ctx, name: cst.Name, depth: int) -> int | None:
    access = ctx.access(name)
    if access is None or len(access.referents) != 1:
        return None
    (assignment,) = access.referents
    value = ctx.index.value_of.get(getattr(assignment, "node", None))
    if value is None or assignment.scope is not ctx.scopes.get(ctx.module):
        return None
    return static_int(ctx, value, depth + 1)
