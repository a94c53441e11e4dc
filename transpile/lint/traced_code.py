"""The syntax that runs while tracing: the bodies of jitted functions and of everything they
call in this module (helpers, lax bodies), as found by the trace analysis.

Rules that look for a construct in traced code (print, mutation, global reads) ask for nodes by
type here rather than each walking the tree. Nested defs and lambdas are not descended into:
they only run (and are listed on their own) if the analysis saw them called.
"""

from __future__ import annotations

from collections import defaultdict

import libcst as cst

from .fastwalk import child_nodes
from .index import Function

COLLECTED = (
    cst.Call, cst.Name, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Del, cst.For, cst.Global,
    cst.Nonlocal, cst.NamedExpr, cst.SimpleStatementLine,
)  # fmt: skip


NESTED = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


class TracedCode:
    def __init__(self, functions: list[Function]):
        self._nodes: dict[type, list[tuple[cst.CSTNode, Function]]] = defaultdict(list)
        # How many statements share the block of each simple statement line (for deletions).
        self.block_sizes: dict[cst.SimpleStatementLine, int] = {}
        for function in functions:
            _Collector(self, function).walk(function.body)

    def of(self, *types: type) -> list[tuple[cst.CSTNode, Function]]:
        found: list[tuple[cst.CSTNode, Function]] = []
        for kind in types:
            found.extend(self._nodes.get(kind, ()))
        return found


class _Collector:
    def __init__(self, code: TracedCode, function: Function):
        self.code = code
        self.function = function

    def walk(self, node: cst.CSTNode) -> None:
        if isinstance(node, NESTED):
            return
        if isinstance(node, COLLECTED):
            self.code._nodes[type(node)].append((node, self.function))
        if isinstance(node, cst.IndentedBlock):
            for statement in node.body:
                if isinstance(statement, cst.SimpleStatementLine):
                    self.code.block_sizes[statement] = len(node.body)
        for child in child_nodes(node):
            self.walk(child)
