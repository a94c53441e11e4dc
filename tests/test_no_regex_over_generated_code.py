"""No regular expression reads generated code: the code generator, the backends and the
exporter decide what a source needs (inputs it reads, headers, the runtime library) from
structure recorded while it is spelled, never by searching the text afterwards.

Checked on the source with `ast`: every use of the `re` module in those files must sit in a
function of the allow-list below, each entry saying which non-generated text it reads.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "transpile"
CHECKED = sorted([*(PACKAGE / "codegen").glob("*.py"), *(PACKAGE / "backends").glob("*.py"),
                  PACKAGE / "export.py"])

# (file, function) -> what its regular expression reads, which is not generated code.
ALLOWED = {
    ("export.py", "check_name"): "the export name the user chose, validated as a C identifier",
    ("export.py", "_c_identifier"): "a Python argument path ('xs[0]'), made a C name",
    ("export.py", "_included_headers"): "the runtime's own header files (hand-written "
                                        "include/*.h), for the headers they include in turn",
}


def _re_names(tree: ast.AST) -> set[str]:
    """Names the module binds to `re` or to something imported from it."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "re"}
        elif isinstance(node, ast.ImportFrom) and node.module == "re":
            names |= {a.asname or a.name for a in node.names}
    return names


def regex_uses(path: Path) -> list[tuple[str, int]]:
    """(enclosing function, line) of every use of the `re` module in `path`."""
    tree = ast.parse(path.read_text(), str(path))
    names = _re_names(tree)
    uses = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Name) and child.id in names:
                uses.append((function, child.lineno))
            visit(child, function)
    visit(tree, "<module>")
    return uses


def test_no_regular_expression_reads_generated_code():
    found = []
    for path in CHECKED:
        for function, line in regex_uses(path):
            if (path.name, function) not in ALLOWED:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} in {function}")
    assert not found, ("a regular expression where code is generated or loaded (record what "
                       "the renderer spells instead, or add an ALLOWED entry saying which "
                       f"non-generated text it reads): {found}")


def test_every_allowed_use_still_exists():
    """A stale allow-list entry would let a later regex in that function pass unseen."""
    present = {(path.name, function) for path in CHECKED for function, _ in regex_uses(path)}
    assert set(ALLOWED) <= present, set(ALLOWED) - present


def test_the_check_finds_aliases_and_module_level_uses(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import re as regex\nfrom re import findall\nPATTERN = regex.compile('x')\n"
                     "def inputs(text):\n    return findall('in[0-9]+', text)\n")
    assert regex_uses(probe) == [("<module>", 3), ("inputs", 5)]
