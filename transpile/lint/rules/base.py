"""What every rule is: a code, a name, documentation, examples that double as tests, a check.

A rule's `example` must be flagged by it and its `use_instead` must not be; its `valid` and
`invalid` cases are run by the test suite (tests/lint/test_lint_rules.py), so the
documentation `transpile lint --explain CODE` prints can never drift from what the rule does.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..codes import Code, HazardKind
from ..model import Finding

if TYPE_CHECKING:
    from ..engine import ModuleContext


@dataclass(frozen=True)
class Example:
    """A test case. For invalid code: the line of the finding, text its message must contain,
    and (optionally) the source after applying fixes (`unsafe` fixes included or not)."""

    source: str
    line: int | None = None
    contains: tuple[str, ...] = ()
    fixed: str | None = None
    unsafe: bool = True
    max_unroll: int | None = None

    @property
    def code(self) -> str:
        return textwrap.dedent(self.source).lstrip("\n")


class Rule:
    code: ClassVar[Code]
    # The hazard kinds of the trace analysis this rule turns into findings (each kind has
    # exactly one rule); rules that read the code itself rather than hazards report none.
    reports: ClassVar[frozenset[HazardKind]] = frozenset()
    name: ClassVar[str] = ""  # kebab-case, as in ruff
    summary: ClassVar[str] = ""
    fix: ClassVar[str] = "none"  # "none", "safe", "unsafe", or "sometimes" (some findings)
    what_it_does: ClassVar[str] = ""
    why_bad: ClassVar[str] = ""
    example: ClassVar[str] = ""
    use_instead: ClassVar[str] = ""
    options: ClassVar[tuple[str, ...]] = ()
    valid: ClassVar[tuple[str, ...]] = ()
    invalid: ClassVar[tuple[Example, ...]] = ()

    def check(self, ctx: ModuleContext) -> Iterable[Finding]:
        raise NotImplementedError

    def documentation(self) -> str:
        """Markdown in ruff's layout: what it does, why it is bad, example, use instead."""
        parts = [f"# {self.name} ({self.code})", "", f"Fix is {_FIX_WORDS[self.fix]}.", ""]
        parts += ["## What it does", _clean(self.what_it_does), "", "## Why is this bad?", _clean(self.why_bad), ""]
        parts += ["## Example", "```python", _clean(self.example), "```", ""]
        parts += ["## Use instead", "```python", _clean(self.use_instead), "```"]
        if self.options:
            parts += ["", "## Options", *(f"- `{option}`" for option in self.options)]
        return "\n".join(parts) + "\n"


_FIX_WORDS = {
    "none": "not available",
    "safe": "always available (safe)",
    "unsafe": "always available (unsafe: needs --unsafe-fixes)",
    "sometimes": "sometimes available",
}


def _clean(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
