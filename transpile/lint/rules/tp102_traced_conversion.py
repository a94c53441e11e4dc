"""TP102: `bool()`/`int()`/`float()`/`.item()` (and friends) on a traced value."""

from __future__ import annotations

from ..codes import Code, HazardKind
from .base import Example, Rule
from .traced import tnp_name, traced_finding

ELEMENTWISE = {"min()": "minimum", "max()": "maximum", "any()": "any", "all()": "all", "sorted()": "sort"}


class TracedConversion(Rule):
    code = Code.TP102
    reports = frozenset({HazardKind.CONVERT})
    name = "traced-conversion"
    summary = "`bool()`/`int()`/`float()`/`.item()`/`math.*`/`numpy.*` on a traced value"
    fix = "sometimes"
    what_it_does = """
        Checks for conversions of traced values to Python scalars or NumPy arrays in jitted
        code: `bool()`, `int()`, `float()`, `complex()`, `.item()`, `.tolist()`,
        `operator.index()`, Python's `min()`/`max()`/`any()`/`all()`/`sorted()` (which compare
        or truth-test elements), and `math.*` or `numpy.*` functions.
    """
    why_bad = """
        A tracer has no value while the function is traced, so every one of these raises
        `ConcretizationError`. Scalar arguments can be made static; array values should stay
        arrays and use the `tnp` equivalent (`tnp.maximum` for `max`, `tnp.sqrt` for
        `math.sqrt`), with any conversion done on the result, outside the jitted function.
    """
    example = """
        import math
        import transpile as tp

        @tp.jit
        def norm(x):
            return math.sqrt(x @ x)
    """
    use_instead = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def norm(x):
            return tnp.sqrt(x @ x)
    """
    valid = (
        """
        import transpile as tp

        @tp.jit
        def f(x):
            n = int(x.shape[0])
            width = float(len(x))
            return x * n / width
        """,
        """
        import transpile as tp
        from functools import partial

        @partial(tp.jit, static_argnames=('k',))
        def f(x, k):
            return x * int(k)
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x, k):
                return x * int(k)
            """,
            line=5,
            contains=("'int()' needs the value of traced argument 'k'", "static_argnames=['k']"),
        ),
        Example(
            """
            import transpile as tp

            @tp.jit
            def f(x):
                return x.sum().item()
            """,
            line=5,
            contains=("'.item()'", "'x'"),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def f(x, y):
                return max(tnp.sum(x), y)
            """,
            line=6,
            contains=("'max()'", "tnp.maximum"),
        ),
        Example(
            """
            import numpy as np
            import transpile as tp

            @tp.jit
            def f(x):
                return np.asarray(x[0])
            """,
            line=6,
            contains=("'numpy.asarray()'",),
        ),
    )

    def check(self, ctx):
        for hazard in ctx.facts.of_kinds(self.reports):
            detail = hazard.detail if hazard.detail.endswith(")") else f"{hazard.detail}()"
            problem = f"'{detail}' needs the value of"
            yield traced_finding(ctx, self.code, hazard, hazard.node, problem, self._help(ctx, detail))

    @staticmethod
    def _help(ctx, detail: str) -> str:
        if detail == "format()":
            return (
                "a format spec needs a Python number: format outside the jitted function, or print "
                "with jax.debug.print('{:.3f}', x), which formats the value at run time"
            )
        if detail in ELEMENTWISE:
            return f"use {tnp_name(ctx, ELEMENTWISE[detail])}, which works on traced arrays"
        if detail.startswith(("math.", "numpy.")):
            member = detail.split(".", 1)[1].removesuffix("()")
            return f"use {tnp_name(ctx, member)}, which works on traced arrays"
        return "keep the value an array inside the jitted function and convert its result after it returns"
