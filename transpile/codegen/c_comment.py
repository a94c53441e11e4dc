"""User text inside generated C: only ever within a comment, escaped so it cannot end it.

Function names, file paths and static values (strings included) are the user's, and they
appear in the header and in per-statement source comments. `comment_text` makes any string
inert inside a `/* ... */` comment:
- `*/` cannot appear, so the comment cannot be closed early, and `/*` cannot either (gcc's
  -Wcomment would warn, and a warning fails the build's checks);
- a backslash is doubled and `??` is broken up, so no line splice (`\\` before a newline, or
  the trigraph `??/` that -std=c11 enables) can join a `*` to a following `/`;
- newlines and other control or non-ASCII characters become visible escapes, so the text
  stays on its line and the file stays ASCII.
Every renderer (C, CUDA, exported sources) writes user text through these two functions.
"""
from __future__ import annotations


def _escape_char(ch: str) -> str:
    if ch == "\\":
        return "\\\\"
    if " " <= ch <= "~":
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def comment_text(text: str) -> str:
    """`text` on one line, safe anywhere inside a C block comment."""
    escaped = "".join(map(_escape_char, str(text)))
    # Each replacement is repeated until none is left: "*//" -> "* //" keeps no "*/", but
    # "/*/" needs both passes, and "???" needs two "??" passes.
    for bad, good in (("*/", "* /"), ("/*", "/ *"), ("??", "?\\x3f")):
        while bad in escaped:
            escaped = escaped.replace(bad, good)
    return escaped


def c_comment(text: str) -> str:
    """`/* text */` with `text` escaped."""
    return f"/* {comment_text(text)} */"
