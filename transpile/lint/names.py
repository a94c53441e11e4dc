"""What names mean: qualified names from libcst's scope metadata, and how to spell them back.

Rules never compare spellings: `tp.jit`, `transpile.jit` and `J` after `from transpile import
jit as J` all resolve to the qualified name `transpile.jit` through libcst's scope analysis
(the same machinery as its QualifiedNameProvider, asked only for the nodes a rule looks at,
which keeps whole-file resolution off the hot path). For messages and fixes we go the other way:
`spelling("transpile.lax")` is whatever this module calls that module (`lax`, `tp.lax`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import Scope

from .config import LintConfig

PARTIAL = "functools.partial"


class Names:
    def __init__(self, module: cst.Module, scopes: Mapping[cst.CSTNode, Scope | None], config: LintConfig):
        self.scopes = scopes
        self.config = config
        self._memo: dict[int, frozenset[str]] = {}
        self.imports = _top_level_imports(module)

    def qualified(self, node: cst.CSTNode) -> frozenset[str]:
        key = id(node)
        found = self._memo.get(key)
        if found is None:
            found = self._resolve(node)
            self._memo[key] = found
        return found

    def _resolve(self, node: cst.CSTNode) -> frozenset[str]:
        if not isinstance(node, (cst.Name, cst.Attribute)):
            return frozenset()
        scope = self.scopes.get(node)
        if scope is None:
            return frozenset()
        try:
            return frozenset(q.name for q in scope.get_qualified_names_for(node))
        except Exception:  # libcst cannot resolve some exotic attribute chains; treat as unknown
            return frozenset()

    def is_jit(self, node: cst.CSTNode) -> bool:
        return not self.qualified(node).isdisjoint(self.config.jit_functions)

    def is_partial(self, node: cst.CSTNode) -> bool:
        return PARTIAL in self.qualified(node)

    def member_of(self, node: cst.CSTNode, namespaces: tuple[str, ...]) -> str | None:
        """`zeros` for a node that resolves to `transpile.numpy.zeros`; None otherwise."""
        for name in self.qualified(node):
            for namespace in namespaces:
                if name.startswith(namespace + "."):
                    return name[len(namespace) + 1 :]
        return None

    def builtin(self, node: cst.CSTNode) -> str | None:
        """`print` for the builtin print (not for a local that shadows it)."""
        for name in self.qualified(node):
            if name.startswith("builtins."):
                return name[len("builtins.") :]
        return None

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


def _top_level_imports(module: cst.Module) -> dict[str, str]:
    """Local name -> qualified module or object, for module-level import statements."""
    found: dict[str, str] = {}
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                _record_import(small, found)
            elif isinstance(small, cst.ImportFrom):
                _record_import_from(small, found)
    return found


def _record_import(node: cst.Import, found: dict[str, str]) -> None:
    for alias in node.names:
        full = get_full_name_for_node(alias.name) or ""
        if alias.asname is not None:
            found[get_full_name_for_node(alias.asname.name) or full] = full
        else:
            # `import a.b` binds `a`, through which `a.b` is reachable.
            found[full.split(".")[0]] = full.split(".")[0]


def _record_import_from(node: cst.ImportFrom, found: dict[str, str]) -> None:
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return
    base = get_full_name_for_node(node.module) or ""
    for alias in node.names:
        name = get_full_name_for_node(alias.name) or ""
        local = get_full_name_for_node(alias.asname.name) if alias.asname else name
        found[local or name] = f"{base}.{name}"
