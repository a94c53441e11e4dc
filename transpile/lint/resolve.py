"""From a name at a call site to the function definition it runs, through libcst scopes."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst
from libcst.metadata import Scope

from .index import Function, ModuleIndex


def positional_params(function: Function) -> list[str]:
    params = function.params
    return [p.name.value for p in (*params.posonly_params, *params.params)]


def all_params(function: Function) -> list[str]:
    params = function.params
    names = positional_params(function)
    if isinstance(params.star_arg, cst.Param):
        names.append(params.star_arg.name.value)
    names.extend(p.name.value for p in params.kwonly_params)
    if params.star_kwarg is not None:
        names.append(params.star_kwarg.name.value)
    return names


def function_name(function: Function) -> str:
    return function.name.value if isinstance(function, cst.FunctionDef) else "<lambda>"


class Resolver:
    def __init__(self, scopes: Mapping[cst.CSTNode, Scope | None], index: ModuleIndex):
        self.scopes = scopes
        self.index = index

    def definition(self, name: cst.Name) -> Function | None:
        """The one def (or `name = lambda`) that `name` can refer to; None if not exactly one."""
        scope = self.scopes.get(name)
        if scope is None:
            return None
        found: list[Function] = []
        for assignment in scope[name.value]:
            node = getattr(assignment, "node", None)
            value = self.index.value_of.get(node) if isinstance(node, cst.Name) else None
            if isinstance(node, cst.FunctionDef):
                found.append(node)
            elif isinstance(value, cst.Lambda):
                found.append(value)
            elif not isinstance(value, cst.Call):
                return None  # rebound to something we cannot see through
            # `f = tp.jit(f)` (or another wrapper call) keeps `f` meaning the def.
        return found[0] if len(found) == 1 else None

    def method(self, attribute: cst.Attribute, caller: Function | None) -> cst.FunctionDef | None:
        """`self.m` inside a method of class C resolves to C.m (no inheritance is followed)."""
        if not isinstance(caller, cst.FunctionDef) or not isinstance(attribute.value, cst.Name):
            return None
        owner = self.index.owner_class.get(caller)
        params = positional_params(caller)
        if owner is None or not params or attribute.value.value != params[0]:
            return None
        return self.index.methods.get(owner, {}).get(attribute.attr.value)

    def callee(self, func: cst.BaseExpression, caller: Function | None) -> tuple[Function, bool] | None:
        """The function a call runs and whether its first parameter is already bound (self)."""
        if isinstance(func, cst.Name):
            found = self.definition(func)
            return (found, False) if found is not None else None
        if isinstance(func, cst.Attribute):
            found = self.method(func, caller)
            return (found, True) if found is not None else None
        if isinstance(func, cst.Lambda):
            return func, False
        return None

    def enclosing_function(self, node: Function) -> Function | None:
        return self.index.parent_function.get(node)
