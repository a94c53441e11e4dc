"""One pass over a module that records what the jit discovery and the rules look up later.

libcst nodes have no parent links, so the few "where is this node" questions (which class owns
this method, is this call inside a loop or a function body, which name is this call assigned
to) are answered here, once, instead of by each rule walking the tree again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

Function = cst.FunctionDef | cst.Lambda


@dataclass(frozen=True)
class CallSite:
    node: cst.Call
    in_loop: bool  # inside a for/while body or a comprehension, at any level
    function: Function | None  # innermost enclosing def or lambda


@dataclass
class ModuleIndex:
    functions: list[cst.FunctionDef] = field(default_factory=list)
    owner_class: dict[cst.FunctionDef, cst.ClassDef] = field(default_factory=dict)
    parent_function: dict[Function, Function] = field(default_factory=dict)
    methods: dict[cst.ClassDef, dict[str, cst.FunctionDef]] = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    assigned_to: dict[cst.Call, cst.Name] = field(default_factory=dict)
    value_of: dict[cst.Name, cst.BaseExpression] = field(default_factory=dict)  # `name = value`


class _Indexer(cst.CSTVisitor):
    def __init__(self) -> None:
        self.index = ModuleIndex()
        # The innermost enclosing def/lambda/class, and how many loops we are inside.
        self._owners: list[cst.CSTNode] = []
        self._loops: list[int] = [0]

    def _function(self) -> Function | None:
        for owner in reversed(self._owners):
            if isinstance(owner, (cst.FunctionDef, cst.Lambda)):
                return owner
        return None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.index.functions.append(node)
        if self._owners and isinstance(self._owners[-1], cst.ClassDef):
            owner = self._owners[-1]
            self.index.owner_class[node] = owner
            self.index.methods.setdefault(owner, {})[node.name.value] = node
        parent = self._function()
        if parent is not None:
            self.index.parent_function[node] = parent
        self._owners.append(node)
        self._loops.append(0)  # a loop outside a def does not re-run code inside it per call

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._owners.pop()
        self._loops.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        parent = self._function()
        if parent is not None:
            self.index.parent_function[node] = parent
        self._owners.append(node)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._owners.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.index.methods.setdefault(node, {})
        self._owners.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._owners.pop()

    def visit_For_body(self, node: cst.For) -> None:
        self._loops[-1] += 1

    def leave_For_body(self, node: cst.For) -> None:
        self._loops[-1] -= 1

    def visit_While_body(self, node: cst.While) -> None:
        self._loops[-1] += 1

    def leave_While_body(self, node: cst.While) -> None:
        self._loops[-1] -= 1

    # The element of a comprehension is visited before its `for` clause, so count the loop
    # from the comprehension node itself.
    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._loops[-1] += 1

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._loops[-1] -= 1

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._loops[-1] += 1

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._loops[-1] -= 1

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._loops[-1] += 1

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._loops[-1] -= 1

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._loops[-1] += 1

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._loops[-1] -= 1

    def visit_Call(self, node: cst.Call) -> None:
        self.index.calls.append(CallSite(node, self._loops[-1] > 0, self._function()))

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            target = node.targets[0].target
            self.index.value_of[target] = node.value
            if isinstance(node.value, cst.Call):
                self.index.assigned_to[node.value] = target


def build_index(module: cst.Module) -> ModuleIndex:
    indexer = _Indexer()
    module.visit(indexer)
    return indexer.index
