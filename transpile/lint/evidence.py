"""Is a parameter an array (or a pytree of them), or a plain Python scalar?

This decides the advice for a value-dependent branch: a scalar argument is best made static
(`static_argnames`), while a branch on array data needs `lax.cond`/`tnp.where`. A parameter
made static that is used as an array fails (arrays are unhashable), so a static fix is never
offered for one with array evidence. Static type information is rarely there, so we look for
evidence: annotations, defaults, and how the body uses the parameter (indexing, attributes
like `.shape`, iteration, `len()`, `@`, being passed to an array-namespace function).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .astwalk import nodes_of
from .index import Function, all_args

SCALAR_ANNOTATIONS = frozenset({"int", "float", "bool", "complex", "str"})
ARRAY_ANNOTATION_WORDS = ("Array", "ndarray", "list", "List", "tuple", "Tuple", "dict", "Dict",
                          "Sequence", "Mapping", "Iterable", "PyTree")  # fmt: skip
RECEIVER_NAMES = frozenset({"self", "cls"})
# Builtins that only make sense on a sequence, so their argument is not a scalar.
CONTAINER_BUILTINS = frozenset({"len", "enumerate", "zip", "iter", "reversed", "sorted", "list", "tuple"})


def array_like_params(function: Function, is_array_call: Callable[[ast.Call], bool] | None = None) -> frozenset[str]:
    """Parameters used as arrays. `is_array_call(call)` says whether a call is to an array
    namespace (its arguments are then array-like)."""
    scalar, array = _signature_evidence(function)
    params = {p.arg for p in all_args(function.args)} - RECEIVER_NAMES
    found: set[str] = set()
    for node in nodes_of(function, *_USE_TYPES):
        for name in _uses(node, is_array_call):
            if name in params:
                found.add(name)
    return frozenset((array | found) - scalar)


_USE_TYPES = (ast.Subscript, ast.Attribute, ast.For, ast.comprehension, ast.BinOp, ast.Call)


def _uses(node: ast.AST, is_array_call) -> list[str]:
    if isinstance(node, (ast.Subscript, ast.Attribute)):
        return _name(node.value)
    if isinstance(node, (ast.For, ast.comprehension)):
        return _name(node.iter)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return _name(node.left) + _name(node.right)
    if isinstance(node, ast.Call):
        func = node.func
        if (isinstance(func, ast.Name) and func.id in CONTAINER_BUILTINS) or (
            is_array_call is not None and is_array_call(node)
        ):
            found = []
            for arg in node.args:
                found.extend(_name(arg))
            return found
    return []


def _name(node: ast.AST) -> list[str]:
    return [node.id] if isinstance(node, ast.Name) else []


def _signature_evidence(function: Function) -> tuple[set[str], set[str]]:
    scalar: set[str] = set()
    array: set[str] = set()
    args = function.args
    star = {p.arg for p in (args.vararg, args.kwarg) if p is not None}
    defaults = _defaults_by_name(args)
    for param in all_args(args):
        name = param.arg
        if name in star:
            array.add(name)  # *args / **kwargs are tuples/dicts: never a hashable scalar
            continue
        annotation = _annotation_text(param.annotation)
        if annotation in SCALAR_ANNOTATIONS or _is_scalar_literal(defaults.get(name)):
            scalar.add(name)
        elif annotation and any(word in annotation for word in ARRAY_ANNOTATION_WORDS):
            array.add(name)
    return scalar, array


def _defaults_by_name(args: ast.arguments) -> dict[str, ast.expr]:
    positional = [*args.posonlyargs, *args.args]
    found = {p.arg: d for p, d in zip(positional[len(positional) - len(args.defaults) :], args.defaults)}
    found.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return found


def _annotation_text(annotation: ast.expr | None) -> str:
    if annotation is None:
        return ""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value
    return ast.unparse(annotation)


def _is_scalar_literal(default: ast.expr | None) -> bool:
    if isinstance(default, ast.UnaryOp):
        default = default.operand
    return isinstance(default, ast.Constant) and isinstance(default.value, (int, float, complex, str, bool))


# Methods only a dict has: a parameter receiving them is a dict pytree, whose keys are static.
DICT_METHODS = frozenset({"items", "keys", "values", "get"})
SEQUENCE_ANNOTATION_WORDS = ("list", "List", "tuple", "Tuple", "Sequence", "dict", "Dict", "Mapping")


def container_params(function: Function) -> dict[str, str]:
    """Parameters that are Python containers of arrays: "dict" or "sequence".

    A container's truth value and length are known while tracing (`if not xs`, `sorted(d)`),
    unlike an array's. Evidence: an annotation, `*args`/`**kwargs`, dict methods, or being
    iterated, measured with len(), zipped or enumerated.
    """
    args = function.args
    found: dict[str, str] = {}
    if args.vararg is not None:
        found[args.vararg.arg] = "sequence"
    if args.kwarg is not None:
        found[args.kwarg.arg] = "dict"
    params = {p.arg for p in all_args(args)} - RECEIVER_NAMES
    for name, default in _defaults_by_name(args).items():
        if isinstance(default, ast.Constant) and default.value is None:
            found[name] = "optional"  # `if opt:` asks whether it was given: pytree structure
    for param in all_args(args):
        annotation = _annotation_text(param.annotation)
        if any(word in annotation for word in SEQUENCE_ANNOTATION_WORDS):
            found[param.arg] = "dict" if "ict" in annotation or "Mapping" in annotation else "sequence"
    for node in nodes_of(function, *_CONTAINER_USE_TYPES):
        name, kind = _container_use(node)
        if name in params and found.get(name) != "dict":
            found[name] = kind
    return found


_CONTAINER_USE_TYPES = (ast.Call, ast.For, ast.comprehension, ast.Subscript)


def _container_use(node: ast.AST) -> tuple[str | None, str]:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in DICT_METHODS and isinstance(func.value, ast.Name):
            return func.value.id, "dict"
        if isinstance(func, ast.Name) and func.id in ("len", "zip", "enumerate", "sum", "sorted") and node.args:
            first = node.args[0]
            return (first.id if isinstance(first, ast.Name) else None), "sequence"
    if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name):
        return node.iter.id, "sequence"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return node.value.id, "dict"
    return None, ""


def called_params(function: Function) -> frozenset[str]:
    """Parameters called like functions (`model(x)`) and the parameters passed to them.

    Under a filtering jit (`equinox.filter_jit`) a called parameter is usually a module: a
    pytree whose arrays are traced, and what it is called with is usually array data."""
    params = {p.arg for p in all_args(function.args)} - RECEIVER_NAMES
    found: set[str] = set()
    for call in nodes_of(function, ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in params:
            found.add(call.func.id)
            found.update(arg.id for arg in call.args if isinstance(arg, ast.Name) and arg.id in params)
    return frozenset(found)
