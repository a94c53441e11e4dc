"""TP101: Python control flow (`if`, `elif`, `while`, `x if c else y`, `assert`) on a traced value."""

from __future__ import annotations

import ast

from ..codes import Code, HazardKind
from ..edits import call_of
from ..model import Applicability, Fix
from .base import Example, Rule
from .traced import lax_name, tnp_available, tnp_name, traced_finding

LABELS = {
    HazardKind.IF: "'if'",
    HazardKind.ELIF: "'elif'",
    HazardKind.WHILE: "'while'",
    HazardKind.IFEXP: "conditional expression",
    HazardKind.ASSERT: "'assert'",
    HazardKind.COMPIF: "comprehension 'if'",
    HazardKind.MATCH: "'case' (comparing the 'match' subject)",
}


class TracedControlFlow(Rule):
    code = Code.TP101
    reports = frozenset(LABELS)
    name = "traced-control-flow"
    summary = "`if`/`elif`/`while`/conditional expression/`assert` on a traced value"
    fix = "sometimes"
    what_it_does = """
        Checks for Python control flow in jitted code whose condition depends on the *value*
        of a traced (non-static) argument: `if`, `elif`, `while`, `a if c else b`, `assert`,
        the `if` of a comprehension and `match`. The data flow is followed through
        assignments, loops, tuple unpacking and calls to helpers in the same module.
    """
    why_bad = """
        While tracing, non-static arguments are tracers: they have a shape and a dtype but no
        value, so Python cannot decide which way to go and tracing fails with
        `ConcretizationError` on the first call, often deep inside a long job. Branching on
        `x.shape`, `x.ndim`, `x.dtype`, `len(x)`, `isinstance` or `x is None` is fine.

        When the value is a plain scalar argument, the fix is to make it static (the function
        is then compiled once per distinct value); this is an unsafe fix because it changes
        when compilation happens. When it depends on array data, use `lax.cond`,
        `lax.while_loop` or `tnp.where`.
    """
    example = """
        import transpile as tp

        @tp.jit
        def f(x, n):
            if n > 0:
                return 3 * x**3 + 2 * x**2 + n
            return 2 * x - n
    """
    use_instead = """
        from functools import partial

        import transpile as tp

        @partial(tp.jit, static_argnames=['n'])
        def f(x, n):
            if n > 0:
                return 3 * x**3 + 2 * x**2 + n
            return 2 * x - n
    """
    valid = (
        """
        import transpile as tp

        @tp.jit
        def log2_if_rank_2(x):
            if x.ndim == 2:
                return x
            elif x.shape[0] > 3 and len(x) > 1:
                return x * 2
            return x
        """,
        """
        import transpile as tp

        @tp.jit
        def maybe(x, y=None):
            if y is None or isinstance(y, float):
                return x
            assert x.dtype == y.dtype, "dtypes differ"
            return x + y
        """,
        """
        import transpile as tp

        def f(x, n):
            if n > 0:  # never jitted: plain Python
                return x
            return -x
        """,
        """
        import transpile as tp

        def g(x, n):
            i = 0
            while i < n:
                i += 1
            return x + i

        g_jit = tp.jit(g, static_argnames=['n'])
        """,
        """
        from functools import partial

        import transpile as tp

        class Model:
            def __init__(self, depth):
                self.depth = depth

            @partial(tp.jit, static_argnums=0)
            def apply(self, x):
                if self.depth > 2:
                    return x * 2
                return x
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            def f(x):
                if x > 0:
                    return x
                return 2 * x

            f_jit = tp.jit(f)
            """,
            line=4,
            contains=("'if' depends on the value of traced argument 'x'", "tp.jit(f, static_argnames=['x'])"),
            fixed="""
            import transpile as tp

            def f(x):
                if x > 0:
                    return x
                return 2 * x

            f_jit = tp.jit(f, static_argnames=['x'])
            """,
        ),
        Example(
            """
            import transpile as tp

            def g(x, n):
                i = 0
                while i < n:
                    i += 1
                return x + i

            g_jit = tp.jit(g)
            """,
            line=5,
            contains=("'while' depends on the value of traced argument 'n'",),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def relu_sum(x):
                total = tnp.sum(x)
                if total > 0:
                    return x
                return -x
            """,
            line=7,
            contains=("traced argument 'x'", "lax.cond"),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def pick(x, y):
                return x if y > 0 else -x
            """,
            line=5,
            contains=("conditional expression", "'y'", "static_argnames=['y']"),
            fixed="""
            import transpile as tp
            from functools import partial

            @partial(tp.jit, static_argnames=['y'])
            def pick(x, y):
                return x if y > 0 else -x
            """,
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            def helper(v):
                if v > 1:
                    return v
                return v + 1

            @tp.jit
            def outer(x):
                return helper(x[0])
            """,
            line=5,
            contains=("in 'helper', called from jitted 'outer'", "traced argument 'x'"),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x, n):
                for row in x:
                    a, b = row, n
                    if b > 2:
                        return a
                return x
            """,
            line=7,
            contains=("traced argument 'n'",),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def clip(x):
                m = tnp.max(x)
                return x if m > 1 else x * 0
            """,
            line=7,
            contains=("tnp.where",),
            fixed="""
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def clip(x):
                m = tnp.max(x)
                return tnp.where(m > 1, x, x * 0)
            """,
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x, n):
                assert n > 0
                return x
            """,
            line=5,
            contains=("'assert' depends on the value of traced argument 'n'",),
        ),
    )

    def check(self, ctx):
        for hazard in ctx.facts.of_kinds(self.reports):
            yield self._finding(ctx, hazard)

    def _finding(self, ctx, hazard):
        node = hazard.node
        anchor = node.test if isinstance(node, ast.IfExp) else node
        problem = f"{LABELS[hazard.kind]} depends on the value of"
        data_help, data_fix = self._data_advice(ctx, hazard)
        return traced_finding(ctx, self.code, hazard, anchor, problem, data_help, data_fix)

    def _data_advice(self, ctx, hazard):
        kind = hazard.kind
        if kind is HazardKind.WHILE:
            return f"use {lax_name(ctx, 'while_loop')}(cond_fn, body_fn, init_val)", None
        if kind is HazardKind.ASSERT:
            return "check the value outside the jitted function; traced code cannot stop on a value", None
        where = tnp_name(ctx, "where")
        if kind is HazardKind.IFEXP:
            return f"use {where}(cond, a, b), which selects elementwise", self._where_fix(ctx, hazard.node, where)
        return f"use {lax_name(ctx, 'cond')}(pred, true_fn, false_fn, *operands) or {where}(pred, a, b)", None

    def _where_fix(self, ctx, node: ast.IfExp, where: str) -> Fix | None:
        if not tnp_available(ctx):
            return None
        edit = ctx.replace_edit(node, call_of(ctx, where, node.test, node.body, node.orelse))
        # Unsafe: both branches are evaluated, and their shapes must broadcast.
        return Fix(Applicability.UNSAFE, f"replace with {where}(...)", (edit,))
