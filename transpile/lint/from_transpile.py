"""What the linter reads from `transpile` itself rather than keeping a copy: the names its public
namespaces have (a suggestion must never name a function that does not exist) and the tracer
methods that need a concrete value (what a conversion of a traced value calls).

transpile's modules import NumPy and the compiler, which linting does not otherwise need, so
each answer is read from the module's source (found with `importlib.util.find_spec`, parsed,
never run) on first use and kept: linting never imports NumPy. tests/lint/
test_lint_from_transpile.py checks each answer against the imported modules.
The dependency points one way only: lint reads transpile's public names; nothing in the
compiler imports lint (tests/test_layering.py).
"""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

# What each Python conversion calls on its argument (the language's rules, not transpile's).
CONVERSION_DUNDERS = {
    "bool": "__bool__", "int": "__int__", "float": "__float__", "complex": "__complex__",
    "hex": "__index__", "oct": "__index__", "bin": "__index__", "chr": "__index__",
    "operator.index": "__index__", "operator.truth": "__bool__", "operator.not_": "__bool__",
}  # fmt: skip


@cache
def public_names(namespace: str) -> frozenset[str]:
    """The public names of a transpile namespace ("transpile.numpy", "transpile.lax"): what its
    module binds at top level (imports, defs, assignments), read from its source. Importing it
    would cost NumPy and the compiler, seconds on a busy machine and again in every worker."""
    names: set[str] = set()
    tree, package = _module_source_tree(namespace)
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.names[0].name == "*":
            source = importlib.util.resolve_name("." * statement.level + (statement.module or ""), package)
            names.update(_star_exports(source))
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names.update(node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name))
    return frozenset(name for name in names if not name.startswith("_") and name != "*")


def _star_exports(module: str) -> frozenset[str]:
    """What `from module import *` binds: its literal `__all__`, else its public names."""
    tree, _ = _module_source_tree(module)
    for statement in tree.body:
        if not isinstance(statement, ast.Assign) or not isinstance(statement.value, (ast.List, ast.Tuple)):
            continue
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in statement.targets):
            return frozenset(e.value for e in statement.value.elts if isinstance(e, ast.Constant))
    return public_names(module)


def _module_source_tree(module: str) -> tuple[ast.Module, str]:
    """The syntax tree of a transpile module, found and read without running it, and the
    package its relative imports start from."""
    spec = importlib.util.find_spec(module)
    package = module if spec.submodule_search_locations is not None else module.rpartition(".")[0]
    return ast.parse(Path(spec.origin).read_text(encoding="utf-8")), package


@cache
def concretizing_methods() -> frozenset[str]:
    """Methods of transpile's tracer that raise ConcretizationError: `__bool__`, `item`, ...
    (those whose body asks the tracer to concretize).

    Read from the source of `transpile.core` rather than by importing it: the analysis asks on
    nearly every run, and the import would bring NumPy in (ten times the parse's cost)."""
    tree, _ = _module_source_tree("transpile.core")
    tracer = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Tracer")
    return frozenset(
        method.name
        for method in tracer.body
        if isinstance(method, ast.FunctionDef) and method.name != "_concretize" and _concretizes(method)
    )


def _concretizes(method: ast.FunctionDef) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr == "_concretize" for node in ast.walk(method))


@cache
def conversion_builtins() -> frozenset[str]:
    """Builtins that convert their argument through a concretizing method (`int(x)`)."""
    methods = concretizing_methods()
    return frozenset(name for name, dunder in CONVERSION_DUNDERS.items() if "." not in name and dunder in methods)
