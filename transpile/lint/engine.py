"""Lint one module: parse with libcst, find jit sites, run the trace analysis and the rules.

Modules that never mention a jit package (`transpile` by default) cannot jit anything, so they
only get a syntax check; everything else is parsed once, and the costlier metadata (positions,
the trace analysis) is computed only when a rule asks for it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cached_property

import libcst as cst
from libcst.metadata import Access, CodeRange, MetadataWrapper, PositionProvider, ScopeProvider

from .config import LintConfig
from .evidence import array_like_params
from .flow import TraceFacts, analyze
from .index import Function, build_index
from .jitsites import find_jit_sites
from .model import Edit, Finding, Fix
from .names import Names
from .noqa import parse_suppressions
from .resolve import Resolver
from .rules import Rule, enabled_rules
from .traced_code import TracedCode

SYNTAX_ERROR = "E999"
_NEWLINE = re.compile(r"\r\n|\r|\n")


class ModuleContext:
    """Everything rules may ask about one parsed module."""

    def __init__(self, path: str, source: str, module: cst.Module, config: LintConfig):
        self.path = path
        self.source = source
        self.module = module
        self.config = config
        self.wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.scopes = self.wrapper.resolve(ScopeProvider)
        self.index = build_index(module)
        self.names = Names(module, self.scopes, config)
        self.resolver = Resolver(self.scopes, self.index)
        self.sites = find_jit_sites(self.index, self.names, self.resolver)
        self._array_params: dict[Function, frozenset[str]] = {}
        self._accesses: dict[cst.CSTNode, Access] | None = None

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
            found = self._array_params[function] = array_like_params(function)
        return found

    def access(self, name: cst.Name) -> Access | None:
        """libcst's record of a read of `name`: which assignments it may see."""
        if self._accesses is None:
            self._accesses = {}
            for scope in set(self.scopes.values()):
                if scope is not None:
                    for access in scope.accesses:
                        self._accesses[access.node] = access
        return self._accesses.get(name)

    @cached_property
    def _positions(self):
        return self.wrapper.resolve(PositionProvider)

    @cached_property
    def _line_starts(self) -> list[int]:
        return [0] + [match.end() for match in _NEWLINE.finditer(self.source)]

    def position(self, node: cst.CSTNode) -> CodeRange:
        return self._positions[node]

    def offset(self, line: int, column: int) -> int:
        return self._line_starts[line - 1] + column

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def finding(
        self, code: str, node: cst.CSTNode, message: str, help: str = "", fix: Fix | None = None,
        end: cst.CSTNode | None = None,
    ) -> Finding:  # fmt: skip
        """A finding at `node` (up to `end`, e.g. an `if` keyword through its condition)."""
        start = self.position(node).start
        stop = self.position(end if end is not None else node).end
        return Finding(
            self.path, start.line, start.column + 1, code, message, help, stop.line, stop.column + 1, fix,
        )  # fmt: skip

    def replace_edit(self, node: cst.CSTNode, replacement: cst.CSTNode | str) -> Edit:
        where = self.position(node)
        text = replacement if isinstance(replacement, str) else self.code(replacement)
        return Edit(
            self.offset(where.start.line, where.start.column),
            self.offset(where.end.line, where.end.column),
            text, where.start.line, where.start.column + 1, where.end.line, where.end.column + 1,
        )  # fmt: skip

    def lines_edit(self, first: int, last: int, text: str = "") -> Edit:
        """Replace whole lines first..last (1-based, inclusive) with `text`."""
        start = self._line_starts[first - 1]
        end = self._line_starts[last] if last < len(self._line_starts) else len(self.source)
        return Edit(start, end, text, first, 1, last + 1, 1)

    def insert_edit(self, line: int, text: str) -> Edit:
        """Insert whole lines before line `line` (1-based; one past the end appends)."""
        offset = self._line_starts[line - 1] if line <= len(self._line_starts) else len(self.source)
        return Edit(offset, offset, text, line, 1, line, 1)


def lint_source(source: str, path: str, config: LintConfig, rules: Iterable[Rule] | None = None) -> list[Finding]:
    """All findings for one module's text, after noqa comments and rule selection."""
    chosen = list(rules) if rules is not None else enabled_rules(config, path)
    findings = _syntax_only(source, path) if not _may_jit(source, config) else _analyse(source, path, config, chosen)
    return _filter(findings, source)


def _may_jit(source: str, config: LintConfig) -> bool:
    """Cheap text test: jitting needs the package imported and `jit` spelled somewhere (an
    import or an attribute); modules that fail it only get a syntax check."""
    leaves = {name.rsplit(".", 1)[-1] for name in config.jit_functions}
    return any(root in source for root in config.module_roots) and any(leaf in source for leaf in leaves)


def _syntax_only(source: str, path: str) -> list[Finding]:
    error = _python_syntax_error(source, path)
    return [error] if error else []


def _python_syntax_error(source: str, path: str) -> Finding | None:
    try:
        ast.parse(source, filename=path)
    except SyntaxError as error:
        line = error.lineno or 1
        return Finding(path, line, max(error.offset or 1, 1), SYNTAX_ERROR, f"SyntaxError: {error.msg}")
    except ValueError as error:  # e.g. null bytes
        return Finding(path, 1, 1, SYNTAX_ERROR, f"SyntaxError: {error}")
    return None


def _analyse(source: str, path: str, config: LintConfig, rules: list[Rule]) -> list[Finding]:
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        python_error = _python_syntax_error(source, path)
        if python_error is not None:
            return [python_error]
        # Valid Python that this libcst cannot parse (newer syntax): say so, lint the rest.
        message = f"SyntaxError: libcst cannot parse this file: {error.message}"
        return [Finding(path, error.raw_line, error.raw_column + 1, SYNTAX_ERROR, message)]
    ctx = ModuleContext(path, source, module, config)
    if not ctx.sites.sites:
        return []
    findings: list[Finding] = []
    for rule in rules:
        findings.extend(rule.check(ctx))
    return findings


def _filter(findings: list[Finding], source: str) -> list[Finding]:
    suppressions = parse_suppressions(source)
    unique: dict[tuple, Finding] = {}
    for finding in sorted(findings, key=Finding.sort_key):
        if finding.code != SYNTAX_ERROR and suppressions.suppressed(finding.code, finding.line):
            continue
        unique.setdefault((finding.code, finding.line, finding.col), finding)
    return list(unique.values())
