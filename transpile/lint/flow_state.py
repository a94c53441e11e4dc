"""What the trace analysis keeps while it runs (frames) and what it hands to the rules (facts)."""

from __future__ import annotations

from dataclasses import dataclass, field

import ast

from .codes import HazardKind
from .flow_values import CONCRETE, Taint, Value, join
from .index import Function


@dataclass
class Hazard:
    """A place where tracing needs a concrete value but gets a traced one."""

    kind: HazardKind
    node: ast.AST
    taint: Taint
    detail: str  # e.g. the conversion: "int", ".item()", "math.sqrt"
    functions: set[Function] = field(default_factory=set)  # the code that holds `node`


@dataclass
class TraceFacts:
    hazards: dict[tuple[HazardKind, int], Hazard] = field(default_factory=dict)
    # Every function body that runs while tracing, with the jit sites (roots) that run it.
    traced: dict[Function, set[int]] = field(default_factory=dict)

    def add_hazard(self, kind: HazardKind, node: ast.AST, taint: Taint, detail: str, function: Function) -> None:
        if not taint:
            return
        key = (kind, id(node))
        hazard = self.hazards.get(key)
        if hazard is None:
            self.hazards[key] = Hazard(kind, node, taint, detail, {function})
        else:
            hazard.taint = hazard.taint | taint
            hazard.functions.add(function)

    def of_kinds(self, kinds: frozenset[HazardKind]) -> list[Hazard]:
        return [hazard for hazard in self.hazards.values() if hazard.kind in kinds]


class Frame:
    """Local variables of one function activation, for one jit site (`root`)."""

    __slots__ = ("root", "function", "parent", "env", "returns")

    def __init__(self, root: int, function: Function, parent: Frame | None = None):
        self.root = root
        self.function = function
        self.parent = parent
        self.env: dict[str, Value] = {}
        self.returns: Value | None = None

    def lookup(self, name: str) -> Value:
        frame: Frame | None = self
        while frame is not None:
            found = frame.env.get(name)
            if found is not None:
                return found
            frame = frame.parent
        return CONCRETE  # globals and builtins are concrete at trace time

    def bind(self, name: str, value: Value) -> None:
        self.env[name] = value

    def add_return(self, value: Value) -> None:
        self.returns = value if self.returns is None else join(self.returns, value)


def merge_envs(a: dict[str, Value], b: dict[str, Value]) -> dict[str, Value]:
    merged = dict(a)
    for name, value in b.items():
        previous = merged.get(name)
        merged[name] = value if previous is None else join(previous, value)
    return merged
