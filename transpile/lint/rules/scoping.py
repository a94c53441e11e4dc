"""Scope questions the side-effect rules share: does a name refer outside the running function?"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
from libcst.metadata import BuiltinAssignment, ComprehensionScope, GlobalScope, Scope


def _owner(scope: Scope) -> Scope:
    """Comprehensions run inline: their variables count as the enclosing function's."""
    while isinstance(scope, ComprehensionScope):
        scope = scope.parent
    return scope


def outer_kind(ctx, name: cst.Name) -> str | None:
    """'global' or 'enclosing' when `name` is bound outside its function; None when local."""
    scope = ctx.scopes.get(name)
    if scope is None:
        return None
    assignments = scope[name.value]
    if not assignments:
        return None
    local = _owner(scope)
    for assignment in assignments:
        if isinstance(assignment, BuiltinAssignment) or _owner(assignment.scope) is local:
            return None
    first = next(iter(assignments))
    return "global" if isinstance(first.scope, GlobalScope) else "enclosing"


def root_name(expr: cst.BaseExpression) -> cst.Name | None:
    """`a` for `a`, `a.b[c].d`; None for anything not rooted at a plain name."""
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    return expr if isinstance(expr, cst.Name) else None


def target_names(target: cst.BaseExpression) -> Iterator[cst.Name]:
    """The names an assignment target binds: `a`, `a, (b, *c)`."""
    if isinstance(target, cst.Name):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_names(target.value)


def assignment_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """Targets written by an assignment-like statement collected in traced code."""
    if isinstance(node, cst.Assign):
        return [target.target for target in node.targets]
    if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
        return [node.target]
    if isinstance(node, cst.Del):
        target = node.target
        return [element.value for element in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
    return []


WRITES = (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr, cst.Del)
