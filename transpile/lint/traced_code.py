"""The syntax that runs while tracing: the bodies of jitted functions and of everything they
call in this module (helpers, lax bodies), as found by the trace analysis.

Rules that look for a construct in traced code (print, mutation, global reads) ask for nodes by
type here rather than each walking the tree. Nested defs and lambdas are not descended into:
they only run (and are listed on their own) if the analysis saw them called.
"""

from __future__ import annotations

import ast
from collections import defaultdict

from .astwalk import function_index
from .index import Function

COLLECTED = (
    ast.Call, ast.Name, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.For, ast.Global,
    ast.Nonlocal, ast.NamedExpr, ast.Expr,
)  # fmt: skip


class TracedCode:
    def __init__(self, functions: list[Function]):
        self._nodes: dict[type, list[tuple[ast.AST, Function]]] = defaultdict(list)
        self.by_function: dict[Function, dict[type, list[ast.AST]]] = {}
        for function in functions:
            mine = self.by_function[function] = function_index(function)
            for kind in COLLECTED:
                nodes = mine.get(kind)
                if nodes:
                    self._nodes[kind].extend((node, function) for node in nodes)

    def in_function(self, function: Function, *types: type) -> list[ast.AST]:
        mine = self.by_function.get(function, {})
        return [node for kind in types for node in mine.get(kind, ())]

    def of(self, *types: type) -> list[tuple[ast.AST, Function]]:
        found: list[tuple[ast.AST, Function]] = []
        for kind in types:
            found.extend(self._nodes.get(kind, ()))
        return found
