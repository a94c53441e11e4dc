"""Apply fixes: non-overlapping edits per round, re-lint, repeat until nothing more applies.

Like ruff, conflicting fixes (two that touch the same text, such as two findings that both
extend one `static_argnames`) are not merged: the first is applied, the file is linted again,
and the second is recomputed against the new text in the next round.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from .config import LintConfig
from .engine import lint_source
from .model import Applicability, Edit, Finding, Fix
from .newer_syntax import parse_any_version

MAX_ROUNDS = 10


@dataclass
class FixResult:
    source: str
    findings: list[Finding]  # what remains after fixing
    applied: int = 0  # fixes applied
    warnings: list[str] = field(default_factory=list)
    initial: int = 0  # findings before fixing

    @property
    def fixed(self) -> int:
        """Findings that went away (one fix can settle several)."""
        return max(0, self.initial - len(self.findings))


def applicable(finding: Finding, unsafe: bool) -> bool:
    fix = finding.fix
    return fix is not None and (fix.applicability is Applicability.SAFE or unsafe)


def fix_source(source: str, path: str, config: LintConfig, unsafe: bool) -> FixResult:
    findings = lint_source(source, path, config)
    result = FixResult(source, findings, initial=len(findings))
    for _ in range(MAX_ROUNDS):
        fixes = [f.fix for f in result.findings if applicable(f, unsafe)]
        if not fixes:
            break
        new_source, count = apply_fixes(result.source, fixes)
        if count == 0 or new_source == result.source:
            break
        if not _parses(new_source, path):
            result.warnings.append(f"{path}: a fix would have produced invalid code; it was not applied")
            break
        result.source = new_source
        result.applied += count
        result.findings = lint_source(new_source, path, config)
    return result


def apply_fixes(source: str, fixes: list[Fix]) -> tuple[str, int]:
    accepted: list[Edit] = []
    count = 0
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        if any(edit.overlaps(other) for edit in fix.edits for other in accepted):
            continue
        accepted.extend(fix.edits)
        count += 1
    for edit in sorted(accepted, key=lambda e: (e.start, e.end), reverse=True):
        source = source[: edit.start] + edit.content + source[edit.end :]
    return source, count


def _parses(source: str, path: str) -> bool:
    """The fixed text is valid Python, and libcst (the concrete-syntax parser) reads it and
    prints it back unchanged. libcst is imported here only: linting never needs it."""
    try:
        parse_any_version(source, path)
    except (SyntaxError, ValueError):
        return False
    import libcst

    try:
        return libcst.parse_module(source).code == source
    except libcst.ParserSyntaxError:
        return True  # newer syntax than this libcst knows; Python's own parser accepted it


def unified_diff(before: str, after: str, path: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=path, tofile=path
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
