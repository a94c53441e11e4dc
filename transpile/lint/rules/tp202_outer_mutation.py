"""TP202: jitted code mutating a global or a container from an enclosing scope."""

from __future__ import annotations

import ast

from ..flow_tables import MUTATING_METHODS
from .base import Example, Rule
from .scoping import (
    WRITES,
    assignment_targets,
    bound_value,
    is_container_value,
    is_import,
    is_ref_value,
    outer_binding,
    root_name,
)


class OuterMutation(Rule):
    code = "TP202"
    name = "trace-time-mutation"
    summary = "jitted code mutates a global or an enclosing scope's object"
    what_it_does = """
        Checks for jitted code (and the helpers and `lax` bodies it runs) that mutates an
        object it does not own: `global_list.append(x)`, `cache[key] = x`, `config.value = x`,
        `del registry[k]`, where the name is a module global or belongs to an enclosing
        function.
    """
    why_bad = """
        Side effects run while tracing only: the mutation happens once per compilation rather
        than on every call, and what it stores are tracers, which become invalid (or leak)
        once tracing ends. Return the values from the jitted function and update state outside.
    """
    example = """
        import transpile as tp
        import transpile.numpy as tnp

        global_list = []

        @tp.jit
        def log2(x):
            global_list.append(x)
            return tnp.log(x) / tnp.log(2.0)
    """
    use_instead = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def log2(x):
            return tnp.log(x) / tnp.log(2.0)

        global_list = []
        # y = log2(x); global_list.append(y)
    """
    valid = (
        """
        import transpile as tp

        @tp.jit
        def f(xs):
            out = []
            for x in xs:
                out.append(x * 2)
            acc = {}
            acc["a"] = out[0]
            return out, acc
        """,
    )
    invalid = (
        Example(
            """
            import transpile as tp

            CACHE = {}

            @tp.jit
            def f(x):
                CACHE["last"] = x
                return x
            """,
            line=7,
            contains=("mutates 'CACHE', a global variable",),
        ),
        Example(
            """
            import transpile as tp

            def make():
                seen = []

                @tp.jit
                def g(x):
                    seen.append(x)
                    return x

                return g
            """,
            line=8,
            contains=("mutates 'seen', an enclosing variable",),
        ),
    )

    def check(self, ctx):
        for statement, function in ctx.traced_code.of(ast.Expr):
            call = statement.value
            func = call.func if isinstance(call, ast.Call) else None
            # Only a call whose result is dropped mutates: `opt.update(g, s)` used as a value
            # is a pure function returning new state.
            if isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS:
                finding = self._report(ctx, call, func.value, function, f"{ctx.code(func)}(...)", method=True)
                if finding is not None:
                    yield finding
        for node, function in ctx.traced_code.of(*WRITES):
            for target in assignment_targets(node):
                if isinstance(target, (ast.Subscript, ast.Attribute)):
                    finding = self._report(ctx, target, target, function, ctx.code(target))
                    if finding is not None:
                        yield finding

    def _report(self, ctx, node, receiver, function, shown: str, method: bool = False):
        name = root_name(receiver)
        outer = outer_binding(ctx, name.id, function) if name is not None else None
        if outer is None:
            return None
        kind, bindings = outer
        if is_import(bindings):
            return None  # `lax.add(...)`, `nnx.update(...)`: a function of a module
        value = bound_value(bindings)
        if is_ref_value(value):
            return None  # a documented ref type, written through on purpose
        if method and receiver is name and value is not None and not is_container_value(ctx, value):
            return None  # a method of some object, not a list/dict/set being filled
        if any(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for b in bindings):
            return None
        article = "an" if kind == "enclosing" else "a"
        message = (
            f"'{shown}' mutates '{name.id}', {article} {kind} variable, while tracing: "
            "it happens once per compilation, not on every call, and stores tracers"
        )
        help = f"return the value from the jitted function and update '{name.id}' outside it"
        return ctx.finding(self.code, node, message, help)
