"""TP104: `and`/`or`/`not` (or a chained comparison) truth-testing a traced value."""

from __future__ import annotations

import ast

from ..codes import Code, HazardKind
from ..edits import call_of
from ..model import Applicability, Fix
from .base import Example, Rule
from .traced import lax_name, tnp_available, tnp_name, traced_finding

ELEMENTWISE = {HazardKind.AND: "logical_and", HazardKind.OR: "logical_or", HazardKind.NOT: "logical_not"}


class TracedBoolOp(Rule):
    code = Code.TP104
    reports = frozenset({HazardKind.AND, HazardKind.OR, HazardKind.NOT, HazardKind.CHAIN})
    name = "traced-bool-op"
    summary = "`and`/`or`/`not`/chained comparison on a traced value"
    fix = "sometimes"
    what_it_does = """
        Checks for `and`, `or` and `not` whose operand is a traced value, and for chained
        comparisons (`a < x < b`, which Python runs as `(a < x) and (x < b)`), outside the
        test of an `if`/`while` (those are reported as TP101).
    """
    why_bad = """
        `and`, `or` and `not` call `bool()` on their operand, which a tracer cannot answer:
        tracing fails with `ConcretizationError`. On arrays the intent is nearly always the
        elementwise `tnp.logical_and`/`tnp.logical_or`/`tnp.logical_not` (offered as an unsafe
        fix: Python's operators return an operand, the `tnp` functions return booleans).
    """
    example = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def in_range(x):
            return (x[0] > 0) and (x[0] < 1)
    """
    use_instead = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def in_range(x):
            return tnp.logical_and(x[0] > 0, x[0] < 1)
    """
    valid = (
        """
        import transpile as tp

        @tp.jit
        def f(x, y=None):
            use_y = y is not None and x.ndim == 1
            return x + y if use_y else x
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def f(x):
                mask = tnp.isnan(x)
                return not mask
            """,
            line=7,
            contains=("'not' needs the truth value of traced argument 'x'", "tnp.logical_not"),
            fixed="""
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def f(x):
                mask = tnp.isnan(x)
                return tnp.logical_not(mask)
            """,
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x, lo):
                return 0 < lo < 1
            """,
            line=5,
            contains=("chained comparison", "'lo'"),
        ),
    )

    def check(self, ctx):
        for hazard in ctx.facts.of_kinds(self.reports):
            label = "chained comparison" if hazard.kind is HazardKind.CHAIN else f"'{hazard.kind.value}'"
            problem = f"{label} needs the truth value of"
            help, fix = self._data_advice(ctx, hazard)
            yield traced_finding(ctx, self.code, hazard, hazard.node, problem, help, fix, prefer_data=True)

    def _data_advice(self, ctx, hazard) -> tuple[str, Fix | None]:
        if hazard.kind is HazardKind.CHAIN:
            return f"split it: {tnp_name(ctx, 'logical_and')}(a < x, x < b)", None
        function = tnp_name(ctx, ELEMENTWISE[hazard.kind])
        help = f"use {function}(...) for elementwise logic, or {lax_name(ctx, 'cond')} to branch"
        if not tnp_available(ctx):
            return help, None
        node = hazard.node
        if isinstance(node, ast.UnaryOp):
            replacement = call_of(ctx, function, node.operand)
        elif len(node.values) == 2:
            replacement = call_of(ctx, function, *node.values)
        else:
            return help, None
        edit = ctx.replace_edit(node, replacement)
        return help, Fix(Applicability.UNSAFE, f"replace with {function}(...)", (edit,))
