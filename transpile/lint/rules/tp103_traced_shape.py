"""TP103: `range()` of a traced value, or an array shape / slice bound built from one."""

from __future__ import annotations

from ..codes import Code, HazardKind
from .base import Example, Rule
from .traced import lax_name, traced_finding


class TracedShape(Rule):
    code = Code.TP103
    reports = frozenset({HazardKind.RANGE, HazardKind.SHAPE, HazardKind.SLICE})
    name = "traced-shape"
    summary = "`range(traced)`, or a shape or slice bound computed from a traced value"
    fix = "sometimes"
    what_it_does = """
        Checks for `range()` over a traced value, array constructors and reshapes whose shape
        comes from a traced value (`tnp.zeros(n)`, `tnp.arange(n)`, `x.reshape(n, -1)`), and
        slices with traced bounds (`x[:n]`).
    """
    why_bad = """
        Shapes are part of what a jitted function is compiled for, so they must be known while
        tracing; a loop bound must be a Python int to unroll. A traced value has neither, and
        tracing fails with `ConcretizationError`. Make a scalar argument static, derive sizes
        from `x.shape`, or, for loops, use `lax.fori_loop`, which takes traced bounds.
    """
    example = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def ramp(x, n):
            return x + tnp.arange(n)
    """
    use_instead = """
        from functools import partial

        import transpile as tp
        import transpile.numpy as tnp

        @partial(tp.jit, static_argnames=['n'])
        def ramp(x, n):
            return x + tnp.arange(n)
    """
    valid = (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def f(x):
            out = tnp.zeros(x.shape)
            for i in range(x.shape[0]):
                out = out + x[i]
            return out.reshape(x.shape[0], -1)[: len(x)]
        """,
        """
        import transpile as tp

        @tp.jit
        def total(xs):
            answer = 0
            for x in xs:
                answer += x**2
            return answer
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x, n):
                for i in range(n):
                    x = x + i
                return x
            """,
            line=5,
            contains=("'range()' needs the value of traced argument 'n'", "static_argnames=['n']"),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def f(x):
                for i in range(tnp.sum(x)):
                    x = x + i
                return x
            """,
            line=6,
            contains=("lax.fori_loop",),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def f(x, n):
                return tnp.zeros(n) + x
            """,
            line=6,
            contains=("shape given to 'zeros'", "'n'"),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def head(x, n):
                return x[:n]
            """,
            line=5,
            contains=("slice bounds depend on the value of traced argument 'n'",),
        ),
    )

    def check(self, ctx):
        for hazard in ctx.facts.of_kinds(self.reports):
            problem, help = self._wording(ctx, hazard)
            yield traced_finding(ctx, self.code, hazard, hazard.node, problem, help)

    @staticmethod
    def _wording(ctx, hazard) -> tuple[str, str]:
        if hazard.kind is HazardKind.RANGE:
            return "'range()' needs the value of", f"use {lax_name(ctx, 'fori_loop')}(lower, upper, body_fn, init_val)"
        static_shape = "shapes must be known while tracing: derive them from an argument's .shape or make the size a static argument"
        if hazard.kind is HazardKind.SHAPE:
            return f"the shape given to '{hazard.detail.strip('.()')}' depends on the value of", static_shape
        return "slice bounds depend on the value of", "slice bounds must be static: make them static arguments, or select with a mask (tnp.where)"
