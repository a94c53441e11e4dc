"""Lint one module: a cheap text check, Python's own parser, jit sites, trace analysis, rules.

Modules that never mention a jit entry point (`transpile`/`jax` and `jit`, by default) cannot
jit anything, so they only get a syntax check. Everything else is parsed once with `ast` (the C
parser, about ten times faster than libcst's), indexed statement by statement, and analysed
only in the functions that are jitted or run from jitted ones. libcst is not involved in
linting at all: fixes are text edits at exact positions, and the fixer checks its result with
libcst (`fixer.py`).
"""

from __future__ import annotations

import ast
import gc
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cached_property

from .codes import UNSUPPRESSIBLE, Code
from .config import LintConfig
from .evidence import array_like_params
from .flow import TraceFacts, analyze
from .flow_tables import SHAPE_PARAMETERS
from .index import CallSite, Function, build_index
from .jitsites import find_jit_sites, lines_mentioning
from .model import Edit, Finding, Fix
from .names import Names
from .newer_syntax import parse_any_version
from .noqa import parse_suppressions
from .resolve import Resolver
from .rules import Rule, enabled_rules
from .traced_code import TracedCode

SYNTAX_ERROR = Code.E999
NOT_ANALYSED = Code.E902  # as for a file that cannot be read
_NEWLINE = re.compile(r"\r\n|\r|\n")


class ModuleContext:
    """Everything rules may ask about one parsed module."""

    def __init__(self, path: str, source: str, tree: ast.Module, config: LintConfig):
        self.path = path
        self.source = source
        self.tree = tree
        self.config = config
        self.line_starts = [0] + [match.end() for match in _NEWLINE.finditer(source)]
        self.index = build_index(tree)
        self.names = Names(self.index, config)
        self.resolver = Resolver(self.index)
        self.sites = find_jit_sites(self.index, self.names, self.resolver, source, self.line_starts)
        self._array_params: dict[Function, frozenset[str]] = {}
        self.memo: dict[tuple, object] = {}  # answers rules share within this module
        self._binding_calls: dict[str, list[CallSite]] | None = None

    @cached_property
    def facts(self) -> TraceFacts:
        return analyze(self.names, self.resolver, self.sites, self.config)

    @cached_property
    def traced_code(self) -> TracedCode:
        return TracedCode(list(self.facts.traced))

    def array_params(self, function: Function) -> frozenset[str]:
        """Parameters of `function` used as arrays or containers (see evidence.py)."""
        found = self._array_params.get(function)
        if found is None:
            namespaces = (*self.config.array_namespaces, "numpy")
            found = array_like_params(function, lambda call: self._takes_arrays(call, namespaces, function))
            self._array_params[function] = found
        return found

    def _takes_arrays(self, call: ast.Call, namespaces: tuple[str, ...], function: Function) -> bool:
        """A call of an array function, other than one whose arguments are sizes (zeros(n))."""
        member = self.names.member_of(call.func, namespaces, function)
        return member is not None and member not in SHAPE_PARAMETERS

    def calls_of(self, binding: str) -> list[CallSite]:
        """Calls `binding(...)` / `obj.binding(...)` of a jitted function's name, found for every
        jitted name in one pass over the module (rules ask per site and per parameter)."""
        if self._binding_calls is None:
            bindings = {site.binding for site in self.sites.sites if site.binding}
            found: dict[str, list[CallSite]] = {}
            for call in self.index.calls_on_lines(lines_mentioning(self.source, bindings, self.line_starts)):
                func = call.node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name in bindings:
                    found.setdefault(name, []).append(call)
            self._binding_calls = found
        return self._binding_calls.get(binding, [])

    # -- positions: ast columns are UTF-8 byte offsets; findings and edits use characters -------
    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.source)
        return self.source[start:end]

    def column(self, line: int, byte_offset: int) -> int:
        text = self.line_text(line)
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self.column(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> tuple[int, int]:
        return node.end_lineno, self.column(node.end_lineno, node.end_col_offset)

    def offset(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + column

    def code(self, node: ast.AST) -> str:
        (line, column), (end_line, end_column) = self.start(node), self.end(node)
        return self.source[self.offset(line, column) : self.offset(end_line, end_column)]

    def finding(
        self, code: str, node: ast.AST, message: str, help: str = "", fix: Fix | None = None,
        end: ast.AST | None = None,
    ) -> Finding:  # fmt: skip
        """A finding at `node` (up to `end`, e.g. an `if` keyword through its condition)."""
        line, column = self.start(node)
        end_line, end_column = self.end(end if end is not None else node)
        return Finding(self.path, line, column + 1, code, message, help, end_line, end_column + 1, fix)

    def replace_edit(self, node: ast.AST, text: str) -> Edit:
        (line, column), (end_line, end_column) = self.start(node), self.end(node)
        return Edit(
            self.offset(line, column), self.offset(end_line, end_column), text,
            line, column + 1, end_line, end_column + 1,
        )  # fmt: skip

    def insert_at(self, line: int, column: int, text: str) -> Edit:
        offset = self.offset(line, column)
        return Edit(offset, offset, text, line, column + 1, line, column + 1)

    def lines_edit(self, first: int, last: int, text: str = "") -> Edit:
        """Replace whole lines first..last (1-based, inclusive) with `text`."""
        start = self.line_starts[first - 1]
        end = self.line_starts[last] if last < len(self.line_starts) else len(self.source)
        return Edit(start, end, text, first, 1, last + 1, 1)

    def insert_edit(self, line: int, text: str) -> Edit:
        """Insert whole lines before line `line` (1-based; one past the end appends)."""
        offset = self.line_starts[line - 1] if line <= len(self.line_starts) else len(self.source)
        return Edit(offset, offset, text, line, 1, line, 1)

    @cached_property
    def newline(self) -> str:
        match = _NEWLINE.search(self.source)
        return match.group() if match else "\n"


def lint_source(source: str, path: str, config: LintConfig, rules: Iterable[Rule] | None = None) -> list[Finding]:
    """All findings for one module's text, after noqa comments and rule selection."""
    chosen = list(rules) if rules is not None else enabled_rules(config, path)
    with _without_cycle_collection():
        findings = _analyse(source, path, config, chosen) if may_jit(source, config) else _syntax_only(source, path)
        return _filter(findings, source)


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Parsing allocates a node object per token, and each batch of allocations sets off
    Python's cycle collector, which then traverses every live object: a third of a lint's
    time, for nothing, since syntax trees hold no cycles. Collection is paused for one
    module and resumes after it (whatever cycles the analysis left are collected then)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def may_jit(source: str, config: LintConfig) -> bool:
    """Cheap text test: jitting needs a jit package named and a jit function's name spelled
    somewhere (an import or an attribute); modules that fail it only get a syntax check."""
    return any(root in source for root in config.module_roots) and any(leaf in source for leaf in config.jit_leaves)


def _syntax_only(source: str, path: str) -> list[Finding]:
    tree = _parse(source, path)
    return tree if isinstance(tree, list) else []


def _parse(source: str, path: str) -> ast.Module | list[Finding]:
    try:
        return parse_any_version(source, path)
    except SyntaxError as error:
        line = error.lineno or 1
        return [Finding(path, line, max(error.offset or 1, 1), SYNTAX_ERROR, f"SyntaxError: {error.msg}")]
    except ValueError as error:  # e.g. null bytes
        return [Finding(path, 1, 1, SYNTAX_ERROR, f"SyntaxError: {error}")]
    except RecursionError:
        return [_too_deep(path)]


def _too_deep(path: str) -> Finding:
    """Nesting deeper than Python's recursion limit: said, not skipped silently or crashed on."""
    return Finding(path, 1, 1, NOT_ANALYSED, "not analysed: the code nests deeper than Python's recursion limit")


def _analyse(source: str, path: str, config: LintConfig, rules: list[Rule]) -> list[Finding]:
    tree = _parse(source, path)
    if isinstance(tree, list):
        return tree
    try:
        ctx = ModuleContext(path, source, tree, config)
        if not ctx.sites.sites:
            return []
        findings: list[Finding] = []
        for rule in rules:
            findings.extend(rule.check(ctx))
    except RecursionError:
        return [_too_deep(path)]
    return findings


def _filter(findings: list[Finding], source: str) -> list[Finding]:
    suppressions = parse_suppressions(source)
    unique: dict[tuple, Finding] = {}
    for finding in sorted(findings, key=Finding.sort_key):
        if finding.code not in UNSUPPRESSIBLE and suppressions.suppressed(finding.code, finding.line):
            continue
        unique.setdefault((finding.code, finding.line, finding.col), finding)
    return list(unique.values())
