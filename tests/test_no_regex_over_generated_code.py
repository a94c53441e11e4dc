"""No regular expression reads generated code: the code generator, the backends, the runtime
(build, cache, load) and the exporter decide what a source needs (inputs it reads, headers, the
runtime library, kernel names) from structure recorded while it is spelled, never by searching
the text afterwards.

Checked on the source with `ast`, over every module of transpile/ and runtime/: every use of
the `re` module must sit in a function (or at module level) of a file on the allow-list below,
each entry saying which text it reads, none of which is generated code.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "transpile"
CHECKED = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "runtime").rglob("*.py")])
# The code generator's own folders: no regular expression at all, allow-listed or not.
NEVER = ("transpile/codegen/", "transpile/backends/")
USER_PYTHON = "the user's Python source (lint reads and fixes it)"

# (file under the repository, function or "<module>") -> what its regular expression reads,
# which is not generated code.
ALLOWED = {
    ("runtime/link_inputs.py", "_script_inputs"):
        "the system's linker scripts (libc.so's GROUP ( ... )), to find the libraries they name",
    ("transpile/export.py", "check_name"):
        "the export name the user chose, validated as a C identifier",
    ("transpile/export.py", "_c_identifier"): "a Python argument path ('xs[0]'), made a C name",
    ("transpile/export.py", "_included_headers"):
        "the runtime's own header files (hand-written include/*.h), for the headers they "
        "include in turn",
    ("transpile/export_cli.py", "<module>"): "the `x[3,4]` array specs of the command line",
    ("transpile/export_cli.py", "_example_array"): "a dimension of a command-line array spec",
    ("transpile/stable_repr.py", "<module>"): "Python's repr of an object (its address)",
    ("transpile/batching/vectorize.py", "<module>"): "a gufunc signature the user wrote",
    ("transpile/batching/vectorize.py", "_core_dims"): "a gufunc signature the user wrote",
    ("transpile/lint/engine.py", "<module>"): USER_PYTHON,
    ("transpile/lint/jitsites.py", "lines_mentioning"): USER_PYTHON,
    ("transpile/lint/noqa.py", "<module>"): USER_PYTHON,
    ("transpile/lint/noqa.py", "_codes"): USER_PYTHON,
    ("transpile/lint/walk.py", "<module>"): "lint's rule selectors and path globs",
    ("transpile/lint/walk.py", "_glob_token"): "a path glob of lint's configuration",
    ("transpile/lint/walk.py", "_parse_rule"): "a rule selector of lint's configuration",
    ("runtime/cache_admin.py", "<module>"): "a duration the user typed (`--older-than 3d`)",
    ("runtime/cache_admin.py", "parse_duration"): "a duration the user typed",
    ("runtime/nvcc.py", "normalise_arch"): "the CUDA architecture the user set (sm_90)",
    ("runtime/nvcc.py", "cuda_library_dirs"): "the first line of an nvcc wrapper script",
}


def _key(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


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
            if (_key(path), function) not in ALLOWED:
                found.append(f"{_key(path)}:{line} in {function}")
    assert not found, ("a regular expression where code is generated, built or loaded (record "
                       "what the renderer spells instead, or add an ALLOWED entry saying which "
                       f"non-generated text it reads): {found}")


def test_the_code_generator_and_backends_use_no_regular_expression():
    allowed_there = [key for key in ALLOWED if key[0].startswith(NEVER)]
    used_there = [_key(p) for p in CHECKED if _key(p).startswith(NEVER) and regex_uses(p)]
    assert not allowed_there and not used_there, (allowed_there, used_there)


def test_every_module_is_checked():
    """The check covers the whole compiler and runtime, the renderers included."""
    names = {_key(p) for p in CHECKED}
    assert {"transpile/codegen/c_render.py", "transpile/codegen/cuda_render.py",
            "transpile/backends/cuda.py", "transpile/export.py", "runtime/disk_cache.py",
            "runtime/loader.py"} <= names
    assert len(names) > 100


def test_every_allowed_use_still_exists():
    """A stale allow-list entry would let a later regex in that function pass unseen."""
    present = {(_key(path), function) for path in CHECKED for function, _ in regex_uses(path)}
    assert set(ALLOWED) <= present, set(ALLOWED) - present


def test_the_check_finds_aliases_and_module_level_uses(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import re as regex\nfrom re import findall\nPATTERN = regex.compile('x')\n"
                     "def inputs(text):\n    return findall('in[0-9]+', text)\n")
    assert regex_uses(probe) == [("<module>", 3), ("inputs", 5)]
