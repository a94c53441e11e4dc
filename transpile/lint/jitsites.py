"""Find every place a function is jitted, and which of its arguments are static.

Recognised forms, whatever `transpile` is imported as:

    @tp.jit                                   form "bare"
    @tp.jit(static_argnames=...)              form "call"    (options in the decorator call)
    @partial(tp.jit, static_argnums=...)      form "partial" (options in the partial call)
    f_jit = tp.jit(f, static_argnames=...)    form "call"    (anywhere: module, function, class)
    tp.jit(partial(f, 2)), tp.jit(lambda x: ...), self.g = tp.jit(self._g)

Static arguments given as anything but literals make the site "unknown": the analysis then
trusts the user and reports no value-dependent control flow for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .index import CallSite, Function, ModuleIndex
from .names import Names
from .resolve import Resolver, all_params, positional_params

STATIC_KEYWORDS = ("static_argnums", "static_argnames")


@dataclass(eq=False)
class JitSite:
    index: int
    form: str  # "bare" | "call" | "partial"
    edit_node: cst.BaseExpression  # what a static_argnames fix replaces
    jit_expr: cst.BaseExpression  # the expression that names jit, spelled as the user did
    options: cst.Call | None  # the call whose keywords hold static_argnums/static_argnames
    target: Function | None
    target_expr: cst.BaseExpression | None = None  # the jitted expression (call form)
    static: frozenset[str] | None = frozenset()  # None: not literal, so unknown
    bound: frozenset[str] = frozenset()  # bound by partial(...) or as `self` of `self.m`
    binding: cst.Name | None = None  # the name calls go through
    call: CallSite | None = None  # for call-form sites
    decorator_of: cst.FunctionDef | None = None

    @property
    def traced_params(self) -> list[str]:
        if self.target is None or self.static is None:
            return []
        excluded = self.static | self.bound
        return [name for name in all_params(self.target) if name not in excluded]

    def static_positions(self) -> dict[int, str]:
        """Call-site positions (0-based) of static parameters of the jitted callable."""
        if self.target is None or not self.static:
            return {}
        callable_params = [p for p in positional_params(self.target) if p not in self.bound]
        return {i: name for i, name in enumerate(callable_params) if name in self.static}


@dataclass
class JitSites:
    sites: list[JitSite] = field(default_factory=list)
    by_target: dict[Function, list[JitSite]] = field(default_factory=dict)

    def add(self, site: JitSite) -> None:
        self.sites.append(site)
        if site.target is not None:
            self.by_target.setdefault(site.target, []).append(site)


def find_jit_sites(index: ModuleIndex, names: Names, resolver: Resolver) -> JitSites:
    found = JitSites()
    for function in index.functions:
        for decorator in function.decorators:
            site = _decorator_site(decorator.decorator, function, names, len(found.sites))
            if site is not None:
                found.add(site)
    for call in index.calls:
        site = _call_site(call, names, resolver, index, len(found.sites))
        if site is not None:
            found.add(site)
    return found


def _decorator_site(expr: cst.BaseExpression, function: cst.FunctionDef, names: Names, number: int) -> JitSite | None:
    if names.is_jit(expr):
        site = JitSite(number, "bare", expr, expr, None, function)
    elif isinstance(expr, cst.Call) and names.is_jit(expr.func):
        site = JitSite(number, "call", expr, expr.func, expr, function)
    elif isinstance(expr, cst.Call) and _is_partial_of_jit(expr, names):
        site = JitSite(number, "partial", expr, expr.args[0].value, expr, function)
    else:
        return None
    site.binding = function.name
    site.decorator_of = function
    site.static = _static_names(site.options, function, site.bound)
    return site


def _is_partial_of_jit(call: cst.Call, names: Names) -> bool:
    return (
        names.is_partial(call.func)
        and bool(call.args)
        and call.args[0].keyword is None
        and names.is_jit(call.args[0].value)
    )


def _call_site(call: CallSite, names: Names, resolver: Resolver, index: ModuleIndex, number: int) -> JitSite | None:
    node = call.node
    if not node.args or node.args[0].keyword is not None or node.args[0].star:
        return None
    if not names.is_jit(node.func):
        return None
    target_expr = node.args[0].value
    target, bound = _jitted_callable(target_expr, call.function, names, resolver)
    site = JitSite(number, "call", node, node.func, node, target, target_expr, bound=bound, call=call)
    site.binding = index.assigned_to.get(node)
    site.static = _static_names(node, target, bound) if target is not None else None
    return site


def _jitted_callable(expr, caller, names: Names, resolver: Resolver) -> tuple[Function | None, frozenset[str]]:
    if isinstance(expr, cst.Lambda):
        return expr, frozenset()
    if isinstance(expr, cst.Call) and names.is_partial(expr.func) and expr.args:
        inner, bound = _jitted_callable(expr.args[0].value, caller, names, resolver)
        if inner is None:
            return None, frozenset()
        return inner, bound | _partial_bound(expr, inner, bound)
    resolved = resolver.callee(expr, caller) if isinstance(expr, (cst.Name, cst.Attribute)) else None
    if resolved is None:
        return None, frozenset()
    function, self_bound = resolved
    params = positional_params(function)
    return function, frozenset(params[:1]) if self_bound and params else frozenset()


def _partial_bound(call: cst.Call, function: Function, already: frozenset[str]) -> frozenset[str]:
    free = [p for p in positional_params(function) if p not in already]
    positional = [a for a in call.args[1:] if a.keyword is None and not a.star]
    keywords = {a.keyword.value for a in call.args[1:] if a.keyword is not None}
    return frozenset(free[: len(positional)]) | keywords


def _static_names(options: cst.Call | None, function: Function, bound: frozenset[str]) -> frozenset[str] | None:
    if options is None:
        return frozenset()
    names: set[str] = set()
    callable_params = [p for p in positional_params(function) if p not in bound]
    for arg in options.args:
        keyword = arg.keyword.value if arg.keyword else None
        if keyword == "static_argnames":
            strings = literal_strings(arg.value)
            if strings is None:
                return None
            names.update(strings)
        elif keyword == "static_argnums":
            numbers = literal_ints(arg.value)
            if numbers is None:
                return None
            names.update(_names_at(numbers, callable_params))
    return frozenset(names)


def _names_at(numbers: list[int], params: list[str]) -> list[str]:
    picked = []
    for number in numbers:
        position = number + len(params) if number < 0 else number
        if 0 <= position < len(params):
            picked.append(params[position])
    return picked


def literal_strings(expr: cst.BaseExpression) -> list[str] | None:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return [value] if isinstance(value, str) else None
    if isinstance(expr, (cst.List, cst.Tuple)):
        found = []
        for element in expr.elements:
            inner = literal_strings(element.value) if isinstance(element, cst.Element) else None
            if inner is None or not isinstance(element.value, cst.SimpleString):
                return None
            found.extend(inner)
        return found
    return None


def literal_ints(expr: cst.BaseExpression) -> list[int] | None:
    value = literal_int(expr)
    if value is not None:
        return [value]
    if isinstance(expr, (cst.List, cst.Tuple)):
        found = []
        for element in expr.elements:
            number = literal_int(element.value) if isinstance(element, cst.Element) else None
            if number is None:
                return None
            found.append(number)
        return found
    return None


def literal_int(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = literal_int(expr.expression)
        return -inner if inner is not None else None
    return None
