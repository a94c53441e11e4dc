"""TP402: a static argument passed an unhashable value (list, dict, set, array)."""

from __future__ import annotations

import libcst as cst

from ..edits import as_tuple
from ..model import Applicability, Fix
from .base import Example, Rule

UNHASHABLE_LITERALS = {cst.List: "list", cst.Dict: "dict", cst.Set: "set", cst.ListComp: "list",
                       cst.DictComp: "dict", cst.SetComp: "set"}  # fmt: skip
UNHASHABLE_BUILTINS = {"list": "tuple", "set": "frozenset", "dict": None, "bytearray": "bytes"}


class UnhashableStatic(Rule):
    code = "TP402"
    name = "unhashable-static-argument"
    summary = "static argument given a list, dict, set or array at a call site"
    fix = "sometimes"
    what_it_does = """
        Checks calls, in the same module, of jitted functions whose static arguments (by
        position or keyword) receive a list, dict or set display or comprehension, a call of
        `list()`/`dict()`/`set()`, or an array, directly or through a variable assigned once.
    """
    why_bad = """
        Static argument values are part of the compilation cache key, so they must be
        hashable: the call fails with `TypeError` (and an array, even if it were hashable,
        would compile once per distinct value). Pass a tuple or a frozenset instead (a safe
        fix for displays), or make the argument dynamic.
    """
    example = """
        from functools import partial

        import transpile as tp

        @partial(tp.jit, static_argnames=['dims'])
        def total(x, dims):
            return x.sum(axis=dims)

        total(1.0, [0, 1])
    """
    use_instead = """
        from functools import partial

        import transpile as tp

        @partial(tp.jit, static_argnames=['dims'])
        def total(x, dims):
            return x.sum(axis=dims)

        total(1.0, (0, 1))
    """
    valid = (
        """
        import transpile as tp

        def scale(x, factors):
            return x * factors[0]

        scale_jit = tp.jit(scale, static_argnums=1)
        scale_jit(2.0, (1, 2))
        scale(2.0, [1, 2])
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            def scale(x, factors):
                return x * factors[0]

            scale_jit = tp.jit(scale, static_argnums=1)
            y = scale_jit(2.0, [3])
            """,
            line=7,
            contains=("static argument 'factors' of 'scale_jit' is given a list",),
            fixed="""
            import transpile as tp

            def scale(x, factors):
                return x * factors[0]

            scale_jit = tp.jit(scale, static_argnums=1)
            y = scale_jit(2.0, (3,))
            """,
            unsafe=False,
        ),
        Example(
            """
            import transpile as tp
            from functools import partial

            @partial(tp.jit, static_argnames=('opts',))
            def f(x, opts):
                return x

            OPTIONS = {"mode": 1}
            f(1.0, opts=OPTIONS)
            """,
            line=9,
            contains=("static argument 'opts' of 'f' is given a dict",),
        ),
    )

    def check(self, ctx):
        for call in ctx.index.calls:
            site = self._site_called(ctx, call.node)
            if site is None or not site.static:
                continue
            for arg, name in _static_args(call.node, site):
                kind, value = self._unhashable(ctx, arg.value)
                if kind is not None:
                    yield self._finding(ctx, call.node, site, arg, name, kind, value)

    @staticmethod
    def _site_called(ctx, call: cst.Call):
        func = call.func
        for site in ctx.sites.sites:
            if site.options is func and site.form == "call":
                return site  # tp.jit(f, static_argnames=...)(...)
        if not isinstance(func, cst.Name):
            return None
        scope = ctx.scopes.get(func)
        nodes = {getattr(a, "node", None) for a in scope[func.value]} if scope is not None else set()
        nodes.discard(None)
        for site in ctx.sites.sites:
            if site.binding is not None and (site.binding in nodes or site.decorator_of in nodes):
                return site
        return None

    def _unhashable(self, ctx, expr: cst.BaseExpression, follow: bool = True):
        for kind, label in UNHASHABLE_LITERALS.items():
            if isinstance(expr, kind):
                return label, expr
        if isinstance(expr, cst.Call):
            builtin = ctx.names.builtin(expr.func)
            if builtin in UNHASHABLE_BUILTINS:
                return builtin, expr
            arrays = (*ctx.config.array_namespaces, "numpy")
            if ctx.names.member_of(expr.func, arrays) is not None:
                return "array", expr
        if follow and isinstance(expr, cst.Name):
            value = _single_value(ctx, expr)
            if value is not None:
                kind, _ = self._unhashable(ctx, value, follow=False)
                return kind, None  # no rewrite through a variable
        return None, None

    def _finding(self, ctx, call, site, arg, name: str, kind: str, value):
        callee = ctx.code(call.func) if isinstance(call.func, cst.Name) else "the jitted function"
        message = f"static argument '{name}' of '{callee}' is given a {kind}, which is unhashable (TypeError at the call)"
        fix = self._fix(ctx, value)
        help = fix.description if fix else "pass a hashable value (tuple, frozenset), or make the argument dynamic"
        return ctx.finding(self.code, arg.value, message, help, fix)

    @staticmethod
    def _fix(ctx, value) -> Fix | None:
        if isinstance(value, cst.List):
            return Fix(Applicability.SAFE, "pass a tuple instead", (ctx.replace_edit(value, as_tuple(value)),))
        if isinstance(value, cst.Set):
            new = cst.Call(func=cst.Name("frozenset"), args=[cst.Arg(value)])
            return Fix(Applicability.SAFE, "pass a frozenset instead", (ctx.replace_edit(value, new),))
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            replacement = UNHASHABLE_BUILTINS.get(ctx.names.builtin(value.func) or "")
            if replacement:
                edit = ctx.replace_edit(value.func, cst.Name(replacement))
                return Fix(Applicability.SAFE, f"call {replacement}() instead", (edit,))
        return None


def _static_args(call: cst.Call, site) -> list[tuple[cst.Arg, str]]:
    positions = site.static_positions()
    found = []
    position = 0
    for arg in call.args:
        if arg.star:
            break  # positions after *args are unknown
        if arg.keyword is not None:
            if arg.keyword.value in site.static:
                found.append((arg, arg.keyword.value))
            continue
        if position in positions:
            found.append((arg, positions[position]))
        position += 1
    return found


def _single_value(ctx, name: cst.Name) -> cst.BaseExpression | None:
    """The value of `name` when it is assigned exactly once, by `name = value`."""
    scope = ctx.scopes.get(name)
    if scope is None:
        return None
    assignments = list(scope[name.value])
    if len(assignments) != 1:
        return None
    return ctx.index.value_of.get(getattr(assignments[0], "node", None))
