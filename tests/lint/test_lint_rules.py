"""Every rule's documented example, `use_instead`, and valid/invalid cases, run as tests."""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace

import pytest

from transpile.lint import LintConfig, fix_source, lint_source
from transpile.lint.rules import ALL_RULES, Example, find_rule


def _config(rule, max_unroll=None) -> LintConfig:
    config = LintConfig(select=(rule.code,))
    return replace(config, max_unroll=max_unroll) if max_unroll is not None else config


def _code(source: str) -> str:
    return textwrap.dedent(source).lstrip("\n")


VALID = [
    pytest.param(rule, source, id=f"{rule.code}-valid-{number}")
    for rule in ALL_RULES
    for number, source in enumerate((rule.use_instead, *rule.valid))
]
INVALID = [
    pytest.param(rule, example, id=f"{rule.code}-invalid-{number}")
    for rule in ALL_RULES
    for number, example in enumerate((Example(rule.example), *rule.invalid))
]


@pytest.mark.parametrize(("rule", "source"), VALID)
def test_valid_examples_are_not_flagged(rule, source):
    findings = lint_source(_code(source), "example.py", _config(rule))
    assert [f for f in findings if f.code == rule.code] == []


@pytest.mark.parametrize(("rule", "example"), INVALID)
def test_invalid_examples_are_flagged(rule, example):
    config = _config(rule, example.max_unroll)
    findings = [f for f in lint_source(example.code, "example.py", config) if f.code == rule.code]
    assert findings, f"{rule.code} missed:\n{example.code}"
    if example.line is not None:
        assert example.line in [f.line for f in findings], [(f.line, f.text) for f in findings]
    for text in example.contains:
        assert any(text in f.text for f in findings), [f.text for f in findings]
    if example.fixed is not None:
        fixed = fix_source(example.code, "example.py", config, unsafe=example.unsafe)
        assert fixed.source == _code(example.fixed)
        assert not [f for f in fixed.findings if f.code == rule.code and f.line == example.line]


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_rule_is_documented(rule):
    assert re.fullmatch(r"TP[1-4]\d\d", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.fix in ("none", "safe", "unsafe", "sometimes")
    for part in (rule.summary, rule.what_it_does, rule.why_bad, rule.example, rule.use_instead):
        assert part.strip()
    assert rule.invalid and (rule.valid or rule.use_instead)
    doc = rule.documentation()
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in doc
    assert find_rule(rule.code) is rule and find_rule(rule.name) is rule


def test_codes_and_names_are_unique():
    assert len({rule.code for rule in ALL_RULES}) == len(ALL_RULES)
    assert len({rule.name for rule in ALL_RULES}) == len(ALL_RULES)
