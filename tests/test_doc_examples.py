"""The Python examples in the README and the porting guide run as written, and the links
between the README and docs/ resolve.

Each document's ```python blocks (indented ones inside list items too) run in order in one
namespace, statement by statement. A statement whose last line ends in `# raises NAME` must
raise an exception of that class (or a subclass): that is how the guide shows what is not
supported, so a gap that gets filled fails here until the guide says so.
"""
from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

import transpile as tp

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/porting_from_jax.md"]
_LINK = re.compile(r"\]\((?!https?:|#)(?P<path>[^)#\s]+)(?:#[^)]*)?\)")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*\n(?P<body>.*?)^(?P=indent)```",
                    re.M | re.S)
_RAISES = re.compile(r"#\s*raises\s+(\w+)\s*$")


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number, dedented source) of each ```python block in a Markdown text."""
    return [(text.count("\n", 0, m.start()) + 2, textwrap.dedent(m.group("body")))
            for m in _FENCE.finditer(text)]


def _expected_error(source_lines: list[str], statement: ast.stmt) -> str | None:
    found = _RAISES.search(source_lines[statement.end_lineno - 1])
    return found.group(1) if found else None


def run_block(source: str, namespace: dict, where: str) -> None:
    lines = source.splitlines()
    for statement in ast.parse(source, where).body:
        code = compile(ast.Module([statement], []), where, "exec")
        expected = _expected_error(lines, statement)
        if expected is None:
            exec(code, namespace)
            continue
        try:
            exec(code, namespace)
        except Exception as error:     # noqa: BLE001 (matched by name below)
            raised = [cls.__name__ for cls in type(error).__mro__]
            assert expected in raised, f"{where}: expected {expected}, got {error!r}"
        else:
            pytest.fail(f"{where}, line {statement.lineno} of the block: expected {expected}, "
                        "but it ran: update the document (the feature exists now)")


@pytest.mark.parametrize("document", DOCUMENTS)
def test_document_examples_run(document, capsys):
    blocks = python_blocks((ROOT / document).read_text())
    assert blocks, f"{document} has no python examples"
    namespace = {"__name__": "__doc_example__"}
    with tp.config.settings():          # examples may switch the dtype rules: restore them
        for line, source in blocks:
            run_block(source, namespace, f"{document}:{line}")


def test_blocks_are_found_inside_list_items():
    text = "- item:\n\n  ```python\n  x = 1\n  ```\n\n```python\ny = 2\n```\n"
    assert python_blocks(text) == [(4, "x = 1\n"), (8, "y = 2\n")]


def test_a_raises_line_that_runs_fails():
    with pytest.raises(pytest.fail.Exception, match="expected KeyError"):
        run_block("x = 1   # raises KeyError\n", {}, "probe")
    run_block("{}['a']   # raises LookupError\n", {}, "probe")


@pytest.mark.parametrize("document", ["README.md", *sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_relative_links_resolve(document):
    """The README is an index of docs/: every file it (or a doc) links to exists."""
    path = ROOT / document
    prose = re.sub(r"`[^`\n]*`", "", re.sub(r"(?ms)^\s*```.*?^\s*```", "", path.read_text()))
    missing = [m.group("path") for m in _LINK.finditer(prose)
               if not (path.parent / m.group("path")).exists()]
    assert not missing, f"{document} links to missing files: {missing}"
