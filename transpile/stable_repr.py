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
    if isinstance(value, (set, frozenset)):
        items = sorted(stable_repr(v) for v in value)
        inner = ", ".join(items)
        if type(value) is frozenset:
            return f"frozenset({{{inner}}})" if items else "frozenset()"
        return f"{{{inner}}}" if items else "set()"
    if type(value) is tuple:
        inner = ", ".join(stable_repr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if type(value) is list:
        return "[" + ", ".join(stable_repr(v) for v in value) + "]"
    if type(value) is dict:
        return "{" + ", ".join(f"{stable_repr(k)}: {stable_repr(v)}"
                               for k, v in value.items()) + "}"
    return _ADDRESS.sub("", repr(value))
