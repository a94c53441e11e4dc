"""Is a parameter an array (or a pytree of them), or a plain Python scalar?

This decides the advice for a value-dependent branch: a scalar argument is best made static
(`static_argnames`), while a branch on array data needs `lax.cond`/`tnp.where`. Static type
information is rarely there, so we look for evidence: annotations, defaults, and how the body
uses the parameter (indexing, attributes like `.shape`, iteration, `len()`).
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .fastwalk import FastWalker
from .index import Function

SCALAR_ANNOTATIONS = frozenset({"int", "float", "bool", "complex", "str"})
ARRAY_ANNOTATION_WORDS = ("Array", "ndarray", "list", "List", "tuple", "Tuple", "dict", "Dict",
                          "Sequence", "Mapping", "Iterable")  # fmt: skip
RECEIVER_NAMES = frozenset({"self", "cls"})
# Builtins that only make sense on a sequence, so their argument is not a scalar.
CONTAINER_BUILTINS = frozenset({"len", "enumerate", "zip", "iter", "reversed", "sorted", "list", "tuple"})


def array_like_params(function: Function) -> frozenset[str]:
    scalar, array = _signature_evidence(function)
    finder = _UseFinder({p for p in _param_names(function) if p not in RECEIVER_NAMES})
    finder.walk(function.body)
    return frozenset((array | finder.array_like) - scalar)


def _param_names(function: Function) -> list[str]:
    return [param.name.value for param in _params(function)]


def _params(function: Function) -> list[cst.Param]:
    params = function.params
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        found.append(params.star_arg)
    if params.star_kwarg is not None:
        found.append(params.star_kwarg)
    return found


def _signature_evidence(function: Function) -> tuple[set[str], set[str]]:
    scalar: set[str] = set()
    array: set[str] = set()
    params = function.params
    star_params = {p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)}
    for param in _params(function):
        name = param.name.value
        if param in star_params:
            array.add(name)  # *args / **kwargs are tuples/dicts: never a hashable scalar
            continue
        annotation = _annotation_text(param)
        if annotation in SCALAR_ANNOTATIONS or _is_scalar_literal(param.default):
            scalar.add(name)
        elif annotation and any(word in annotation for word in ARRAY_ANNOTATION_WORDS):
            array.add(name)
    return scalar, array


def _annotation_text(param: cst.Param) -> str:
    if param.annotation is None:
        return ""
    annotation = param.annotation.annotation
    if isinstance(annotation, cst.SimpleString):
        return str(annotation.evaluated_value)
    return get_full_name_for_node(annotation) or cst.Module([]).code_for_node(annotation)


def _is_scalar_literal(default: cst.BaseExpression | None) -> bool:
    if isinstance(default, cst.UnaryOperation):
        default = default.expression
    if isinstance(default, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    return isinstance(default, cst.Name) and default.value in ("True", "False")


class _UseFinder(FastWalker):
    def __init__(self, params: set[str]):
        self.params = params
        self.array_like: set[str] = set()

    def _note(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name) and node.value in self.params:
            self.array_like.add(node.value)

    def enter_Subscript(self, node: cst.Subscript) -> None:
        self._note(node.value)

    def enter_Attribute(self, node: cst.Attribute) -> None:
        self._note(node.value)

    def enter_For(self, node: cst.For) -> None:
        self._note(node.iter)

    def enter_CompFor(self, node: cst.CompFor) -> None:
        self._note(node.iter)

    def enter_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in CONTAINER_BUILTINS:
            for arg in node.args:
                self._note(arg.value)
