"""The abstract values of the trace analysis: which traced inputs a Python value depends on.

A `Taint` is the set of traced inputs (`Origin`s) a value is computed from, plus whether it
went through array operations (indexing, reductions, `tnp` calls). An untainted value is
concrete at trace time: Python may branch on it. `Value` adds just enough structure to follow
tuples (`a, b = f(x)`), iteration (`for i, row in enumerate(x)`) and local functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import ast


@dataclass(frozen=True, order=True)
class Origin:
    name: str  # the parameter's name
    root: int  # the jit site whose tracing makes it a tracer
    kind: str = "arg"  # "arg": an argument of the jitted function; "body": of a lax body


@dataclass(frozen=True)
class Taint:
    origins: frozenset[Origin] = frozenset()
    array: bool = False  # derived through array operations, not just a scalar argument

    def __bool__(self) -> bool:
        return bool(self.origins)

    def __or__(self, other: Taint) -> Taint:
        if not other.origins:
            return self
        if not self.origins:
            return other
        return Taint(self.origins | other.origins, self.array or other.array)

    def as_array(self) -> Taint:
        return Taint(self.origins, True) if self.origins and not self.array else self

    def names(self) -> list[str]:
        return sorted({origin.name for origin in self.origins})


CLEAN = Taint()


@dataclass(frozen=True)
class Value:
    taint: Taint = CLEAN
    items: tuple[Value, ...] | None = None  # elements of a tuple/list of known length
    elem: Value | None = None  # what iterating yields, when that differs from `taint`
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None = None  # a local def or lambda
    # A Python tuple/list/dict/generator holding the traced values: its truth value and length
    # are concrete even though its elements are not.
    container: bool = False
    mask: bool = False  # a boolean array (a comparison of traced values): indexing with it gives a data-dependent shape

    def element(self) -> Value:
        """The value a `for` loop binds when iterating over this one."""
        if self.elem is not None:
            return self.elem
        if self.items:
            return join_all(self.items)
        # Rows of an array or leaves of a list/tuple argument: array data either way.
        return Value(self.taint.as_array())

    def item(self, position: int) -> Value:
        if self.items is not None and -len(self.items) <= position < len(self.items):
            return self.items[position]
        return self.element()


CONCRETE = Value()


def of(taint: Taint) -> Value:
    return Value(taint) if taint else CONCRETE


def join(a: Value, b: Value) -> Value:
    if a == b:
        return a
    items = None
    if a.items is not None and b.items is not None and len(a.items) == len(b.items):
        items = tuple(join(x, y) for x, y in zip(a.items, b.items))
    elem = join(a.element(), b.element()) if (a.elem or b.elem) else None
    function = a.function if a.function is b.function else None
    return Value(a.taint | b.taint, items, elem, function, a.container and b.container, a.mask and b.mask)


def join_all(values) -> Value:
    result = CONCRETE
    for value in values:
        result = join(result, value)
    return result


def taint_of(values) -> Taint:
    taint = CLEAN
    for value in values:
        taint = taint | value.taint
    return taint


def tuple_of(values: list[Value]) -> Value:
    return Value(taint_of(values), tuple(values), container=True)


def container_of(taint: Taint) -> Value:
    return Value(taint, container=True)
