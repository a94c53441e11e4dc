"""A fast read-only walk over `ast` trees.

`ast.walk`/`ast.iter_child_nodes` go through generators and `iter_fields` for every node,
which made them the linter's largest cost. Here each node type's child fields are looked up
once, the fields that never hold code (`ctx`, operators) are skipped, and the walk is a loop
over an explicit stack.
"""

from __future__ import annotations

import ast

# Fields that never hold a node: contexts, operators, and plain strings/numbers.
_SKIPPED = frozenset(
    {"ctx", "op", "ops", "type_comment", "kind", "id", "attr", "arg", "name", "module", "level",
     "conversion", "is_async", "lineno", "tag"}
)  # fmt: skip
_FIELDS: dict[type, tuple[str, ...]] = {}
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def child_fields(kind: type) -> tuple[str, ...]:
    found = _FIELDS.get(kind)
    if found is None:
        fields = () if kind is ast.Constant else kind._fields  # a Constant's value is data
        found = _FIELDS[kind] = tuple(name for name in fields if name not in _SKIPPED)
    return found


def descendants(roots: list[ast.AST], skip: tuple[type, ...] = NESTED) -> list[ast.AST]:
    """Every node under `roots` (roots included), not entering nodes of the `skip` types."""
    found: list[ast.AST] = []
    stack = list(reversed(roots))
    append, pop, extend = found.append, stack.pop, stack.extend
    AST = ast.AST
    while stack:
        node = pop()
        if not isinstance(node, AST):
            continue  # names in `global a, b`, a None key of `{**d}`
        append(node)
        if isinstance(node, skip):
            continue
        fields = _FIELDS.get(type(node))
        if fields is None:
            fields = child_fields(type(node))
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                extend(reversed(value))
            elif value is not None:
                stack.append(value)
    return found


def body_of(function) -> list[ast.AST]:
    return function.body if isinstance(function.body, list) else [function.body]


_function_index: dict[int, tuple[ast.AST, dict[type, list[ast.AST]]]] = {}


def function_index(function) -> dict[type, list[ast.AST]]:
    """The nodes of a function's body by type, nested defs and lambdas not entered (memoised:
    the evidence, the traced-code index and the rules all ask about the same functions)."""
    key = id(function)
    held = _function_index.get(key)
    if held is None or held[0] is not function:
        if len(_function_index) > 4096:
            _function_index.clear()
        by_type: dict[type, list[ast.AST]] = {}
        for node in descendants(body_of(function)):
            kind = type(node)
            found = by_type.get(kind)
            if found is None:
                by_type[kind] = [node]
            else:
                found.append(node)
        held = _function_index[key] = (function, by_type)
    return held[1]


def nodes_of(function, *types: type) -> list[ast.AST]:
    index = function_index(function)
    if len(types) == 1:
        return index.get(types[0], [])
    return [node for kind in types for node in index.get(kind, ())]
