"""What names mean: qualified names resolved through the scopes the index recorded, and how to
spell them back.

Rules never compare spellings: `tp.jit`, `transpile.jit` and `J` after `from transpile import
jit as J` all resolve to the qualified name `transpile.jit`. A name is looked up as Python
would: in the enclosing functions (a local variable means "not an import"; a function-level
import counts), then the module's imports, then the module's own definitions, then builtins.
Only the names the analysis asks about are resolved, and each once. For messages and fixes we
go the other way: `spelling("transpile.lax")` is whatever this module calls that module.
"""

from __future__ import annotations

import ast

from .config import LintConfig
from .index import Function, ModuleIndex

PARTIAL = "functools.partial"


class Names:
    def __init__(self, index: ModuleIndex, config: LintConfig):
        self.index = index
        self.config = config
        self.imports = index.module.imports
        self._memo: dict[int, str | None] = {}

    def qualified(self, node: ast.AST, function: Function | None) -> str | None:
        """`transpile.numpy.sum` for `tnp.sum`; `builtins.len`; None for locals and the rest."""
        key = id(node)
        if key in self._memo:
            return self._memo[key]
        parts: list[str] = []
        root = node
        while isinstance(root, ast.Attribute):
            parts.append(root.attr)
            root = root.value
        found = None
        if isinstance(root, ast.Name):
            base = self.resolve(root.id, function)
            if base is not None:
                found = ".".join([base, *reversed(parts)])
        self._memo[key] = found
        return found

    def resolve(self, name: str, function: Function | None) -> str | None:
        owner = function
        while owner is not None:
            scope = self.index.scope(owner)
            if scope.declared.get(name) == "global":
                break
            if name in scope.imports:
                return scope.imports[name]
            if name in scope.bound:
                return None  # a local variable
            owner = self.index.parent_function.get(owner)
        if name in self.imports:
            return self.imports[name]
        if name in self.index.module.bound:
            return None  # a module-level definition or variable
        return f"builtins.{name}"

    def is_local(self, name: str, function: Function | None) -> bool:
        """Bound in `function` itself (not declared global/nonlocal there)."""
        if function is None:
            return False
        scope = self.index.scope(function)
        return name in scope.bound and name not in scope.declared

    def is_jit(self, node: ast.AST, function: Function | None) -> bool:
        return self.qualified(node, function) in self.config.jit_set

    def is_partial(self, node: ast.AST, function: Function | None) -> bool:
        return self.qualified(node, function) == PARTIAL

    def member_of(self, node: ast.AST, namespaces: tuple[str, ...], function: Function | None) -> str | None:
        """`zeros` for a node that resolves to `transpile.numpy.zeros`; None otherwise."""
        name = self.qualified(node, function)
        if name is None:
            return None
        for namespace in namespaces:
            if name.startswith(namespace) and name[len(namespace) : len(namespace) + 1] == ".":
                return name[len(namespace) + 1 :]
        return None

    def builtin(self, node: ast.AST, function: Function | None) -> str | None:
        """`print` for the builtin print (not for a local that shadows it)."""
        if not isinstance(node, ast.Name):
            return None
        name = self.qualified(node, function)
        return name[9:] if name is not None and name.startswith("builtins.") else None

    def spelling(self, qualified: str) -> str | None:
        """How top-level code of this module refers to `qualified`, or None if not imported."""
        best: tuple[int, str] | None = None
        for local, target in self.imports.items():
            if qualified == target:
                return local
            if qualified.startswith(target + ".") and (best is None or len(target) > best[0]):
                best = (len(target), local + qualified[len(target) :])
        return best[1] if best else None

    def spell_any(self, qualified_options: tuple[str, ...], default: str) -> str:
        for option in qualified_options:
            spelled = self.spelling(option)
            if spelled:
                return spelled
        return default
