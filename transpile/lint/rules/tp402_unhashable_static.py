"""TP402: a static argument passed an unhashable value (list, dict, set, array)."""

from __future__ import annotations

import ast

from ..codes import Code
from ..edits import as_tuple
from ..jitsites import lines_mentioning
from ..model import Applicability, Fix
from .base import Example, Rule

UNHASHABLE_LITERALS = {ast.List: "list", ast.Dict: "dict", ast.Set: "set", ast.ListComp: "list",
                       ast.DictComp: "dict", ast.SetComp: "set"}  # fmt: skip
UNHASHABLE_BUILTINS = {"list": "tuple", "set": "frozenset", "dict": None, "bytearray": "bytes"}


class UnhashableStatic(Rule):
    code = Code.TP402
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
        sites = [site for site in ctx.sites.sites if site.static]
        if not sites:
            return
        for call in static_calls(ctx, sites):
            site = self._site_called(ctx, call, sites)
            if site is None:
                continue
            for arg, name in _static_args(call.node, site):
                kind, value = self._unhashable(ctx, arg, call.function)
                if kind is not None:
                    yield self._finding(ctx, call.node, site, arg, name, kind, value)

    @staticmethod
    def _site_called(ctx, call, sites):
        func = call.node.func
        for site in sites:
            if site.options is func and site.form == "call":
                return site  # tp.jit(f, static_argnames=...)(...)
        if not isinstance(func, ast.Name):
            return None
        for site in sites:
            if site.binding == func.id and _same_binding(ctx, func.id, call.function, site.binding_scope):
                return site
        return None

    def _unhashable(self, ctx, expr: ast.expr, function, follow: bool = True):
        for kind, label in UNHASHABLE_LITERALS.items():
            if isinstance(expr, kind):
                return label, expr
        if isinstance(expr, ast.Call):
            builtin = ctx.names.builtin(expr.func, function)
            if builtin in UNHASHABLE_BUILTINS:
                return builtin, expr
            arrays = (*ctx.config.array_namespaces, "numpy")
            if ctx.names.member_of(expr.func, arrays, function) is not None:
                return "array", expr
        if follow and isinstance(expr, ast.Name):
            value = _single_value(ctx, expr.id, function)
            if value is not None:
                kind, _ = self._unhashable(ctx, value, function, follow=False)
                return kind, None  # no rewrite through a variable
        return None, None

    def _finding(self, ctx, call, site, arg, name: str, kind: str, value):
        callee = call.func.id if isinstance(call.func, ast.Name) else "the jitted function"
        message = f"static argument '{name}' of '{callee}' is given a {kind}, which is unhashable (TypeError at the call)"
        fix = self._fix(ctx, value)
        help = fix.description if fix else "pass a hashable value (tuple, frozenset), or make the argument dynamic"
        return ctx.finding(self.code, arg, message, help, fix)

    @staticmethod
    def _fix(ctx, value) -> Fix | None:
        if isinstance(value, ast.List):
            return Fix(Applicability.SAFE, "pass a tuple instead", (ctx.replace_edit(value, as_tuple(ctx, value)),))
        if isinstance(value, ast.Set):
            return Fix(Applicability.SAFE, "pass a frozenset instead", (ctx.replace_edit(value, f"frozenset({ctx.code(value)})"),))
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            replacement = UNHASHABLE_BUILTINS.get(value.func.id)
            if replacement:
                edit = ctx.replace_edit(value.func, replacement)
                return Fix(Applicability.SAFE, f"call {replacement}() instead", (edit,))
        return None


def static_calls(ctx, sites) -> list:
    """Calls on lines that name a jitted binding (or hold a jit call with options)."""
    words = {site.binding for site in sites if site.binding}
    words.update(ctx.config.jit_leaves)
    return ctx.index.calls_on_lines(lines_mentioning(ctx.source, words, ctx.line_starts))


def _same_binding(ctx, name: str, caller, binding_scope) -> bool:
    """Whether `name` read in `caller` is the name bound in `binding_scope`."""
    owner = caller
    while owner is not None and owner is not binding_scope:
        if ctx.names.is_local(name, owner):
            return False
        owner = ctx.index.parent_function.get(owner)
    return owner is binding_scope


def _static_args(call: ast.Call, site) -> list[tuple[ast.expr, str]]:
    positions = site.static_positions()
    found = []
    for position, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break  # positions after *args are unknown
        if position in positions:
            found.append((arg, positions[position]))
    for keyword in call.keywords:
        if keyword.arg is not None and keyword.arg in site.static:
            found.append((keyword.value, keyword.arg))
    return found


def _single_value(ctx, name: str, function) -> ast.expr | None:
    """The value of `name` when it is assigned exactly once, by `name = value`."""
    owner = function
    while owner is not None and not ctx.names.is_local(name, owner):
        owner = ctx.index.parent_function.get(owner)
    nodes = ctx.index.scope(owner).bound.get(name, [])
    if len(nodes) != 1 or not isinstance(nodes[0], ast.Assign) or len(nodes[0].targets) != 1:
        return None
    return nodes[0].value
