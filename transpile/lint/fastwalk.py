"""A read-only walk over libcst trees, several times faster than `node.visit(visitor)`.

libcst's visitors rebuild every node they pass (its traversal is shared with transformers);
the linter's own passes only read, so they walk the dataclass fields directly, skipping the
whitespace and punctuation fields that never hold code. Subclasses define `enter_<Type>`
(return False to skip the children) and `leave_<Type>` methods, as with libcst's visitors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import libcst as cst

# Fields that only hold whitespace, punctuation or comments.
_SKIPPED = frozenset(
    {
        "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators", "header",
        "footer", "newline", "lbracket", "rbracket", "lbrace", "rbrace", "equal", "colon", "dot",
        "operator", "whitespace", "star_tok", "asynchronous", "trailing_whitespace",
    }
)  # fmt: skip
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type) -> tuple[str, ...]:
    names = tuple(
        field.name
        for field in dataclasses.fields(kind)
        if field.name not in _SKIPPED and not field.name.startswith("whitespace")
    )
    _FIELDS[kind] = names
    return names


def _is_node(kind: type) -> bool:
    # isinstance against libcst's abstract CSTNode is slow; types are few, so cache per type.
    answer = _NODE_TYPES.get(kind)
    if answer is None:
        answer = _NODE_TYPES[kind] = issubclass(kind, cst.CSTNode)
    return answer


_NODE_TYPES: dict[type, bool] = {}


def child_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        value = getattr(node, name)
        kind = type(value)
        if kind is list or kind is tuple:
            for item in value:
                if _is_node(type(item)):
                    yield item
        elif _is_node(kind):
            yield value


class FastWalker:
    _dispatch_cache: dict[type, dict[type, tuple]] = {}

    def walk(self, node: cst.CSTNode) -> None:
        enter, leave = self._hooks(type(node))
        if enter is not None and enter(self, node) is False:
            return
        for child in child_nodes(node):
            self.walk(child)
        if leave is not None:
            leave(self, node)

    def _hooks(self, kind: type) -> tuple:
        table = FastWalker._dispatch_cache.setdefault(type(self), {})
        hooks = table.get(kind)
        if hooks is None:
            cls = type(self)
            hooks = (getattr(cls, f"enter_{kind.__name__}", None), getattr(cls, f"leave_{kind.__name__}", None))
            table[kind] = hooks
        return hooks
