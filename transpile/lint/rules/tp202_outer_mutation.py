"""TP202: jitted code mutating a global or a container from an enclosing scope."""

from __future__ import annotations

import ast

from ..codes import Code
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
    code = Code.TP202
    name = "trace-time-mutation"
    summary = "jitted code mutates a global or an enclosing scope's object"
    what_it_does = """
        Checks for jitted code (and the helpers and `lax` bodies it runs) that mutates an
        object it does not own: `global_list.append(x)`, `cache[key] = x`, `config.value = x`,
        `del registry[k]`, where the name is a module global or belongs to an enclosing
        function; `self.history.append(x)` where the class makes `self.history` a container;
        and draws from NumPy's global random state (`np.random.normal(...)`), which happen
        once, while tracing, and become constants of the compiled code.
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
            import jax
            import numpy as np

            @jax.jit
            def f(x):
                return x + np.random.normal(size=x.shape)
            """,
            line=6,
            contains=("draws from NumPy's global random state while tracing",),
        ),
        Example(
            """
            from functools import partial
            import jax

            class Trainer:
                def __init__(self):
                    self.losses = []

                @partial(jax.jit, static_argnums=0)
                def step(self, x):
                    self.losses.append(x)
                    return x
            """,
            line=10,
            contains=("mutates 'self.losses'",),
        ),
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
                if finding is None:
                    finding = self._attribute_report(ctx, call, func.value, function)
                if finding is not None:
                    yield finding
        for call, function in ctx.traced_code.of(ast.Call):
            qualified = ctx.names.qualified(call.func, function) or ""
            if qualified.startswith("numpy.random.") and qualified.rsplit(".", 1)[-1] not in RNG_TYPES:
                yield self._host_random(ctx, call, qualified)
        for node, function in ctx.traced_code.of(*WRITES):
            for target in assignment_targets(node):
                if isinstance(target, (ast.Subscript, ast.Attribute)):
                    finding = self._report(ctx, target, target, function, ctx.code(target))
                    if finding is not None:
                        yield finding

    def _host_random(self, ctx, call, qualified: str):
        message = (
            f"'{qualified}' draws from NumPy's global random state while tracing: the numbers are "
            "drawn once per compilation and baked into the compiled code as constants"
        )
        help = "pass a jax.random key into the jitted function and draw with jax.random instead"
        return ctx.finding(self.code, call, message, help)

    def _attribute_report(self, ctx, call, receiver, function):
        """`self.history.append(x)` where the class's `__init__` makes `self.history` a list."""
        if not (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)):
            return None
        cls = ctx.index.owner_class.get(function)
        params = [p.arg for p in (*function.args.posonlyargs, *function.args.args)] if cls is not None else []
        if not params or receiver.value.id != params[0] or receiver.attr not in _container_attributes(ctx, cls):
            return None
        shown = ctx.code(call.func)
        message = (
            f"'{shown}(...)' mutates 'self.{receiver.attr}', a list/dict/set of the object, while tracing: "
            "it happens once per compilation, not on every call, and stores tracers"
        )
        help = f"return the value from the jitted method and update 'self.{receiver.attr}' outside it"
        return ctx.finding(self.code, call, message, help)

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


# numpy.random names that build generators or describe state rather than draw numbers.
RNG_TYPES = frozenset({"default_rng", "Generator", "RandomState", "SeedSequence", "PCG64", "Philox", "MT19937", "SFC64", "BitGenerator"})


def _container_attributes(ctx, cls) -> set[str]:
    """Attributes `__init__`/`setup` of `cls` (or its class body) sets to a list, dict or set."""
    found: set[str] = set()
    for statement in cls.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and is_container_value(ctx, statement.value):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            found.update(t.id for t in targets if isinstance(t, ast.Name))
    for name in ("__init__", "setup", "__post_init__"):
        method = ctx.index.methods.get(cls, {}).get(name)
        if method is None:
            continue
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and is_container_value(ctx, node.value):
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                        found.add(target.attr)
    return found
