"""TP202: jitted code mutating a global or a container from an enclosing scope."""

from __future__ import annotations

import libcst as cst

from ..flow_tables import MUTATING_METHODS
from .base import Example, Rule
from .scoping import WRITES, assignment_targets, outer_kind, root_name


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
        for call, _ in ctx.traced_code.of(cst.Call):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS:
                finding = self._report(ctx, call, func.value, f"{ctx.code(func)}(...)")
                if finding is not None:
                    yield finding
        for node, _ in ctx.traced_code.of(*WRITES):
            for target in assignment_targets(node):
                if isinstance(target, (cst.Subscript, cst.Attribute)):
                    finding = self._report(ctx, target, target, ctx.code(target))
                    if finding is not None:
                        yield finding

    def _report(self, ctx, node, receiver, shown: str):
        name = root_name(receiver)
        kind = outer_kind(ctx, name) if name is not None else None
        if kind is None:
            return None
        article = "an" if kind == "enclosing" else "a"
        message = (
            f"'{shown}' mutates '{name.value}', {article} {kind} variable, while tracing: "
            "it happens once per compilation, not on every call, and stores tracers"
        )
        help = f"return the value from the jitted function and update '{name.value}' outside it"
        return ctx.finding(self.code, node, message, help)
