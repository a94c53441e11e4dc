"""Configuration: selectors, pyproject discovery and validation, per-file ignores, noqa parsing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from transpile.lint import LintConfig, lint_source
from transpile.lint.config import ConfigError, find_config, load_config, validate_selectors
from transpile.lint.noqa import parse_suppressions
from transpile.lint.rules import KNOWN_CODES
from transpile.lint.runner import Job, process_file


@pytest.mark.parametrize(
    "select, ignore, code, enabled",
    [
        (("TP",), (), "TP101", True),
        (("TP",), ("TP101",), "TP101", False),
        (("TP",), ("TP1",), "TP102", False),
        (("TP101",), ("TP1",), "TP101", True),  # the more specific selector wins
        (("TP2",), (), "TP101", False),
        (("ALL",), ("TP4",), "TP403", False),
    ],
)
def test_selectors(select, ignore, code, enabled):
    assert LintConfig(select=select, ignore=ignore).enabled(code) is enabled


def test_unknown_selectors_are_usage_errors():
    validate_selectors(("TP", "TP1", "TP101", "ALL", "E999"), KNOWN_CODES)
    with pytest.raises(ConfigError):
        validate_selectors(("TP9",), KNOWN_CODES)


def test_pyproject_is_found_upwards_and_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [project]
            name = "demo"

            [tool.transpile.lint]
            select = ["TP1", "TP4"]
            max-unroll = 7
            jit-functions = ["jax.jit"]
            per-file-ignores = { "tests/*" = ["TP101"] }
            """
        )
    )
    (tmp_path / "src" / "deep").mkdir(parents=True)
    found = find_config(tmp_path / "src" / "deep")
    assert found == tmp_path / "pyproject.toml"
    config = load_config(found)
    assert config.max_unroll == 7 and config.select == ("TP1", "TP4")
    assert "jax.jit" in config.jit_functions and "transpile.jit" in config.jit_functions
    assert "jax.numpy" in config.array_namespaces and "jax.lax" in config.lax_namespaces
    assert not config.enabled("TP101", str(tmp_path / "tests" / "test_x.py"))
    assert config.enabled("TP101", str(tmp_path / "src" / "x.py"))


def test_pyproject_without_the_table_is_skipped(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 99\n")
    assert find_config(tmp_path) is None or find_config(tmp_path).parent != tmp_path


@pytest.mark.parametrize(
    "table",
    ['max-unroll = "ten"', 'select = "TP1"', "respect-gitignore = 3", "nonsense = true", "[tool.transpile.lint"],
)
def test_bad_settings_are_config_errors(tmp_path, table):
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[tool.transpile.lint]\n{table}\n")
    with pytest.raises(ConfigError):
        load_config(path)


def test_noqa_parsing_reads_comments_only():
    source = textwrap.dedent(
        """\
        a = 1  # noqa
        b = 2  # noqa: TP101, tp102
        c = "# noqa: TP103"
        d = 4  # NOQA:TP201
        """
    )
    found = parse_suppressions(source)
    assert found.suppressed("TP999", 1)
    assert found.suppressed("TP101", 2) and found.suppressed("TP102", 2) and not found.suppressed("TP103", 2)
    assert not found.suppressed("TP103", 3)
    assert found.suppressed("TP201", 4)
    file_level = parse_suppressions("# transpile: noqa: TP301\nx = 1\n")
    assert file_level.suppressed("TP301", 2) and not file_level.suppressed("TP101", 2)


def test_noqa_on_the_finding_line_of_a_helper():
    source = textwrap.dedent(
        """\
        import transpile as tp

        def h(v):
            return v if v > 0 else 0  # noqa: TP101

        @tp.jit
        def f(x, n):
            return h(x) + h(n)
        """
    )
    assert lint_source(source, "m.py", LintConfig()) == []


def test_unreadable_and_undecodable_files(tmp_path):
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"# -*- coding: utf-8 -*-\nx = '\xff'\n")
    result = process_file(str(bad), Job(LintConfig()))
    assert [f.code for f in result.findings] == ["E902"]
    latin = tmp_path / "declared.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\nimport transpile as tp\nname = '\xe9'\n")
    assert process_file(str(latin), Job(LintConfig())).findings == []


def test_files_without_jit_get_only_a_syntax_check():
    assert lint_source("def f(x):\n    if x > 0:\n        print(x)\n", "m.py", LintConfig()) == []
    assert lint_source("import transpile.numpy as tnp\nprint(tnp)\n", "m.py", LintConfig()) == []
    found = lint_source("print(\n", "m.py", LintConfig())
    assert [(f.code, f.line) for f in found] == [("E999", 1)]


def test_paths_in_findings_are_as_given(tmp_path):
    (tmp_path / "m.py").write_text("import transpile as tp\n\n@tp.jit\ndef f(x):\n    print(x)\n    return x\n")
    result = process_file(str(tmp_path / "m.py"), Job(LintConfig()))
    assert [Path(f.path) for f in result.findings] == [tmp_path / "m.py"]


def test_a_pyproject_without_our_table_needs_no_toml_reader(tmp_path, monkeypatch):
    # Python 3.10 has no tomllib: only a pyproject that configures the linter needs a reader.
    import builtins

    from transpile.lint.config import ConfigError, find_config

    real_import = builtins.__import__

    def without_toml(name, *args, **kwargs):
        if name in ("tomllib", "tomli"):
            raise ModuleNotFoundError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_toml)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[tool.transpile.lint]\nignore = ["TP201"]\n')
    with pytest.raises(ConfigError, match="tomli"):
        find_config(tmp_path)
