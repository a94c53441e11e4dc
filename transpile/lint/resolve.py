"""From a name at a call site to the function definition it runs, through the index's scopes."""

from __future__ import annotations

import ast

from .index import DEFS, Function, ModuleIndex, all_args


def positional_params(function: Function) -> list[str]:
    args = function.args
    return [p.arg for p in (*args.posonlyargs, *args.args)]


def all_params(function: Function) -> list[str]:
    return [p.arg for p in all_args(function.args)]


def function_name(function: Function) -> str:
    return function.name if isinstance(function, DEFS) else "<lambda>"


class Resolver:
    def __init__(self, index: ModuleIndex):
        self.index = index

    def definition(self, name: str, caller: Function | None) -> Function | None:
        """The one def (or `name = lambda`) that `name` can refer to; None if not exactly one."""
        owner = caller
        while owner is not None:
            scope = self.index.scope(owner)
            if scope.declared.get(name) == "global":
                owner = None
                break
            if name in scope.bound:
                break
            owner = self.index.parent_function.get(owner)
        bindings = self.index.scope(owner).bound.get(name, [])
        found: list[Function] = []
        for node in bindings:
            value = node.value if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
            if isinstance(node, DEFS):
                found.append(node)
            elif isinstance(value, ast.Lambda):
                found.append(value)
            elif not isinstance(value, ast.Call):
                return None  # rebound to something we cannot see through
            # `f = tp.jit(f)` (or another wrapper call) keeps `f` meaning the def.
        return found[0] if len(found) == 1 else None

    def method(self, attribute: ast.Attribute, caller: Function | None) -> ast.FunctionDef | None:
        """`self.m` inside a method of class C resolves to C.m (no inheritance is followed)."""
        if not isinstance(caller, DEFS) or not isinstance(attribute.value, ast.Name):
            return None
        owner = self.index.owner_class.get(caller)
        params = positional_params(caller)
        if owner is None or not params or attribute.value.id != params[0]:
            return None
        return self.index.methods.get(owner, {}).get(attribute.attr)

    def callee(self, func: ast.expr, caller: Function | None) -> tuple[Function, bool] | None:
        """The function a call runs and whether its first parameter is already bound (self)."""
        if isinstance(func, ast.Name):
            found = self.definition(func.id, caller)
            return (found, False) if found is not None else None
        if isinstance(func, ast.Attribute):
            found = self.method(func, caller)
            return (found, True) if found is not None else None
        if isinstance(func, ast.Lambda):
            return func, False
        return None
