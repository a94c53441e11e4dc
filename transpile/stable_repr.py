"""A `repr` of static argument values that is the same in every process.

Static values are described in the generated source's header comment, and the disk key is
the source's hash: any text that varies between processes would make every process
recompile. Sets and frozensets print in hash order (which follows PYTHONHASHSEED for
strings), and default object reprs carry memory addresses; here set elements are sorted
and addresses dropped. Only the comment changes: the traced program decides the code.
"""
from __future__ import annotations

import re

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def stable_repr(value) -> str:
    """`repr(value)` with set elements sorted and object addresses dropped. Containers are
    written children first on an explicit stack (a loop-built static tuple can be deeper
    than Python's recursion limit)."""
    stack, done = [(value, False)], []
    while stack:
        node, ready = stack.pop()
        children = _children(node)
        if children is None:
            done.append(_ADDRESS.sub("", repr(node)))
        elif not ready:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(children))
        else:
            parts = done[len(done) - len(children):]
            del done[len(done) - len(children):]
            done.append(_container(node, parts))
    return done[0]


def _children(value):
    """The items `stable_repr` writes inside a container (a dict's keys and values
    alternating); None for anything written by its own repr."""
    if isinstance(value, (set, frozenset)) or type(value) in (tuple, list):
        return list(value)
    if type(value) is dict:
        return [x for item in value.items() for x in item]
    return None


def _container(value, parts: list) -> str:
    if isinstance(value, (set, frozenset)):
        inner = ", ".join(sorted(parts))
        if type(value) is frozenset:
            return f"frozenset({{{inner}}})" if parts else "frozenset()"
        return f"{{{inner}}}" if parts else "set()"
    if type(value) is tuple:
        inner = ", ".join(parts)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if type(value) is list:
        return "[" + ", ".join(parts) + "]"
    return "{" + ", ".join(f"{k}: {v}" for k, v in zip(parts[::2], parts[1::2])) + "}"
