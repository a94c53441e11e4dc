"""File discovery: .gitignore semantics, excludes, explicit files."""

from __future__ import annotations

from pathlib import Path

import pytest

from transpile.lint.walk import Walker, parse_gitignore


@pytest.mark.parametrize(
    "pattern, path, is_dir, ignored",
    [
        ("*.py", "a/b/c.py", False, True),
        ("build/", "build", True, True),
        ("build/", "build", False, None),
        ("/top.py", "top.py", False, True),
        ("/top.py", "sub/top.py", False, None),
        ("docs/*.py", "docs/x.py", False, True),
        ("docs/*.py", "docs/deep/x.py", False, None),
        ("**/gen/**", "a/gen/b/c.py", False, True),
        ("a/**/z.py", "a/b/c/z.py", False, True),
        ("a/**/z.py", "a/z.py", False, True),
        ("data[0-9].py", "data7.py", False, True),
        ("# comment", "# comment", False, None),
    ],
)
def test_gitignore_patterns(pattern, path, is_dir, ignored):
    rules = parse_gitignore(pattern + "\n", Path("/repo"))
    assert rules.verdict(Path("/repo") / path, is_dir) is ignored


def test_negation_reincludes():
    rules = parse_gitignore("*.py\n!keep.py\n", Path("/r"))
    assert rules.verdict(Path("/r/drop.py"), False) is True
    assert rules.verdict(Path("/r/keep.py"), False) is False


def make(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_walker_nested_gitignore_excludes_and_explicit_files(tmp_path):
    make(tmp_path, {
        ".git/HEAD": "",
        ".gitignore": "out/\n",
        "pkg/.gitignore": "skip_*.py\n!skip_keep.py\n",
        "pkg/a.py": "", "pkg/skip_me.py": "", "pkg/skip_keep.py": "", "pkg/notes.txt": "",
        "out/gen.py": "", "__pycache__/c.py": "", "vendor/v.py": "", "stubs/s.pyi": "",
    })  # fmt: skip
    walker = Walker(("__pycache__", "vendor"), tmp_path)
    found = sorted(p.relative_to(tmp_path).as_posix() for p in walker.files([tmp_path]))
    assert found == ["pkg/a.py", "pkg/skip_keep.py", "stubs/s.pyi"]
    # Walking a sub-folder still honours the .gitignore files above it, up to the repository.
    assert sorted(p.name for p in walker.files([tmp_path / "pkg"])) == ["a.py", "skip_keep.py"]
    # A file named explicitly is linted even when excluded.
    assert list(walker.files([tmp_path / "out" / "gen.py"])) == [tmp_path / "out" / "gen.py"]
    plain = Walker((), tmp_path, respect_gitignore=False)
    assert len(list(plain.files([tmp_path]))) == 7
