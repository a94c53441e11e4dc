"""The data a lint run produces: findings, their fixes and the text edits a fix is made of.

Edits are plain text replacements over the original source (as in ruff), computed from libcst
nodes: a rule builds the replacement node with libcst and renders it, so the rest of the file,
its formatting and its comments are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Applicability(str, Enum):
    """Whether `--fix` may apply a fix on its own (`safe`) or needs `--unsafe-fixes`."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class Edit:
    """Replace source[start:end] (character offsets) with `content`; line/col are for humans."""

    start: int
    end: int
    content: str
    line: int
    col: int
    end_line: int
    end_col: int

    def overlaps(self, other: Edit) -> bool:
        # Two insertions at one point also conflict: their order would be arbitrary.
        if self.start == self.end == other.start == other.end:
            return True
        return self.start < other.end and other.start < self.end

    def to_json(self) -> dict:
        return {
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
            "content": self.content,
        }


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    description: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability.value,
            "description": self.description,
            "edits": [edit.to_json() for edit in self.edits],
        }


@dataclass(frozen=True)
class Finding:
    """One diagnostic. `line` is 1-based, `col` 1-based (as ruff prints them)."""

    path: str
    line: int
    col: int
    code: str
    message: str
    help: str = ""
    end_line: int = 0
    end_col: int = 0
    fix: Fix | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        """The one-line form: what is wrong, then how to fix it."""
        return f"{self.message}; {self.help}" if self.help else self.message

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.code)

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line or self.line,
            "end_col": self.end_col or self.col,
            "code": self.code,
            "message": self.text,
            "help": self.help,
            "fix": self.fix.to_json() if self.fix else None,
        }
