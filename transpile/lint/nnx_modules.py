"""What this module's flax.nnx module classes say about their attributes.

An `nnx.Module` splits into a graph definition and a state: the state holds its Variables
(`nnx.Param`, `nnx.Variable`, `nnx.BatchStat`, ...), submodules and arrays, and is traced under
`nnx.jit` (or under `jax.jit` after `nnx.split`, or as the pytree a module is); every other
attribute (`self.rate = rate`, `self.mode = "clip"`, `self.residual = din == dout`) is part of
the graph definition, a Python value while tracing, so `if self.rate > 0:` is fine.

An attribute counts as static when every value the module's nnx classes assign to it is built
from Python values only: constants, parameters of the method (not annotated as arrays),
attributes of them, and operators and builtins over those. Anything that calls another
function (a layer, `nnx.Param(...)`, `jnp.ones(...)`, a helper) may hold state, so it is traced.
"""

from __future__ import annotations

import ast
import builtins

from .index import ModuleIndex
from .names import Names

NNX_BASES = frozenset({"flax.nnx.Module", "flax.nnx.Object", "flax.nnx.module.Module"})
_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))
_ARRAY_ANNOTATION_WORDS = ("Array", "ndarray", "Variable", "Param", "Module", "Rngs")  # state, not settings


def nnx_classes(index: ModuleIndex, names: Names) -> list[ast.ClassDef]:
    """Classes deriving from nnx.Module, directly or through another class of this module."""
    found: list[ast.ClassDef] = []
    known: set[str] = set()
    for cls in index.classes:  # in source order, so a base class comes before its subclasses
        for base in cls.bases:
            if names.qualified(base, None) in NNX_BASES or (isinstance(base, ast.Name) and base.id in known):
                found.append(cls)
                known.add(cls.name)
                break
    return found


def static_attributes(index: ModuleIndex, names: Names) -> frozenset[str]:
    """Attribute names the nnx classes only ever assign Python values (see the module doc)."""
    static: set[str] = set()
    traced: set[str] = set()
    for cls in nnx_classes(index, names):
        for method in index.methods.get(cls, {}).values():
            array_params = _array_annotated_params(method)
            for target, value in _self_assignments(method):
                (static if _python_value(value, array_params) else traced).add(target)
    return frozenset(static - traced)


def _self_assignments(method: ast.FunctionDef):
    receiver = method.args.args[0].arg if method.args.args else None
    for node in ast.walk(method):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == receiver:
                yield target.attr, value


def _array_annotated_params(method: ast.FunctionDef) -> frozenset[str]:
    args = method.args
    found = set()
    for param in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        annotation = ast.unparse(param.annotation) if param.annotation is not None else ""
        if any(word in annotation for word in _ARRAY_ANNOTATION_WORDS):
            found.add(param.arg)
    return frozenset(found)


def _python_value(value: ast.expr, array_params: frozenset[str]) -> bool:
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in _BUILTINS):
                return False
        elif isinstance(node, ast.Name) and node.id in array_params:
            return False
        elif isinstance(node, (ast.Lambda, ast.NamedExpr)):
            return False
    return True
