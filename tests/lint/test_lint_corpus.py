"""The linter on corpora of realistic code, with default settings: working JAX and transpile
programs get no finding at all, and marked hazards (`# expect: CODE` on the line) are found
with recall and precision of at least 0.95."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from transpile.lint import LintConfig, lint_source

CORPUS = Path(__file__).parent / "corpus"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


def _lint(path: Path):
    return lint_source(path.read_text(), str(path), LintConfig())


def _expected(path: Path) -> set[tuple[int, str]]:
    found = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            found.update((number, code.strip()) for code in match.group(1).split(",") if code.strip())
    return found


def _functions(path: Path) -> int:
    tree = ast.parse(path.read_text())
    return sum(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in ast.walk(tree))


VALID = sorted(CORPUS.glob("valid_*.py"))
HAZARDS = sorted(CORPUS.glob("hazards_*.py"))


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_working_code_has_no_findings(path):
    findings = _lint(path)
    assert findings == [], [f"{f.line}: {f.code} {f.text}" for f in findings]


def test_valid_corpus_is_large_enough():
    assert sum(_functions(path) for path in VALID) >= 60


def test_hazards_are_found_with_high_recall_and_precision():
    expected: set[tuple[str, int, str]] = set()
    found: set[tuple[str, int, str]] = set()
    for path in HAZARDS:
        expected |= {(path.name, line, code) for line, code in _expected(path)}
        found |= {(path.name, f.line, f.code) for f in _lint(path)}
    assert len(expected) >= 60
    hits = expected & found
    recall, precision = len(hits) / len(expected), len(hits) / max(len(found), 1)
    report = f"missed: {sorted(expected - found)}\nfalse: {sorted(found - expected)}"
    assert recall >= 0.95, report
    assert precision >= 0.95, report


@pytest.mark.parametrize("path", HAZARDS, ids=lambda p: p.name)
def test_every_hazard_finding_names_what_to_do(path):
    for finding in _lint(path):
        assert finding.help, finding
