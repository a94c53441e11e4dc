"""Find the Python files to lint: walk folders, skip excluded and .gitignore'd paths.

Paths named on the command line are always linted; folders are walked with os.scandir, and an
excluded folder is pruned whole (as git does: nothing under an ignored folder comes back).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(frozen=True)
class IgnoreRule:
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool


@dataclass(frozen=True)
class IgnoreFile:
    """The rules of one .gitignore, matched against paths relative to its folder."""

    base: Path
    rules: tuple[IgnoreRule, ...]

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included by a `!` rule, None if no rule matches."""
        try:
            relative = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        result = None
        for rule in self.rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.regex.fullmatch(relative):
                result = not rule.negated
        return result


def parse_gitignore(text: str, base: Path) -> IgnoreFile:
    rules = []
    for raw in text.splitlines():
        rule = _parse_rule(raw)
        if rule is not None:
            rules.append(rule)
    return IgnoreFile(base, tuple(rules))


def _parse_rule(raw: str) -> IgnoreRule | None:
    line = raw.rstrip()
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    line = line.removeprefix("\\")
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    # A slash anywhere but the end anchors the pattern to the .gitignore's folder.
    anchored = "/" in line
    body = _glob_to_regex(line.lstrip("/"))
    regex = body if anchored else f"(?:.*/)?{body}"
    return IgnoreRule(re.compile(regex), negated, dir_only)


def _glob_to_regex(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            token, i = _glob_token(pattern, i)
            out.append(token)
    return "".join(out)


def _glob_token(pattern: str, i: int) -> tuple[str, int]:
    char = pattern[i]
    if char == "*":
        return "[^/]*", i + 1
    if char == "?":
        return "[^/]", i + 1
    if char == "[":
        end = pattern.find("]", i + 2)
        if end != -1:
            inner = pattern[i + 1 : end].replace("\\", "\\\\")
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            return f"[{inner}]", end + 1
    if char == "\\" and i + 1 < len(pattern):
        return re.escape(pattern[i + 1]), i + 2
    return re.escape(char), i + 1


class Walker:
    """Yields lintable files under the given paths, honouring excludes and .gitignore files."""

    def __init__(self, exclude: Iterable[str], root: Path, respect_gitignore: bool = True):
        self.exclude = tuple(exclude)
        self.root = root.resolve()
        self.respect_gitignore = respect_gitignore
        self._ignore_cache: dict[Path, IgnoreFile | None] = {}

    def files(self, paths: Iterable[Path]) -> Iterator[Path]:
        seen: set[Path] = set()
        for path in paths:
            found = [path] if path.is_file() else self._walk(path.resolve(), path)
            for file in found:
                key = file.resolve()
                if key not in seen:
                    seen.add(key)
                    yield file

    def _walk(self, folder: Path, shown: Path) -> Iterator[Path]:
        ignores = self._ancestor_ignores(folder)
        yield from self._walk_folder(folder, shown, ignores)

    def _walk_folder(self, folder: Path, shown: Path, ignores: list[IgnoreFile]) -> Iterator[Path]:
        local = self._ignore_file(folder)
        if local is not None:
            ignores = [*ignores, local]
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            is_dir = entry.is_dir(follow_symlinks=False)
            path = folder / entry.name
            if self._excluded(path, entry.name, is_dir, ignores):
                continue
            if is_dir:
                yield from self._walk_folder(path, shown / entry.name, ignores)
            elif entry.name.endswith(PYTHON_SUFFIXES) and entry.is_file():
                yield shown / entry.name

    def _excluded(self, path: Path, name: str, is_dir: bool, ignores: list[IgnoreFile]) -> bool:
        if self.is_excluded_by_pattern(path, name):
            return True
        verdict = None
        for ignore in ignores:
            answer = ignore.verdict(path, is_dir)
            if answer is not None:
                verdict = answer
        return bool(verdict)

    def is_excluded_by_pattern(self, path: Path, name: str) -> bool:
        relative = _relative(path, self.root)
        return any(
            fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(relative, pattern)
            for pattern in self.exclude
        )

    def _ancestor_ignores(self, folder: Path) -> list[IgnoreFile]:
        """.gitignore files above `folder`, up to the repository root (the folder with .git)."""
        if not self.respect_gitignore:
            return []
        chain: list[IgnoreFile] = []
        for parent in folder.parents:
            found = self._ignore_file(parent)
            if found is not None:
                chain.append(found)
            if (parent / ".git").exists():
                break
        else:
            chain = []  # not inside a repository: only folders we walk count
        return chain[::-1]

    def _ignore_file(self, folder: Path) -> IgnoreFile | None:
        if not self.respect_gitignore:
            return None
        if folder not in self._ignore_cache:
            self._ignore_cache[folder] = _read_ignore(folder)
        return self._ignore_cache[folder]


def _read_ignore(folder: Path) -> IgnoreFile | None:
    ignore_path = folder / ".gitignore"
    try:
        text = ignore_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return parse_gitignore(text, folder)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
