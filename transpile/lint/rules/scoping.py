"""Scope questions the side-effect rules share: does a name refer outside the running function,
and to what kind of object?"""

from __future__ import annotations

import ast
from collections.abc import Iterator

CONTAINER_CALLS = frozenset(
    {"list", "dict", "set", "bytearray", "collections.defaultdict", "collections.deque",
     "collections.OrderedDict", "collections.Counter"}
)  # fmt: skip
CONTAINER_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
# Documented mutable references that jitted code may write (`ref[...] = x`).
REF_FACTORIES = ("new_ref", "Ref", "Variable", "Param", "BatchStat")


def outer_binding(ctx, name: str, function) -> tuple[str, list[ast.AST]] | None:
    """('global' | 'enclosing', the binding nodes) when `name` is bound outside `function`;
    None when it is local, a builtin, or unknown."""
    if ctx.names.is_local(name, function):
        return None
    scope = ctx.index.scope(function) if function is not None else None
    declared = scope.declared.get(name) if scope is not None else None
    owner = None if declared == "global" else ctx.index.parent_function.get(function)
    while owner is not None:
        bound = ctx.index.scope(owner).bound.get(name)
        if bound:
            return "enclosing", bound
        owner = ctx.index.parent_function.get(owner)
    bound = ctx.index.module.bound.get(name)
    return ("global", bound) if bound else None


def is_import(nodes: list[ast.AST]) -> bool:
    return any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in nodes)


def bound_value(nodes: list[ast.AST]) -> ast.expr | None:
    """The value of a name bound once by `name = value`."""
    if len(nodes) != 1 or not isinstance(nodes[0], (ast.Assign, ast.AnnAssign)):
        return None
    return nodes[0].value


def is_container_value(ctx, value: ast.expr | None) -> bool:
    if isinstance(value, CONTAINER_DISPLAYS):
        return True
    if isinstance(value, ast.Call):
        return ctx.names.qualified(value.func, None) in {f"builtins.{n}" for n in CONTAINER_CALLS} | CONTAINER_CALLS
    return False


def is_ref_value(value: ast.expr | None) -> bool:
    """`jax.new_ref(...)`, `nnx.Variable(...)`: a reference made to be written from traced code."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    leaf = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return leaf in REF_FACTORIES


def root_name(expr: ast.expr) -> ast.Name | None:
    """`a` for `a`, `a.b[c].d`; None for anything not rooted at a plain name."""
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr if isinstance(expr, ast.Name) else None


def target_names(target: ast.expr) -> Iterator[ast.Name]:
    """The names an assignment target binds: `a`, `a, (b, *c)`."""
    if isinstance(target, ast.Name):
        yield target
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from target_names(element)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def assignment_targets(node: ast.AST) -> list[ast.expr]:
    """Targets written by an assignment-like statement collected in traced code."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
        return [node.target]
    if isinstance(node, ast.Delete):
        found = []
        for target in node.targets:
            found.extend(target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])
        return found
    return []


WRITES = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr, ast.Delete)
