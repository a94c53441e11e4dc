"""Find every place a function is jitted, and which of its arguments are static.

Recognised forms, whatever `transpile` (or `jax`) is imported as:

    @tp.jit                                   form "bare"
    @tp.jit(static_argnames=...)              form "call"    (options in the decorator call)
    @partial(tp.jit, static_argnums=...)      form "partial" (options in the partial call)
    f_jit = tp.jit(f, static_argnames=...)    form "call"    (anywhere: module, function, class)
    tp.jit(partial(f, 2)), tp.jit(lambda x: ...), self.g = tp.jit(self._g)

Static arguments given as anything but literals make the site "unknown": the analysis then
trusts the user and reports no value-dependent control flow for it. `filter_jit`-style
decorators (a configured jit function whose name starts with `filter_`) trace only the
arguments that are arrays, so only parameters with array evidence count as traced there.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from dataclasses import dataclass, field

from .evidence import array_like_params, called_params
from .flow_tables import FUNCTION_TRANSFORMS, TRANSFORM_PACKAGES
from .index import CallSite, Function, ModuleIndex
from .names import Names
from .resolve import Resolver, all_params, positional_params

STATIC_KEYWORDS = ("static_argnums", "static_argnames")


@dataclass(eq=False)
class JitSite:
    index: int
    form: str  # "bare" | "call" | "partial"
    edit_node: ast.expr  # what a static_argnames fix replaces
    jit_expr: ast.expr  # the expression that names jit, spelled as the user did
    options: ast.Call | None  # the call whose keywords hold static_argnums/static_argnames
    target: Function | None
    target_expr: ast.expr | None = None  # the jitted expression (call form)
    static: frozenset[str] | None = frozenset()  # None: not literal, so unknown
    bound: frozenset[str] = frozenset()  # bound by partial(...) or as `self` of `self.m`
    binding: str | None = None  # the name calls go through
    binding_scope: Function | None = None  # where that name is bound
    call: CallSite | None = None  # for call-form sites
    decorator_of: ast.FunctionDef | None = None
    filtering: bool = False  # filter_jit style: non-array arguments are static
    arrays: frozenset[str] = frozenset()  # for filtering sites: parameters used as arrays

    defaulted: frozenset[str] = frozenset()  # parameters with defaults no call passes

    @property
    def traced_params(self) -> list[str]:
        if self.target is None or self.static is None:
            return []
        excluded = self.static | self.bound | self.defaulted
        names = [name for name in all_params(self.target) if name not in excluded]
        if self.filtering:
            names = [name for name in names if name in self.arrays]
        return names

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


def lines_mentioning(source: str, words: set[str], line_starts: list[int]) -> set[int]:
    """1-based numbers of the lines where one of `words` is called (`word(`, `x.word (`)."""
    if not words:
        return set()
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + r")\s*\(")
    return {bisect_right(line_starts, match.start()) for match in pattern.finditer(source)}


def find_jit_sites(index: ModuleIndex, names: Names, resolver: Resolver, source: str, line_starts: list[int]) -> JitSites:
    found = JitSites()
    for function in index.functions:
        for decorator in function.decorator_list:
            site = _decorator_site(decorator, function, names, len(found.sites))
            if site is not None:
                found.add(site)
    words = set(names.config.jit_leaves)
    words.update(local for local, target in names.imports.items() if target in names.config.jit_set)
    for call in index.calls_on_lines(lines_mentioning(source, words, line_starts)):
        site = _call_site(call, names, resolver, index, len(found.sites))
        if site is not None:
            found.add(site)
    with_defaults = []
    for site in found.sites:
        if site.filtering and site.target is not None:
            site.arrays = _used_as_arrays(site.target, names)
        if site.target is not None and site.binding and _defaults_of(site.target):
            with_defaults.append(site)
    if with_defaults:
        calls = _calls_by_name(index, {site.binding for site in with_defaults}, source, line_starts)
        for site in with_defaults:
            site.defaulted = _never_passed(site, calls.get(site.binding, []))
    return found


def _calls_by_name(index: ModuleIndex, names: set[str], source: str, line_starts: list[int]) -> dict[str, list[ast.Call]]:
    """Calls `name(...)` / `obj.name(...)` of each name, found in one pass over the module."""
    found: dict[str, list[ast.Call]] = {}
    for call in index.calls_on_lines(lines_mentioning(source, names, line_starts)):
        func = call.node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in names:
            found.setdefault(name, []).append(call.node)
    return found


def _defaults_of(function: Function) -> list[str]:
    args = function.args
    positional = positional_params(function)
    with_defaults = positional[len(positional) - len(args.defaults) :] if args.defaults else []
    return with_defaults + [p.arg for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]


def _never_passed(site: JitSite, calls: list[ast.Call]) -> frozenset[str]:
    """Parameters with defaults that no call of the jitted function in this module passes:
    Python fills them in while tracing, so they are concrete (`f(x)` for `f(x, training=False)`)."""
    defaults = set(_defaults_of(site.target))
    callable_params = [p for p in positional_params(site.target) if p not in site.bound]
    for node in calls:
        if any(isinstance(arg, ast.Starred) for arg in node.args) or any(k.arg is None for k in node.keywords):
            return frozenset()  # *args / **kwargs may pass any of them
        defaults -= set(callable_params[: len(node.args)])
        defaults -= {k.arg for k in node.keywords}
    return frozenset(defaults)


def _used_as_arrays(function: Function, names: Names) -> frozenset[str]:
    namespaces = (*names.config.array_namespaces, "numpy")
    used = array_like_params(function, lambda call: names.member_of(call.func, namespaces, function) is not None)
    return used | called_params(function)


def _filtering(qualified: str | None) -> bool:
    return bool(qualified) and qualified.rsplit(".", 1)[-1].startswith("filter_")


def _decorator_site(expr: ast.expr, function: ast.FunctionDef, names: Names, number: int) -> JitSite | None:
    scope = names.index.parent_function.get(function)
    if names.is_jit(expr, scope):
        site = JitSite(number, "bare", expr, expr, None, function)
    elif isinstance(expr, ast.Call) and names.is_jit(expr.func, scope):
        site = JitSite(number, "call", expr, expr.func, expr, function)
    elif isinstance(expr, ast.Call) and _is_partial_of_jit(expr, names, scope):
        site = JitSite(number, "partial", expr, expr.args[0], expr, function)
    else:
        return None
    site.filtering = _filtering(names.qualified(site.jit_expr, scope))
    site.binding = function.name
    site.binding_scope = scope
    site.decorator_of = function
    site.static = _static_names(site.options, function, site.bound, names.index)
    return site


def _is_partial_of_jit(call: ast.Call, names: Names, scope) -> bool:
    return (
        names.is_partial(call.func, scope)
        and bool(call.args)
        and not isinstance(call.args[0], ast.Starred)
        and names.is_jit(call.args[0], scope)
    )


def _call_site(call: CallSite, names: Names, resolver: Resolver, index: ModuleIndex, number: int) -> JitSite | None:
    node = call.node
    if not node.args or isinstance(node.args[0], ast.Starred):
        return None
    if not names.is_jit(node.func, call.function):
        return None
    target_expr = node.args[0]
    target, bound = _jitted_callable(target_expr, call.function, names, resolver)
    site = JitSite(number, "call", node, node.func, node, target, target_expr, bound=bound, call=call)
    site.filtering = _filtering(names.qualified(node.func, call.function))
    binding = index.assigned_to.get(node)
    site.binding = binding.id if binding is not None else None
    site.binding_scope = call.function
    site.static = _static_names(node, target, bound, index) if target is not None else None
    return site


def _jitted_callable(
    expr, caller, names: Names, resolver: Resolver, before: int | None = None
) -> tuple[Function | None, frozenset[str]]:
    if isinstance(expr, ast.Lambda):
        return expr, frozenset()
    if isinstance(expr, ast.Call) and names.is_partial(expr.func, caller) and expr.args:
        inner, bound = _jitted_callable(expr.args[0], caller, names, resolver, before)
        if inner is None:
            return None, frozenset()
        return inner, bound | _partial_bound(expr, inner, bound)
    if isinstance(expr, ast.Call) and expr.args and is_transform(names.qualified(expr.func, caller)):
        return _jitted_callable(expr.args[0], caller, names, resolver, before)  # jax.jit(jax.grad(f))
    rebinding = _wrapping_rebinding(expr, caller, names, expr.lineno if before is None else before)
    if rebinding is not None:  # f = partial(f, flag=True); f = jax.pmap(f); jax.jit(f)
        return _jitted_callable(rebinding.value, caller, names, resolver, rebinding.lineno)
    resolved = resolver.callee(expr, caller) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    if resolved is None:
        return None, frozenset()
    function, self_bound = resolved
    params = positional_params(function)
    return function, frozenset(params[:1]) if self_bound and params else frozenset()


def _wrapping_rebinding(expr, caller, names: Names, before: int) -> ast.Assign | None:
    """`name = partial(...)` or `name = transform(...)`, when that is the last binding of the
    name `expr` before line `before` in the caller's scope (the function it wraps is then an
    earlier binding of the same name, found from that line)."""
    if not isinstance(expr, ast.Name):
        return None
    scope = names.index.scope(caller if names.is_local(expr.id, caller) else None)
    earlier = [node for node in scope.bound.get(expr.id, ()) if node.lineno < before]
    last = earlier[-1] if earlier else None
    if not isinstance(last, ast.Assign) or not isinstance(last.value, ast.Call) or not last.value.args:
        return None
    func = last.value.func
    wraps = names.is_partial(func, caller) or is_transform(names.qualified(func, caller))
    return last if wraps else None


def is_transform(qualified: str | None) -> bool:
    """`jax.grad`, `jax.vmap`, `equinox.filter_grad`...: they call the function they wrap on
    the (traced) arguments they get."""
    if not qualified or qualified.split(".", 1)[0] not in TRANSFORM_PACKAGES:
        return False
    return qualified.rsplit(".", 1)[-1] in FUNCTION_TRANSFORMS


def _partial_bound(call: ast.Call, function: Function, already: frozenset[str]) -> frozenset[str]:
    free = [p for p in positional_params(function) if p not in already]
    positional = [a for a in call.args[1:] if not isinstance(a, ast.Starred)]
    keywords = {k.arg for k in call.keywords if k.arg is not None}
    if any(k.arg is None for k in call.keywords):
        # partial(f, **options): any parameter with a default, and every keyword-only one,
        # may be bound by the options (and is then a Python value).
        args = function.args
        with_defaults = positional_params(function)[len(positional_params(function)) - len(args.defaults) :]
        keywords |= set(with_defaults) | {p.arg for p in args.kwonlyargs}
    return frozenset(free[: len(positional)]) | keywords


def _static_names(
    options: ast.Call | None, function: Function, bound: frozenset[str], index: ModuleIndex
) -> frozenset[str] | None:  # fmt: skip
    if options is None:
        return frozenset()
    names: set[str] = set()
    callable_params = [p for p in positional_params(function) if p not in bound]
    for keyword in options.keywords:
        value = module_constant(keyword.value, index)
        if keyword.arg == "static_argnames":
            strings = literal_strings(value)
            if strings is None:
                return None
            names.update(strings)
        elif keyword.arg == "static_argnums":
            numbers = literal_ints(value)
            if numbers is None:
                return None
            names.update(_names_at(numbers, callable_params))
        elif keyword.arg is None:
            return None  # **options: unknown
    return frozenset(names)


def module_constant(expr: ast.expr, index: ModuleIndex) -> ast.expr:
    """The value of `STATIC` in `static_argnames=STATIC` when the module binds it exactly once
    (`STATIC = ("n", "mode")`); otherwise the expression itself."""
    if not isinstance(expr, ast.Name):
        return expr
    nodes = index.module.bound.get(expr.id, [])
    if len(nodes) == 1 and isinstance(nodes[0], (ast.Assign, ast.AnnAssign)) and nodes[0].value is not None:
        targets = nodes[0].targets if isinstance(nodes[0], ast.Assign) else [nodes[0].target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            return nodes[0].value
    return expr


def _names_at(numbers: list[int], params: list[str]) -> list[str]:
    picked = []
    for number in numbers:
        position = number + len(params) if number < 0 else number
        if 0 <= position < len(params):
            picked.append(params[position])
    return picked


def literal_strings(expr: ast.expr) -> list[str] | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, (ast.List, ast.Tuple)):
        found = []
        for element in expr.elts:
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                return None
            found.append(element.value)
        return found
    return None


def literal_ints(expr: ast.expr) -> list[int] | None:
    value = literal_int(expr)
    if value is not None:
        return [value]
    if isinstance(expr, (ast.List, ast.Tuple)):
        found = []
        for element in expr.elts:
            number = literal_int(element)
            if number is None:
                return None
            found.append(number)
        return found
    return None


def literal_int(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = literal_int(expr.operand)
        return -inner if inner is not None else None
    return None
