"""What this module's pytree classes say about their fields.

Static fields are part of a pytree's structure (its treedef), so jitted code sees them as
Python values. Every registration style marks them differently:

- `dataclasses.field(metadata=dict(static=True))`, `equinox.field(static=True)`,
  `flax.struct.field(pytree_node=False)`, `static_field()` (jax-md, jax_dataclasses,
  equinox's older spelling), `jax_dataclasses.Static[int]` annotations;
- `jax.tree_util.register_dataclass(C, data_fields=[...], meta_fields=[...])` (or as a
  decorator with those keywords): the `meta_fields`;
- `jax.tree_util.register_static(C)` / `@register_static`: every field of `C`.

Fields annotated as a scalar or an array (`flag: bool`, `w: jax.Array`) that are not static
are leaves: truth-testing one (`if cfg.flag:`) needs a traced value's truth under `jax.jit`;
`equinox.filter_jit` keeps the Python-scalar ones static.
"""

from __future__ import annotations

import ast

from .flow_tables import STATIC_FIELD_KEYWORDS
from .index import ModuleIndex

STATIC_FIELD_FACTORIES = frozenset({"static_field"})
LEAF_ANNOTATIONS = frozenset(
    {"bool", "int", "float", "complex", "jax.Array", "jnp.ndarray", "jnp.array", "Array",
     "chex.Array", "chex.Scalar", "ArrayLike", "jax.typing.ArrayLike", "np.ndarray"}
)  # fmt: skip


HYPERPARAMETER_MODULES = frozenset({"nn.Module", "linen.Module", "flax.linen.Module"})
# Python scalars: a filtering jit (`equinox.filter_jit`) keeps such leaves static.
SCALAR_ANNOTATIONS = frozenset({"bool", "int", "float", "complex", "str"})


def static_fields(index: ModuleIndex) -> frozenset[str]:
    """Field names marked static by any class of this module, in any registration style."""
    found: set[str] = set()
    for cls in index.classes:
        whole_class = any(_leaf_name(decorator) == "register_static" for decorator in cls.decorator_list)
        for name, annotation, value in _fields(cls):
            if whole_class or _static_value(value) or _static_annotation(annotation):
                found.add(name)
        for decorator in cls.decorator_list:
            if isinstance(decorator, ast.Call) and _registers_dataclass(decorator):
                found.update(_meta_fields(decorator))
    for holder in index.holders:  # register_dataclass(C, meta_fields=...) / register_static(C) calls
        node = holder.node
        call = getattr(node, "value", None)
        if isinstance(node, (ast.Expr, ast.Assign)) and isinstance(call, ast.Call):
            leaf = _leaf_name(call.func)
            if _registers_dataclass(call):
                found.update(_meta_fields(call))
            elif leaf == "register_static" and call.args and isinstance(call.args[0], ast.Name):
                found.update(_class_fields(index, call.args[0].id))
    return frozenset(found)


def leaf_fields(index: ModuleIndex, static: frozenset[str], kinds: frozenset[str] = LEAF_ANNOTATIONS) -> frozenset[str]:
    """Field names annotated as one of `kinds` (scalars or arrays), static nowhere in the module."""
    found: set[str] = set()
    for cls in index.classes:
        if any(ast.unparse(base) in HYPERPARAMETER_MODULES for base in cls.bases):
            continue  # linen module attributes are hyperparameters, never traced
        for name, annotation, _ in _fields(cls):
            if annotation is not None and ast.unparse(annotation) in kinds:
                found.add(name)
    return frozenset(found - static)


def _fields(cls: ast.ClassDef):
    for statement in cls.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            yield statement.target.id, statement.annotation, statement.value


def _class_fields(index: ModuleIndex, name: str) -> list[str]:
    for cls in index.classes:
        if cls.name == name:
            return [field for field, _, _ in _fields(cls)]
    return []


def _static_value(value: ast.expr | None) -> bool:
    if not isinstance(value, ast.Call):
        return False
    if _leaf_name(value.func) in STATIC_FIELD_FACTORIES:
        return True
    for keyword in value.keywords:
        wanted = STATIC_FIELD_KEYWORDS.get(keyword.arg or "")
        if wanted is not None and isinstance(keyword.value, ast.Constant) and keyword.value.value is wanted:
            return True
        if keyword.arg == "metadata" and ("static" in ast.unparse(keyword.value) or "pytree_node" in ast.unparse(keyword.value)):
            return True
    return False


def _static_annotation(annotation: ast.expr | None) -> bool:
    """`Static[int]` (jax_dataclasses), `Annotated[int, ...static...]`."""
    if not isinstance(annotation, ast.Subscript):
        return False
    head = _leaf_name(annotation.value)
    return head == "Static" or (head == "Annotated" and "static" in ast.unparse(annotation.slice).lower())


def _registers_dataclass(call: ast.Call) -> bool:
    """`register_dataclass(...)` or `partial(register_dataclass, ...)`."""
    if _leaf_name(call.func) == "register_dataclass":
        return True
    return _leaf_name(call.func) == "partial" and bool(call.args) and _leaf_name(call.args[0]) == "register_dataclass"


def _meta_fields(call: ast.Call) -> list[str]:
    for keyword in call.keywords:
        if keyword.arg == "meta_fields" and isinstance(keyword.value, (ast.List, ast.Tuple)):
            return [e.value for e in keyword.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _leaf_name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else ""
