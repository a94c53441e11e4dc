"""One pass over a module that records what the jit discovery and the rules look up later.

libcst nodes have no parent links, so the few "where is this node" questions (which class owns
this method, is this call inside a loop or a function body, which name is this call assigned
to) are answered here, once, instead of by each rule walking the tree again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .fastwalk import FastWalker

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


class _Indexer(FastWalker):
    def __init__(self) -> None:
        self.index = ModuleIndex()
        # The enclosing defs/lambdas/classes, and how many loops we are inside per def.
        self._owners: list[cst.CSTNode] = []
        self._loops: list[int] = [0]

    def _function(self) -> Function | None:
        for owner in reversed(self._owners):
            if isinstance(owner, (cst.FunctionDef, cst.Lambda)):
                return owner
        return None

    def enter_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.index.functions.append(node)
        if self._owners and isinstance(self._owners[-1], cst.ClassDef):
            owner = self._owners[-1]
            self.index.owner_class[node] = owner
            self.index.methods.setdefault(owner, {})[node.name.value] = node
        parent = self._function()
        if parent is not None:
            self.index.parent_function[node] = parent
        self._owners.append(node)
        self._loops.append(0)  # a loop around a def does not re-run its body per pass

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._owners.pop()
        self._loops.pop()

    def enter_Lambda(self, node: cst.Lambda) -> None:
        parent = self._function()
        if parent is not None:
            self.index.parent_function[node] = parent
        self._owners.append(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._owners.pop()

    def enter_ClassDef(self, node: cst.ClassDef) -> None:
        self.index.methods.setdefault(node, {})
        self._owners.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._owners.pop()

    def _looping(self, *parts) -> bool:
        """Walk `parts` as code that runs once per pass of a loop."""
        self._loops[-1] += 1
        for part in parts:
            if part is not None:
                self.walk(part)
        self._loops[-1] -= 1
        return False

    def enter_For(self, node: cst.For) -> bool:
        self.walk(node.target)
        self.walk(node.iter)
        return self._looping(node.body, node.orelse)

    def enter_While(self, node: cst.While) -> bool:
        return self._looping(node.test, node.body, node.orelse)

    def _comprehension(self, node) -> None:
        self._loops[-1] += 1

    def _comprehension_done(self, node) -> None:
        self._loops[-1] -= 1

    enter_ListComp = enter_SetComp = enter_DictComp = enter_GeneratorExp = _comprehension
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _comprehension_done

    def enter_Call(self, node: cst.Call) -> None:
        self.index.calls.append(CallSite(node, self._loops[-1] > 0, self._function()))

    def enter_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            target = node.targets[0].target
            self.index.value_of[target] = node.value
            if isinstance(node.value, cst.Call):
                self.index.assigned_to[node.value] = target


def build_index(module: cst.Module) -> ModuleIndex:
    indexer = _Indexer()
    indexer.walk(module)
    return indexer.index
