"""What the linter reads from `transpile` itself rather than keeping a copy: the names its public
namespaces have (a suggestion must never name a function that does not exist) and the tracer
methods that need a concrete value (what a conversion of a traced value calls).

transpile's namespaces import NumPy and the compiler, which linting does not otherwise need:
each answer is computed on first use and kept. The tracer's methods are read from its source
(the analysis needs them on almost every run); the namespaces are imported only to word a
suggestion for transpile code, so linting JAX code never imports NumPy.
The dependency points one way only: lint reads transpile's public names; nothing in the
compiler imports lint (tests/test_layering.py).
"""

from __future__ import annotations

import ast
import importlib
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
    """The public functions of a transpile namespace ("transpile.numpy", "transpile.lax")."""
    module = importlib.import_module(namespace)
    names = getattr(module, "__all__", None) or [name for name in dir(module) if not name.startswith("_")]
    return frozenset(name for name in names if callable(getattr(module, name, None)))


@cache
def concretizing_methods() -> frozenset[str]:
    """Methods of transpile's tracer that raise ConcretizationError: `__bool__`, `item`, ...
    (those whose body asks the tracer to concretize).

    Read from the source of `transpile.core` rather than by importing it: the analysis asks on
    nearly every run, and the import would bring NumPy in (ten times the parse's cost)."""
    spec = importlib.util.find_spec("transpile.core")
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
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
