"""The syntax that runs while tracing: the bodies of jitted functions and of everything they
call in this module (helpers, lax bodies), as found by the trace analysis.

Rules that look for a construct in traced code (print, mutation, global reads) ask for nodes by
type here rather than each walking the tree. Nested defs and lambdas are not descended into:
they only run (and are listed on their own) if the analysis saw them called.
"""

from __future__ import annotations

import ast
from collections import defaultdict

from .index import Function

COLLECTED = (
    ast.Call, ast.Name, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.For, ast.Global,
    ast.Nonlocal, ast.NamedExpr, ast.Expr,
)  # fmt: skip
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class TracedCode:
    def __init__(self, functions: list[Function]):
        self._nodes: dict[type, list[tuple[ast.AST, Function]]] = defaultdict(list)
        for function in functions:
            body = function.body if isinstance(function.body, list) else [function.body]
            for statement in body:
                self._walk(statement, function)

    def _walk(self, node: ast.AST, function: Function) -> None:
        if isinstance(node, NESTED):
            return
        if isinstance(node, COLLECTED):
            self._nodes[type(node)].append((node, function))
        for child in ast.iter_child_nodes(node):
            self._walk(child, function)

    def of(self, *types: type) -> list[tuple[ast.AST, Function]]:
        found: list[tuple[ast.AST, Function]] = []
        for kind in types:
            found.extend(self._nodes.get(kind, ()))
        return found
