"""Abstract evaluation of calls: known functions by table, module functions by analysing them.

A call to a function defined in the same module is analysed with the caller's argument values
bound to its parameters, so a hazard inside a helper is reported at the helper's line and names
the jitted function's arguments it came from. Results are memoised per (function, arguments).
"""

from __future__ import annotations

import libcst as cst

from .flow_expressions import truth_taint
from .flow_state import Frame
from .flow_tables import (
    COMPARING_BUILTINS,
    CONCRETE_ARRAY_FUNCTIONS,
    CONCRETE_BUILTINS,
    CONVERSION_BUILTINS,
    CONVERSION_METHODS,
    LAX_BODIES,
    MUTATING_METHODS,
    PASS_THROUGH_BUILTINS,
    SHAPE_METHODS,
    SHAPE_PARAMETERS,
)
from .flow_values import CONCRETE, Origin, Taint, Value, container_of, join, of, taint_of, tuple_of
from .index import Function
from .resolve import positional_params

Args = list[tuple[cst.Arg, Value]]


class CallMixin:
    def eval_call(self, node: cst.Call, frame: Frame) -> Value:
        args = [(arg, self.eval(arg.value, frame)) for arg in node.args]
        for handler in (self._builtin_call, self._namespace_call, self._user_call, self._method_call):
            result = handler(node, args, frame)
            if result is not None:
                return result
        return of(self.eval(node.func, frame).taint | _args_taint(args))

    # -- builtins ----------------------------------------------------------------------------
    def _builtin_call(self, node: cst.Call, args: Args, frame: Frame) -> Value | None:
        name = self.names.builtin(node.func)
        if name is None:
            return None
        taint = _args_taint(args)
        if name in CONVERSION_BUILTINS or name in COMPARING_BUILTINS:
            if name == "bool":
                taint = taint_of(Value(truth_taint(value)) for _, value in args)
            self.hazard("convert", node, taint, frame, f"{name}()")
            return CONCRETE
        if name == "range":
            self.hazard("range", node, taint, frame, "range()")
            return CONCRETE
        if name in CONCRETE_BUILTINS:
            return CONCRETE
        values = [value for _, value in args]
        if name == "enumerate" and values:
            return Value(values[0].taint, elem=tuple_of([CONCRETE, values[0].element()]))
        if name == "zip":
            return Value(taint, elem=tuple_of([value.element() for value in values]))
        if name in PASS_THROUGH_BUILTINS and values:
            return values[0]
        return of(taint)

    # -- array namespace, lax, numpy, math -------------------------------------------------
    def _namespace_call(self, node: cst.Call, args: Args, frame: Frame) -> Value | None:
        member = self.names.member_of(node.func, self.config.array_namespaces)
        if member is not None:
            return self._array_function(member, node, args, frame)
        member = self.names.member_of(node.func, self.config.lax_namespaces)
        if member is not None:
            self._trace_lax_bodies(member, args, frame)
            return of(_args_taint(args).as_array())
        for namespace in ("numpy", "math", "operator"):
            member = self.names.member_of(node.func, (namespace,))
            if member is not None:
                return self._host_function(f"{namespace}.{member}", node, args, frame)
        return None

    def _array_function(self, member: str, node: cst.Call, args: Args, frame: Frame) -> Value:
        if member in CONCRETE_ARRAY_FUNCTIONS:
            return CONCRETE
        if member in SHAPE_PARAMETERS:
            positions, keywords = SHAPE_PARAMETERS[member]
            shape, rest = _split_args(args, positions, keywords)
            self.hazard("shape", node, _args_taint(shape), frame, member)
            return of(_args_taint(rest).as_array())
        return of(_args_taint(args).as_array())

    def _host_function(self, qualified: str, node: cst.Call, args: Args, frame: Frame) -> Value:
        """numpy/math/operator functions run in Python on concrete values."""
        member = qualified.split(".", 1)[1]
        if qualified.startswith("numpy.") and member in CONCRETE_ARRAY_FUNCTIONS:
            return CONCRETE
        taint = _args_taint(args)
        if qualified.startswith("operator.") and member not in ("index", "truth", "not_"):
            return of(taint)
        self.hazard("convert", node, taint, frame, qualified)
        return CONCRETE

    def _trace_lax_bodies(self, member: str, args: Args, frame: Frame) -> None:
        positions = LAX_BODIES.get(member, ())
        for position in positions:
            if position >= len(args):
                continue
            arg, value = args[position]
            for body in self._functions_in(arg.value, value, frame):
                env = {name: self._body_param(name, frame) for name in positional_params(body)}
                self.call_function(body, env, frame)

    def _functions_in(self, expr: cst.BaseExpression, value: Value, frame: Frame) -> list[Function]:
        if isinstance(expr, (cst.List, cst.Tuple)):  # lax.switch takes a list of branches
            found = []
            for element in expr.elements:
                found.extend(self._functions_in(element.value, self.eval(element.value, frame), frame))
            return found
        if value.function is not None:
            return [value.function]
        resolved = self.resolver.callee(expr, frame.function) if isinstance(expr, (cst.Name, cst.Attribute)) else None
        return [resolved[0]] if resolved else []

    @staticmethod
    def _body_param(name: str, frame: Frame) -> Value:
        # Named after the body's own parameter: that is what the user sees at the hazard.
        return Value(Taint(frozenset({Origin(name, frame.root, "body")}), True))

    # -- functions defined in this module ----------------------------------------------------
    def _user_call(self, node: cst.Call, args: Args, frame: Frame) -> Value | None:
        func = node.func
        local = frame.lookup(func.value) if isinstance(func, cst.Name) else None
        if local is not None and local.function is not None:
            callee, self_bound = local.function, False
        else:
            resolved = self.resolver.callee(func, frame.function)
            if resolved is None:
                return None
            callee, self_bound = resolved
        if callee in self.sites.by_target:
            # Calling another jitted function: it is analysed as a root of its own.
            return of(_args_taint(args).as_array())
        bound = Bound(args)
        if self_bound:
            bound.positional.insert(0, self.eval(func.value, frame))
        return self.call_function(callee, bind_params(callee, bound), frame)

    def call_function(self, function: Function, env: dict[str, Value], caller: Frame) -> Value:
        key = (function, caller.root, tuple(sorted(env.items())))
        if key in self.call_memo:
            return self.call_memo[key]
        if function in self.active:
            return of(taint_of(env.values()))  # recursion: assume the result depends on all inputs
        self.active.add(function)
        try:
            result = self.run_function(function, env, caller.root)
        finally:
            self.active.discard(function)
        self.call_memo[key] = result
        return result

    # -- methods -------------------------------------------------------------------------------
    def _method_call(self, node: cst.Call, args: Args, frame: Frame) -> Value | None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return None
        receiver = self.eval(func.value, frame)
        method = func.attr.value
        taint = _args_taint(args)
        if method in MUTATING_METHODS:
            return self._mutate(func.value, receiver, method, taint, frame)
        if not receiver.taint:
            return of(taint)
        if method in CONVERSION_METHODS:
            self.hazard("convert", node, receiver.taint, frame, f".{method}()")
            return CONCRETE
        if method in SHAPE_METHODS:
            positions, keywords = SHAPE_METHODS[method]
            shape, rest = _split_args(args, positions, keywords)
            self.hazard("shape", node, _args_taint(shape), frame, f".{method}()")
            return of((receiver.taint | _args_taint(rest)).as_array())
        return self._container_method(method, receiver, taint)

    def _mutate(self, target: cst.BaseExpression, receiver: Value, method: str, taint: Taint, frame: Frame) -> Value:
        # A container that receives a traced value holds traced values from now on.
        if taint and isinstance(target, cst.Name):
            frame.bind(target.value, join(receiver, of(taint)))
        return Value(receiver.taint) if method in ("pop", "popitem", "popleft") else CONCRETE

    @staticmethod
    def _container_method(method: str, receiver: Value, taint: Taint) -> Value:
        if method == "keys":
            return CONCRETE  # pytree dict keys are static
        if method == "items":
            return Value(receiver.taint, elem=tuple_of([CONCRETE, Value(receiver.taint)]))
        return of((receiver.taint | taint).as_array())


def _args_taint(args: Args) -> Taint:
    return taint_of(value for _, value in args)


def _split_args(args: Args, positions: tuple[int, ...] | None, keywords: tuple[str, ...]) -> tuple[Args, Args]:
    picked, rest = [], []
    index = 0
    for arg, value in args:
        if arg.keyword is not None:
            (picked if arg.keyword.value in keywords else rest).append((arg, value))
            continue
        (picked if positions is None or index in positions or arg.star else rest).append((arg, value))
        index += 1
    return picked, rest


class Bound:
    """Argument values of a call, as Python would bind them (minus defaults, which are concrete)."""

    def __init__(self, args: Args):
        self.positional: list[Value] = []
        self.keywords: dict[str, Value] = {}
        self.spread: Value | None = None  # elements of `*xs`: they fill any positional slot
        self.kwspread: Value | None = None  # values of `**kw`: they fill any keyword slot
        for arg, value in args:
            if arg.star == "*":
                self.spread = value.element() if self.spread is None else join(self.spread, value.element())
            elif arg.star == "**":
                self.kwspread = value
            elif arg.keyword is not None:
                self.keywords[arg.keyword.value] = value
            else:
                self.positional.append(value)

    def fallback(self, name: str) -> Value:
        for candidate in (self.keywords.get(name), self.spread, self.kwspread):
            if candidate is not None:
                return candidate
        return CONCRETE


def bind_params(function: Function, bound: Bound) -> dict[str, Value]:
    params = function.params
    names = positional_params(function)
    env = {name: value for name, value in zip(names, bound.positional)}
    for name in names[len(bound.positional) :]:
        env[name] = bound.fallback(name)
    if isinstance(params.star_arg, cst.Param):
        extra = bound.positional[len(names) :]
        if bound.spread is not None:
            extra.append(bound.spread)
        items = None if bound.spread else tuple(extra)
        env[params.star_arg.name.value] = Value(taint_of(extra), items, container=True)
    for param in params.kwonly_params:
        env[param.name.value] = bound.keywords.get(param.name.value, bound.kwspread or CONCRETE)
    if params.star_kwarg is not None:
        known = set(env)
        rest = [value for name, value in bound.keywords.items() if name not in known]
        if bound.kwspread is not None:
            rest.append(bound.kwspread)
        env[params.star_kwarg.name.value] = container_of(taint_of(rest))
    return env


