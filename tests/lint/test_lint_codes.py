"""The linter's vocabularies are enums: each hazard kind the analysis records is reported by
exactly one rule, each code belongs to a rule or to the engine, and codes read as plain text
wherever users see or write them (messages, JSON, noqa, selectors)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from transpile.lint import LintConfig, lint_source
from transpile.lint.codes import ENGINE_CODES, Code, HazardKind, parse_code
from transpile.lint.config import ConfigError, validate_selectors
from transpile.lint.noqa import parse_suppressions
from transpile.lint.rules import ALL_RULES, RULES_BY_CODE

LINT = Path(__file__).resolve().parents[2] / "transpile" / "lint"


def test_every_hazard_kind_has_exactly_one_rule():
    owners = {kind: [rule.code for rule in ALL_RULES if kind in rule.reports] for kind in HazardKind}
    assert {kind: codes for kind, codes in owners.items() if len(codes) != 1} == {}


def test_every_hazard_kind_is_recorded_by_the_analysis():
    analysis = "".join(path.read_text() for path in LINT.glob("flow*.py"))
    recorded = set(re.findall(r"HazardKind\.([A-Z]+)", analysis))
    assert recorded == {kind.name for kind in HazardKind}


def test_every_code_belongs_to_one_rule_or_the_engine():
    assert set(RULES_BY_CODE).isdisjoint(ENGINE_CODES)
    assert set(RULES_BY_CODE) | set(ENGINE_CODES) == set(Code)
    assert all(isinstance(rule.code, Code) for rule in ALL_RULES)


def test_codes_read_as_plain_text():
    assert Code.TP101 == "TP101" and f"{Code.TP101}" == "TP101" and str(Code.E999) == "E999"
    assert parse_code(" tp102 ") is Code.TP102 and parse_code("E501") is None
    finding = lint_source("import jax\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n", "m.py", LintConfig())[0]
    assert finding.code is Code.TP101
    assert json.loads(json.dumps(finding.to_json()))["code"] == "TP101"


def test_noqa_keeps_our_codes_and_leaves_other_tools_codes_out():
    found = parse_suppressions("x = 1  # noqa: E501, tp101\ny = 2  # noqa: E501\n")
    assert found.lines[1] == frozenset({Code.TP101}) and found.lines[2] == frozenset()
    assert found.suppressed(Code.TP101, 1) and not found.suppressed(Code.TP102, 1)
    assert not found.suppressed(Code.TP101, 2)


@pytest.mark.parametrize("selector", ["TP", "TP1", "TP101", "E9", "ALL"])
def test_selectors_that_name_codes_are_accepted(selector):
    validate_selectors((selector,))


@pytest.mark.parametrize("selector", ["TP9", "X1", "tp101"])
def test_selectors_that_name_no_code_are_refused(selector):
    with pytest.raises(ConfigError, match=repr(selector)):
        validate_selectors((selector,))


def test_per_file_ignores_are_checked_like_other_selectors():
    from transpile.lint.config import selectors_of

    config = LintConfig(per_file_ignores=(("tests/*", ("TP301", "TP999")),))
    with pytest.raises(ConfigError, match="'TP999'"):
        validate_selectors(selectors_of(config))
