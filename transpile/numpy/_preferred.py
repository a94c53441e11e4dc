"""`precision=` and `preferred_element_type=` for the products (dot, matmul, inner, tensordot,
vdot, einsum, lax.dot, lax.dot_general), as JAX takes them.

`preferred_element_type` is the result's dtype and, where the operands convert to it without
loss, the type the products are accumulated in, as XLA does: int8 operands with int32
accumulate without wrapping, float32 with float64 sum in float64. Otherwise (a narrower or
other-kind type) the product is computed in the operands' type and converted.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np

from .. import dtypes
from ..core import aval_of
from ..precision import check_precision
from ..base.operands import astype, strong_operand


def _unchanged(result):
    return result


def accumulate_in(operands, precision, preferred_element_type, what: str):
    """(operands to multiply, a function finishing the result) for a product `what`."""
    check_precision(precision, what)
    if preferred_element_type is None:
        return list(operands), _unchanged
    target = dtypes.canonicalize(preferred_element_type, what=f"{what}: preferred_element_type")
    operands = [strong_operand(x) for x in operands]
    if all(np.can_cast(aval_of(x).dtype, target, "safe") for x in operands):
        operands = [astype(x, target) for x in operands]
    return operands, lambda result: astype(result, target)


def takes_precision(product):
    """Give a product of two operands `fn(a, b, ...)` JAX's keyword-only `precision` and
    `preferred_element_type` arguments."""
    @functools.wraps(product)
    def with_precision(a, b, *args, precision=None, preferred_element_type=None, **kwargs):
        (a, b), finish = accumulate_in((a, b), precision, preferred_element_type,
                                       product.__name__)
        return finish(product(a, b, *args, **kwargs))
    signature = inspect.signature(product)
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
             for name in ("precision", "preferred_element_type")]
    with_precision.__signature__ = signature.replace(
        parameters=list(signature.parameters.values()) + extra)
    return with_precision
