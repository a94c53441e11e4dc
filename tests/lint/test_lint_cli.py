"""The command line: exit codes, output formats, selection, configuration, fixes, noqa."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from transpile.lint.cli import main

REPO = Path(__file__).resolve().parents[2]

BAD = textwrap.dedent(
    """\
    import transpile as tp


    @tp.jit
    def g(x, n):
        i = 0
        while i < n:
            i += 1
        print(x)
        return x + i
    """
)
CLEAN = "import transpile as tp\n\n\n@tp.jit\ndef f(x):\n    return x + 1\n"
UNHASHABLE = textwrap.dedent(
    """\
    import transpile as tp


    def scale(x, factors):
        return x * factors[0]


    scale_jit = tp.jit(scale, static_argnames=['factors'])
    y = scale_jit(2.0, [3, 4])
    """
)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def write(files: dict[str, str]) -> Path:
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return tmp_path

    return write


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_exit_status_clean_findings_and_usage(tree, capsys):
    tree({"clean.py": CLEAN, "bad.py": BAD})
    assert run(["clean.py"], capsys)[0] == 0
    status, out, _ = run(["bad.py"], capsys)
    assert status == 1
    assert "bad.py:7:5: TP101 'while' depends on the value of traced argument 'n'" in out
    assert "bad.py:9:5: TP201" in out
    assert run(["bad.py", "--exit-zero"], capsys)[0] == 0
    assert run(["missing.py"], capsys)[0] == 2
    assert run(["--select", "XYZ1", "bad.py"], capsys)[0] == 2
    assert run(["--no-such-option"], capsys)[0] == 2
    assert run(["--help"], capsys)[0] == 0


def test_syntax_error_is_reported_and_the_rest_is_linted(tree, capsys):
    tree({"a_broken.py": "import transpile\ndef f(:\n", "b_bad.py": BAD, "c_plain.py": "x = (\n"})
    status, out, _ = run(["."], capsys)
    assert status == 1
    assert "a_broken.py:2:7: E999 SyntaxError" in out
    assert "c_plain.py:1:" in out and "E999" in out
    assert "b_bad.py:7:5: TP101" in out


def test_json_format(tree, capsys):
    tree({"bad.py": BAD})
    status, out, _ = run(["bad.py", "--format", "json"], capsys)
    assert status == 1
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 2
    for item in data:
        assert {"path", "line", "col", "code", "message", "fix"} <= set(item)
        assert isinstance(item["line"], int) and isinstance(item["col"], int)
    tp101 = next(item for item in data if item["code"] == "TP101")
    assert tp101["path"] == "bad.py" and (tp101["line"], tp101["col"]) == (7, 5)
    assert tp101["fix"]["applicability"] == "unsafe"
    edit = tp101["fix"]["edits"][0]
    assert {"line", "col", "end_line", "end_col", "content"} <= set(edit)
    assert "static_argnames=['n']" in edit["content"]
    assert run(["--format", "json", "--isolated", "bad.py", "--select", "TP3"], capsys)[1].strip() == "[]"


def test_sarif_format(tree, capsys):
    tree({"bad.py": BAD})
    status, out, _ = run(["bad.py", "--format", "sarif"], capsys)
    assert status == 1
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0" and "sarif" in sarif["$schema"]
    (run_,) = sarif["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert run_["tool"]["driver"]["name"]
    assert [rule["id"] for rule in rules][:2] == ["TP101", "TP102"]
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        assert result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == "bad.py"
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    fixes = [r for r in run_["results"] if "fixes" in r]
    assert fixes and fixes[0]["fixes"][0]["artifactChanges"][0]["replacements"]


def test_full_and_github_formats(tree, capsys):
    tree({"bad.py": BAD})
    out = run(["bad.py", "--format", "full"], capsys)[1]
    assert "7 |     while i < n:" in out and "= help: add static_argnames=['n']" in out
    out = run(["bad.py", "--format", "github"], capsys)[1]
    assert out.startswith("::error title=transpile lint (TP101),file=bad.py,line=7,col=5")


def test_select_ignore_and_statistics(tree, capsys):
    tree({"bad.py": BAD})
    out = run(["bad.py", "--select", "TP2"], capsys)[1]
    assert "TP201" in out and "TP101" not in out
    out = run(["bad.py", "--ignore", "TP201"], capsys)[1]
    assert "TP101" in out and "TP201" not in out
    out = run(["bad.py", "--statistics"], capsys)[1]
    assert "TP101" in out and "traced-control-flow" in out


def test_pyproject_configuration(tree, capsys):
    loops = "import transpile as tp\n\n@tp.jit\ndef f(x):\n    for i in range(50):\n        x = x + i\n    return x\n"
    root = tree({"pkg/loops.py": loops, "pkg/bad.py": BAD})
    assert run(["pkg"], capsys)[0] == 1
    (root / "pyproject.toml").write_text(
        '[tool.transpile.lint]\nignore = ["TP201"]\nmax-unroll = 10\nextend-exclude = ["bad.py"]\n'
    )
    status, out, _ = run(["pkg"], capsys)
    assert status == 1 and "TP403" in out and "bad.py" not in out
    assert run(["pkg", "--max-unroll", "60"], capsys)[0] == 0
    assert run(["pkg/bad.py", "--select", "TP201"], capsys)[0] == 1  # named files are always linted
    (root / "pyproject.toml").write_text("[tool.transpile.lint]\nbogus = 1\n")
    status, _, err = run(["pkg"], capsys)
    assert status == 2 and "bogus" in err
    assert run(["pkg", "--isolated", "--select", "TP403"], capsys)[0] == 0


def test_noqa(tree, capsys):
    suppressed = BAD.replace("while i < n:", "while i < n:  # noqa: TP101").replace("print(x)", "print(x)  # noqa")
    tree({"bad.py": suppressed, "other.py": BAD.replace("print(x)", "print(x)  # noqa: TP101")})
    assert run(["bad.py"], capsys)[0] == 0
    out = run(["other.py"], capsys)[1]
    assert "TP201" in out
    tree({"file.py": "# transpile: noqa\n" + BAD})
    assert run(["file.py"], capsys)[0] == 0


def test_fix_applies_safe_fixes_only(tree, capsys):
    root = tree({"u.py": UNHASHABLE, "bad.py": BAD})
    status, out, _ = run(["u.py", "--fix"], capsys)
    assert status == 0 and "Found 1 error (1 fixed, 0 remaining)." in out
    assert "scale_jit(2.0, (3, 4))" in (root / "u.py").read_text()
    status, _, _ = run(["bad.py", "--fix"], capsys)
    assert status == 1 and (root / "bad.py").read_text() == BAD  # only unsafe fixes there


def test_unsafe_fixes_round_trip(tree, capsys):
    root = tree({"bad.py": BAD})
    status, out, _ = run(["bad.py", "--unsafe-fixes"], capsys)
    fixed = (root / "bad.py").read_text()
    assert status == 0, out
    assert "@partial(tp.jit, static_argnames=['n'])" in fixed and "from functools import partial" in fixed
    assert "print(x)" not in fixed
    assert run(["bad.py"], capsys)[0] == 0  # fixed code is clean, and fixing again changes nothing
    assert run(["bad.py", "--unsafe-fixes"], capsys)[0] == 0 and (root / "bad.py").read_text() == fixed


def test_diff_shows_and_writes_nothing(tree, capsys):
    root = tree({"bad.py": BAD})
    status, out, err = run(["bad.py", "--diff", "--unsafe-fixes"], capsys)
    assert status == 1
    assert out.startswith("--- bad.py\n+++ bad.py\n")
    assert "+@partial(tp.jit, static_argnames=['n'])" in out and "-@tp.jit" in out
    assert (root / "bad.py").read_text() == BAD
    assert run(["bad.py", "--diff"], capsys)[0] == 0  # no safe fixes: nothing to show


def test_explain_and_list_rules(capsys):
    status, out, _ = run(["--explain", "TP101"], capsys)
    assert status == 0
    assert out.startswith("# traced-control-flow (TP101)")
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in out
    assert run(["--explain", "traced-shape"], capsys)[0] == 0
    assert run(["--explain", "TP999"], capsys)[0] == 2
    out = run(["--list-rules"], capsys)[1]
    assert all(code in out for code in ("TP101", "TP201", "TP301", "TP401", "TP403", "E999"))


def test_stdin(tree, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    status, out, _ = run(["-", "--stdin-filename", "piped.py"], capsys)
    assert status == 1 and "piped.py:7:5: TP101" in out


def test_gitignore_and_default_excludes(tree, capsys):
    tree({
        ".gitignore": "generated/\n*_tmp.py\n",
        "src/bad_tmp.py": BAD,
        "generated/bad.py": BAD,
        ".venv/lib/bad.py": BAD,
        "src/ok.py": CLEAN,
    })  # fmt: skip
    assert run(["."], capsys)[0] == 0
    status, out, _ = run([".", "--no-respect-gitignore"], capsys)
    assert status == 1 and "bad_tmp.py" in out and ".venv" not in out


def test_python_dash_m_transpile_lint(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    command = [sys.executable, "-m", "transpile", "lint", "bad.py", "--format", "json"]
    env = {**__import__("os").environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    assert {item["code"] for item in json.loads(done.stdout)} == {"TP101", "TP201"}
    clean = subprocess.run([*command[:4], "--explain", "TP101"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert clean.returncode == 0 and "traced-control-flow" in clean.stdout


def test_linter_needs_neither_numpy_nor_the_core(tmp_path):
    """The linter is importable as a namespace package, without transpile/__init__.py's imports."""
    (tmp_path / "bad.py").write_text(BAD)
    script = (
        "import sys, types\n"
        f"package = types.ModuleType('transpile'); package.__path__ = [{str(REPO / 'transpile')!r}]\n"
        "sys.modules['transpile'] = package\n"
        "from transpile.lint.cli import main\n"
        "status = main(['bad.py', '--jobs', '2', '--quiet'])\n"
        "assert not {'numpy', 'cffi', 'transpile.core', 'transpile.api'} & set(sys.modules), sorted(sys.modules)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "bad.py:7:5: TP101" in done.stdout


def test_parallel_workers_give_the_same_report(tree, capsys):
    tree({f"m{i}.py": (BAD if i % 2 else CLEAN) for i in range(6)})
    serial = run([".", "--format", "json", "--jobs", "1"], capsys)
    parallel = run([".", "--format", "json", "--jobs", "2"], capsys)
    assert serial == parallel and serial[0] == 1
    assert len(json.loads(serial[1])) == 6
