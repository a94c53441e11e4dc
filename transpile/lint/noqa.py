"""`# noqa` comments: per line (`# noqa`, `# noqa: TP101, TP102`) and per file
(`# transpile: noqa`, `# transpile: noqa: TP201`), read from real comment tokens so that a
"# noqa" inside a string literal does not count.

Codes are kept as this linter's `Code`s; other tools' codes on the same comment (`# noqa:
E501, TP101`) are left out, since no finding of ours can have them."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from .codes import Code, parse_code

_CODE = r"[A-Z]+[0-9]+"
LINE_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)
FILE_NOQA = re.compile(rf"#\s*transpile:\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)


@dataclass
class Suppressions:
    lines: dict[int, frozenset[Code] | None] = field(default_factory=dict)  # None: every code
    file_codes: frozenset[Code] | None = frozenset()  # None: the whole file is exempt

    def suppressed(self, code: Code, line: int) -> bool:
        if self.file_codes is None or code in self.file_codes:
            return True
        if line not in self.lines:
            return False
        codes = self.lines[line]
        return codes is None or code in codes


def _codes(match: re.Match[str]) -> frozenset[Code] | None:
    text = match.group("codes")
    if not text:
        return None
    return frozenset(code for code in map(parse_code, re.findall(_CODE, text.upper())) if code is not None)


def parse_suppressions(source: str) -> Suppressions:
    found = Suppressions()
    if "noqa" not in source and "NOQA" not in source.upper():
        return found
    for line, comment in _comments(source):
        file_match = FILE_NOQA.search(comment)
        if file_match:
            found.file_codes = _merge_file(found.file_codes, _codes(file_match))
            continue
        match = LINE_NOQA.search(comment)
        if match:
            found.lines[line] = _merge_line(found.lines.get(line, frozenset()), _codes(match))
    return found


def _merge_file(old: frozenset[Code] | None, new: frozenset[Code] | None) -> frozenset[Code] | None:
    return None if old is None or new is None else old | new


def _merge_line(old: frozenset[Code] | None, new: frozenset[Code] | None) -> frozenset[Code] | None:
    return None if old is None or new is None else old | new


def _comments(source: str):
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string
    except (tokenize.TokenError, SyntaxError):
        # Unfinished source: fall back to a plain per-line search.
        for number, text in enumerate(source.splitlines(), start=1):
            if "#" in text:
                yield number, text[text.index("#") :]
