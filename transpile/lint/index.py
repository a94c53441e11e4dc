"""One pass over a module's *statements* that records what jit discovery, name resolution and
the rules look up later: functions and their owners, what each scope binds, imports, and
`name = value` assignments.

Expressions (the bulk of a syntax tree) are not walked here: the only expression-level facts
needed for a whole module are the calls that jit something or call a jitted function, and
those are found by walking just the statements on lines whose text can hold such a call
(`calls_on_lines`). Everything else is asked about the few functions tracing runs.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from dataclasses import dataclass, field

from .astwalk import descendants

Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True, eq=False)
class CallSite:
    node: ast.Call
    in_loop: bool  # inside a for/while body or a comprehension, at any level
    function: Function | None  # innermost enclosing def (or lambda)
    loop: ast.AST | None = None  # innermost enclosing loop statement, if any


@dataclass
class Scope:
    """What one function (or the module, `owner=None`) binds."""

    owner: Function | None
    bound: dict[str, list[ast.AST]] = field(default_factory=dict)  # name -> binding nodes
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    declared: dict[str, str] = field(default_factory=dict)  # name -> "global" | "nonlocal"

    def bind(self, name: str, node: ast.AST) -> None:
        self.bound.setdefault(name, []).append(node)


@dataclass(eq=False)
class _Holder:
    """A statement (or a compound statement's header) whose expressions may hold calls."""

    node: ast.AST
    parts: tuple
    function: Function | None
    loop: ast.AST | None


@dataclass
class ModuleIndex:
    tree: ast.Module
    functions: list[ast.FunctionDef] = field(default_factory=list)
    owner_class: dict[Function, ast.ClassDef] = field(default_factory=dict)
    parent_function: dict[Function, Function] = field(default_factory=dict)
    methods: dict[ast.ClassDef, dict[str, ast.FunctionDef]] = field(default_factory=dict)
    classes: list[ast.ClassDef] = field(default_factory=list)
    module: Scope = field(default_factory=lambda: Scope(None))
    scopes: dict[Function, Scope] = field(default_factory=dict)
    value_of: dict[ast.Name, ast.expr] = field(default_factory=dict)  # `name = value`
    assigned_to: dict[ast.Call, ast.Name] = field(default_factory=dict)
    holders: list[_Holder] = field(default_factory=list)
    block_sizes: dict[ast.stmt, int] = field(default_factory=dict)  # statements in its block

    def scope(self, function: Function | None) -> Scope:
        if function is None:
            return self.module
        found = self.scopes.get(function)
        if found is None:  # lambdas get their scope on first use
            found = self.scopes[function] = Scope(function)
            _bind_params(found, function.args)
        return found

    def calls_on_lines(self, lines: set[int]) -> list[CallSite]:
        """Calls in statements that start, end or span one of `lines` (1-based)."""
        found: list[CallSite] = []
        if not lines:
            return found
        ordered = sorted(lines)
        for holder in self.holders:
            node = holder.node
            # The first wanted line at or after the statement's start: is it inside it?
            position = bisect_left(ordered, node.lineno)
            if position < len(ordered) and ordered[position] <= node.end_lineno:
                for part in holder.parts:
                    if part is not None:
                        _collect_calls(part, holder, found)
        return found


def _collect_calls(part: ast.AST, holder: _Holder, found: list[CallSite]) -> None:
    nodes = descendants([part], ())
    inside: set[int] = set()  # calls inside a comprehension run once per element
    for node in nodes:
        if isinstance(node, COMPREHENSIONS):
            inside.update(id(call) for call in descendants([node], ()) if isinstance(call, ast.Call))
    for node in nodes:
        if isinstance(node, ast.Call):
            in_loop = holder.loop is not None or id(node) in inside
            found.append(CallSite(node, in_loop, holder.function, holder.loop))


class _Indexer:
    def __init__(self, index: ModuleIndex):
        self.index = index

    def block(self, body: list[ast.stmt], scope: Scope, cls: ast.ClassDef | None, loop: ast.AST | None) -> None:
        sizes = self.index.block_sizes
        for statement in body:
            sizes[statement] = len(body)
            handler = _HANDLERS.get(type(statement))
            if handler is not None:
                handler(self, statement, scope, cls, loop)
            else:
                self.hold(statement, (statement,), scope, loop)

    def hold(self, node: ast.AST, parts: tuple, scope: Scope, loop: ast.AST | None) -> None:
        self.index.holders.append(_Holder(node, parts, scope.owner, loop))

    def function(self, node, scope: Scope, cls, loop) -> None:
        index = self.index
        index.functions.append(node)
        if cls is not None:
            index.owner_class[node] = cls
            index.methods.setdefault(cls, {})[node.name] = node
        else:
            scope.bind(node.name, node)
        if scope.owner is not None:
            index.parent_function[node] = scope.owner
        self.hold(node, (*node.decorator_list, *_defaults(node.args)), scope, loop)
        inner = index.scopes[node] = Scope(node)
        _bind_params(inner, node.args)
        self.block(node.body, inner, None, None)  # a loop around a def does not re-run its body

    def class_def(self, node: ast.ClassDef, scope: Scope, cls, loop) -> None:
        self.index.classes.append(node)
        self.index.methods.setdefault(node, {})
        scope.bind(node.name, node)
        self.hold(node, (*node.decorator_list, *node.bases, *node.keywords), scope, loop)
        # Class bodies bind class attributes, not variables the methods can see.
        self.block(node.body, Scope(scope.owner), node, loop)

    def assign(self, node: ast.Assign, scope: Scope, cls, loop) -> None:
        for target in node.targets:
            bind_target(scope, target, node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.index.value_of[node.targets[0]] = node.value
            if isinstance(node.value, ast.Call):
                self.index.assigned_to[node.value] = node.targets[0]
        self.hold(node, (node,), scope, loop)

    def other_assign(self, node, scope: Scope, cls, loop) -> None:
        bind_target(scope, node.target, node)
        self.hold(node, (node,), scope, loop)

    def for_loop(self, node, scope: Scope, cls, loop) -> None:
        bind_target(scope, node.target, node)
        self.hold(node, (node.iter,), scope, loop)
        self.block(node.body, scope, cls, node)
        self.block(node.orelse, scope, cls, loop)

    def while_loop(self, node: ast.While, scope: Scope, cls, loop) -> None:
        self.hold(node, (node.test,), scope, node)
        self.block(node.body, scope, cls, node)
        self.block(node.orelse, scope, cls, loop)

    def if_statement(self, node: ast.If, scope: Scope, cls, loop) -> None:
        self.hold(node, (node.test,), scope, loop)
        self.block(node.body, scope, cls, loop)
        self.block(node.orelse, scope, cls, loop)

    def with_statement(self, node, scope: Scope, cls, loop) -> None:
        for item in node.items:
            if item.optional_vars is not None:
                bind_target(scope, item.optional_vars, node)
        self.hold(node, tuple(item.context_expr for item in node.items), scope, loop)
        self.block(node.body, scope, cls, loop)

    def try_statement(self, node, scope: Scope, cls, loop) -> None:
        self.block(node.body, scope, cls, loop)
        for handler in node.handlers:
            if handler.name:
                scope.bind(handler.name, handler)
            self.block(handler.body, scope, cls, loop)
        self.block(node.orelse, scope, cls, loop)
        self.block(node.finalbody, scope, cls, loop)

    def match_statement(self, node, scope: Scope, cls, loop) -> None:
        self.hold(node, (node.subject,), scope, loop)
        for case in node.cases:
            for child in ast.walk(case.pattern):
                name = getattr(child, "name", None)
                if isinstance(name, str):
                    scope.bind(name, child)
            self.block(case.body, scope, cls, loop)

    def import_statement(self, node: ast.Import, scope: Scope, cls, loop) -> None:
        for alias in node.names:
            if alias.asname:
                scope.imports[alias.asname] = alias.name
                scope.bind(alias.asname, node)
            else:
                root = alias.name.split(".")[0]  # `import a.b` binds `a`
                scope.imports[root] = root
                scope.bind(root, node)

    def import_from(self, node: ast.ImportFrom, scope: Scope, cls, loop) -> None:
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            scope.bind(local, node)
            if node.module and not node.level:
                scope.imports[local] = f"{node.module}.{alias.name}"

    def declare(self, node, scope: Scope, cls, loop) -> None:
        kind = "global" if isinstance(node, ast.Global) else "nonlocal"
        for name in node.names:
            scope.declared[name] = kind


_HANDLERS = {
    ast.FunctionDef: _Indexer.function,
    ast.AsyncFunctionDef: _Indexer.function,
    ast.ClassDef: _Indexer.class_def,
    ast.Assign: _Indexer.assign,
    ast.AugAssign: _Indexer.other_assign,
    ast.AnnAssign: _Indexer.other_assign,
    ast.For: _Indexer.for_loop,
    ast.AsyncFor: _Indexer.for_loop,
    ast.While: _Indexer.while_loop,
    ast.If: _Indexer.if_statement,
    ast.With: _Indexer.with_statement,
    ast.AsyncWith: _Indexer.with_statement,
    ast.Try: _Indexer.try_statement,
    ast.Match: _Indexer.match_statement,
    ast.Import: _Indexer.import_statement,
    ast.ImportFrom: _Indexer.import_from,
    ast.Global: _Indexer.declare,
    ast.Nonlocal: _Indexer.declare,
}
if hasattr(ast, "TryStar"):
    _HANDLERS[ast.TryStar] = _Indexer.try_statement


def bind_target(scope: Scope, target: ast.AST, node: ast.AST) -> None:
    if isinstance(target, ast.Name):
        scope.bind(target.id, node)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            bind_target(scope, element, node)
    elif isinstance(target, ast.Starred):
        bind_target(scope, target.value, node)


def _bind_params(scope: Scope, args: ast.arguments) -> None:
    for param in all_args(args):
        scope.bind(param.arg, param)


def all_args(args: ast.arguments) -> list[ast.arg]:
    found = [*args.posonlyargs, *args.args]
    if args.vararg is not None:
        found.append(args.vararg)
    found.extend(args.kwonlyargs)
    if args.kwarg is not None:
        found.append(args.kwarg)
    return found


def _defaults(args: ast.arguments) -> list[ast.expr]:
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None)]


def build_index(tree: ast.Module) -> ModuleIndex:
    index = ModuleIndex(tree)
    _Indexer(index).block(tree.body, index.module, None, None)
    return index
