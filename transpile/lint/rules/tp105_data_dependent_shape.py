"""TP105: an operation whose output shape depends on traced data (mask indexing, nonzero, ...)."""

from __future__ import annotations

import ast

from ..codes import Code, HazardKind
from ..model import Applicability, Fix
from .base import Example, Rule
from .traced import array_namespace, subject, tnp_available, tnp_has, tnp_name, where_from

# Reductions that give the same answer when the masked-out elements are replaced by zero.
ZERO_SAFE_REDUCTIONS = frozenset({"sum", "count_nonzero"})


class DataDependentShape(Rule):
    code = Code.TP105
    reports = frozenset({HazardKind.MASK, HazardKind.DATASHAPE})
    name = "data-dependent-shape"
    summary = "boolean-mask indexing, or nonzero/argwhere/unique/one-argument where without size="
    fix = "sometimes"
    what_it_does = """
        Checks jitted code for operations whose *output shape* depends on the values of a
        traced array: indexing with a boolean mask (`x[x > 0]`), `nonzero`, `argwhere`,
        `flatnonzero`, `unique` (and its variants) without `size=`, and the one-argument form
        of `where(cond)`.
    """
    why_bad = """
        Compiled code has static shapes: the number of elements that pass a mask is not known
        until the data is, so tracing fails (JAX: `NonConcreteBooleanIndexError` or
        `ConcretizationTypeError`). Keep the shape fixed: select with `where(mask, x, 0)` (then
        reduce), or give the function a static upper bound with `size=` (padded with
        `fill_value`).
    """
    example = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def positive_sum(x):
            return x[x > 0].sum()
    """
    use_instead = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def positive_sum(x):
            return tnp.where(x > 0, x, 0).sum()
    """
    valid = (
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def first_hits(x):
            rows, = jnp.nonzero(x > 0, size=4, fill_value=-1)
            values = jnp.unique(x, size=x.size)
            return rows, values, jnp.where(x > 0, x, 0.0)
        """,
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def middle(x):
            half = x.shape[0] // 2
            return x[half], x[x.shape[0] > 2], x.at[0].set(1.0)
        """,
        """
        import numpy as np

        def host_only(x):
            return x[x > 0], np.nonzero(x)  # never jitted: NumPy is fine
        """,
    )
    invalid = (
        Example(
            """
            import jax

            @jax.jit
            def zero_negatives(x):
                return x.at[x < 0].set(0.0)
            """,
            line=5,
            contains=("boolean mask", "in place of x.at[mask].set(new_value)"),
        ),
        Example(
            """
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def positive_sum(x):
                return x[x > 0].sum()
            """,
            line=6,
            contains=("boolean mask", "traced argument 'x'", "tnp.where"),
            fixed="""
            import transpile as tp
            import transpile.numpy as tnp

            @tp.jit
            def positive_sum(x):
                return tnp.where(x > 0, x, 0).sum()
            """,
        ),
        Example(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def hits(x):
                return jnp.nonzero(x)
            """,
            line=6,
            contains=("'nonzero' without size=", "size="),
            fixed="""
            import jax
            import jax.numpy as jnp

            @jax.jit
            def hits(x):
                return jnp.nonzero(x, size=x.size)
            """,
        ),
        Example(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def where_big(x):
                return jnp.where(x > 1)
            """,
            line=6,
            contains=("one-argument 'where'",),
        ),
        Example(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def distinct(x):
                mask = jnp.isnan(x)
                return jnp.unique(x), x[~mask]
            """,
            line=7,
            contains=("'unique' without size=",),
        ),
    )

    def check(self, ctx):
        hazards = ctx.facts.of_kinds(self.reports)
        if not hazards:
            return
        reducers = self._zero_safe_reductions(ctx)
        for hazard in hazards:
            if hazard.kind is HazardKind.MASK:
                yield self._mask_finding(ctx, hazard, reducers.get(id(hazard.node)))
            else:
                yield self._function_finding(ctx, hazard)

    def _mask_finding(self, ctx, hazard, reduced: bool | None):
        node = hazard.node
        message = f"indexing with a boolean mask gives a shape that depends on the value of {subject(hazard.taint)}{where_from(ctx, hazard)}"
        where = tnp_name(ctx, "where")
        help = f"keep the shape: {where}(mask, x, 0) and reduce that, or give a static size"
        if hazard.detail == "at":
            help = f"update every element instead: {where}(mask, new_value, x) in place of x.at[mask].set(new_value)"
            return ctx.finding(self.code, node, message, help)
        fix = None
        if reduced and tnp_available(ctx) and tnp_has(ctx, "where"):
            mask = node.slice
            text = f"{where}({ctx.code(mask)}, {ctx.code(node.value)}, 0)"
            fix = Fix(Applicability.UNSAFE, f"select with {where}(mask, x, 0) before the sum", (ctx.replace_edit(node, text),))
        return ctx.finding(self.code, node, message, help, fix)

    def _function_finding(self, ctx, hazard):
        node = hazard.node
        member = hazard.detail.lstrip(".")
        shown = "one-argument 'where'" if member == "where" else f"'{member}' without size="
        message = f"{shown} gives a shape that depends on the value of {subject(hazard.taint)}{where_from(ctx, hazard)}"
        fix = None
        if tnp_has(ctx, member) and array_namespace(ctx) is not None and node.args and hazard.detail[0] != ".":
            first = node.args[0]
            if isinstance(first, (ast.Name, ast.Attribute)):
                bound = f"{ctx.code(first)}.size"
                edit = ctx.insert_at(*ctx.end(node.args[-1] if not node.keywords else node.keywords[-1].value), f", size={bound}")
                fix = Fix(Applicability.UNSAFE, f"pass size={bound} (results padded with fill_value)", (edit,))
        help = (
            f"pass a static upper bound, size=N (and fill_value=), or select with {tnp_name(ctx, 'where')}(mask, x, 0)"
            if tnp_has(ctx, member)
            else f"'{member}' has no fixed-shape form here: select with {tnp_name(ctx, 'where')}(mask, x, 0) instead"
        )
        return ctx.finding(self.code, node, message, help, fix)

    @staticmethod
    def _zero_safe_reductions(ctx) -> dict[int, bool]:
        """Subscripts reduced by a sum (`x[m].sum()`, `tnp.sum(x[m])`), by id."""
        found: dict[int, bool] = {}
        namespaces = ctx.config.array_namespaces
        for call, function in ctx.traced_code.of(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in ZERO_SAFE_REDUCTIONS and not call.args:
                found[id(func.value)] = True
            elif call.args and ctx.names.member_of(func, namespaces, function) in ZERO_SAFE_REDUCTIONS:
                found[id(call.args[0])] = len(call.args) == 1
        return found
