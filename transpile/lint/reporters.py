"""Output formats: text (one line per finding, like `ruff check --output-format concise`),
full (with the source line and the help), json, sarif (2.1.0, for code scanning) and github
(workflow annotations)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

from .codes import ENGINE_CODES
from .model import Applicability, Finding
from .rules import ALL_RULES, RULES_BY_CODE

TOOL_NAME = "transpile-lint"
TOOL_URI = "https://github.com/transpile/transpile"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _marker(finding: Finding, unsafe: bool) -> str:
    fix = finding.fix
    if fix is not None and (fix.applicability is Applicability.SAFE or unsafe):
        return " [*]"
    return ""


def text_report(findings: list[Finding], sources: dict[str, str], unsafe: bool) -> str:
    return "".join(
        f"{f.path}:{f.line}:{f.col}: {f.code}{_marker(f, unsafe)} {f.text}\n" for f in findings
    )


def full_report(findings: list[Finding], sources: dict[str, str], unsafe: bool) -> str:
    blocks = []
    for finding in findings:
        head = f"{finding.path}:{finding.line}:{finding.col}: {finding.code}{_marker(finding, unsafe)} {finding.message}"
        blocks.append("\n".join([head, *_snippet(finding, sources.get(finding.path, ""))]) + "\n")
    return "\n".join(blocks)


def _snippet(finding: Finding, source: str) -> list[str]:
    lines = source.splitlines()
    if not 1 <= finding.line <= len(lines):
        return [f"  = help: {finding.help}"] if finding.help else []
    number = str(finding.line)
    pad = " " * len(number)
    text = lines[finding.line - 1]
    width = (finding.end_col - finding.col) if finding.end_line == finding.line else len(text) - finding.col + 1
    caret = " " * (finding.col - 1) + "^" * max(1, width)
    out = [f"{pad} |", f"{number} | {text}", f"{pad} | {caret}"]
    if finding.help:
        out += [f"{pad} |", f"{pad} = help: {finding.help}"]
    return out


def json_report(findings: list[Finding], sources: dict[str, str], unsafe: bool) -> str:
    return json.dumps([f.to_json() for f in findings], indent=2) + "\n"


def github_report(findings: list[Finding], sources: dict[str, str], unsafe: bool) -> str:
    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    return "".join(
        f"::error title=transpile lint ({f.code}),file={f.path},line={f.line},col={f.col},"
        f"endLine={f.end_line or f.line},endColumn={f.end_col or f.col}::{escape(f.code + ' ' + f.text)}\n"
        for f in findings
    )


def sarif_report(findings: list[Finding], sources: dict[str, str], unsafe: bool) -> str:
    rules = [_sarif_rule(rule) for rule in ALL_RULES]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    for finding in findings:
        if finding.code not in index:  # E999 / E902: the engine's, about a whole file
            index[finding.code] = len(rules)
            rules.append({"id": finding.code, "name": ENGINE_CODES[finding.code],
                          "shortDescription": {"text": "The file could not be parsed, read or analysed"}})  # fmt: skip
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": TOOL_NAME, "informationUri": TOOL_URI, "rules": rules}},
                "results": [_sarif_result(f, index[f.code]) for f in findings],
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def _sarif_rule(rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(rule.what_it_does.split())},
        "help": {"text": " ".join(rule.why_bad.split()), "markdown": rule.documentation()},
        "defaultConfiguration": {"level": "error"},
    }


def _sarif_result(finding: Finding, rule_index: int) -> dict:
    region = {
        "startLine": finding.line,
        "startColumn": finding.col,
        "endLine": finding.end_line or finding.line,
        "endColumn": finding.end_col or finding.col,
    }
    result = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": "error",
        "message": {"text": finding.text},
        "locations": [
            {"physicalLocation": {"artifactLocation": {"uri": _uri(finding.path)}, "region": region}}
        ],
    }
    if finding.fix is not None:
        result["fixes"] = [_sarif_fix(finding)]
    return result


def _sarif_fix(finding: Finding) -> dict:
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.line, "startColumn": edit.col,
                "endLine": edit.end_line, "endColumn": edit.end_col,
            },
            "insertedContent": {"text": edit.content},
        }  # fmt: skip
        for edit in finding.fix.edits
    ]
    return {
        "description": {"text": f"{finding.fix.description} ({finding.fix.applicability.value})"},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(finding.path)}, "replacements": replacements}],
    }


def _uri(path: str) -> str:
    return path.replace("\\", "/").removeprefix("./")


def summary(findings: list[Finding], unsafe: bool, fixed: int = 0) -> str:
    """The closing lines of the text formats, on the model of ruff's."""
    count = len(findings)
    if fixed:
        lines = [f"Found {count + fixed} error{_s(count + fixed)} ({fixed} fixed, {count} remaining).\n"]
    elif findings:
        lines = [f"Found {count} error{_s(count)}.\n"]
    else:
        return "All checks passed!\n"
    safe = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.SAFE)
    hidden = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.UNSAFE)
    if safe or (unsafe and hidden):
        lines.append(f"[*] {safe + (hidden if unsafe else 0)} fixable with the `--fix` option.\n")
    if hidden and not unsafe:
        lines.append(f"({hidden} more fix{'es' if hidden != 1 else ''} available with `--unsafe-fixes`.)\n")
    return "".join(lines)


def statistics(findings: list[Finding]) -> str:
    counts = Counter(f.code for f in findings)
    rows = []
    for code, count in counts.most_common():
        rule = RULES_BY_CODE.get(code)
        rows.append(f"{count:>6}  {code:<6} {rule.name if rule else ''}\n")
    return "".join(rows)


def _s(count: int) -> str:
    return "" if count == 1 else "s"


FORMATS: dict[str, Callable[[list[Finding], dict[str, str], bool], str]] = {
    "text": text_report,
    "concise": text_report,
    "full": full_report,
    "json": json_report,
    "sarif": sarif_report,
    "github": github_report,
}
MACHINE_FORMATS = frozenset({"json", "sarif", "github"})
