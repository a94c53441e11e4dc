"""`# noqa` comments: per line (`# noqa`, `# noqa: TP101, TP102`) and per file
(`# transpile: noqa`, `# transpile: noqa: TP201`), read from real comment tokens so that a
"# noqa" inside a string literal does not count."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

_CODE = r"[A-Z]+[0-9]+"
LINE_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)
FILE_NOQA = re.compile(rf"#\s*transpile:\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)


@dataclass
class Suppressions:
    lines: dict[int, frozenset[str] | None] = field(default_factory=dict)  # None: every code
    file_codes: frozenset[str] | None = frozenset()  # None: the whole file is exempt

    def suppressed(self, code: str, line: int) -> bool:
        if self.file_codes is None or code in self.file_codes:
            return True
        if line not in self.lines:
            return False
        codes = self.lines[line]
        return codes is None or code in codes


def _codes(match: re.Match[str]) -> frozenset[str] | None:
    text = match.group("codes")
    return frozenset(re.findall(_CODE, text.upper())) if text else None


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


def _merge_file(old: frozenset[str] | None, new: frozenset[str] | None) -> frozenset[str] | None:
    return None if old is None or new is None else old | new


def _merge_line(old: frozenset[str] | None, new: frozenset[str] | None) -> frozenset[str] | None:
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
