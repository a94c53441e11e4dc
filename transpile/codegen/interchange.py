"""Loop interchange for elementwise `fori_loop`s.

A fori_loop whose body only does elementwise work on carries of one shape (the Mandelbrot
iteration over a grid, a per-element Newton step) is legal to run inside out: one
parallel loop over the elements, and within it the iteration loop on scalar carries held
in registers. Memory is then read and written once, instead of once per iteration.
"""
from __future__ import annotations

from ..ir import Literal
from ..primitives import COMPLEX_PARTS, ELEMENTWISE_UFUNC, SPECIAL_UNARY
from .kernel_ir import Affine, Call, Expr, IteratedKernel
from .lower_exprs import cast, short_source
from .schedule import deepest_fused_height

_ELEMENTWISE = set(ELEMENTWISE_UFUNC) | set(SPECIAL_UNARY) | set(COMPLEX_PARTS) | {
    "select", "convert_element_type", "bitcast_convert_type"}


def _is_elementwise_body(body, shape) -> bool:
    for eqn in body.eqns:
        name = eqn.prim.name
        scalar_broadcast = name == "broadcast_in_dim" and eqn.inputs[0].aval.shape == ()
        if name not in _ELEMENTWISE and not scalar_broadcast:
            return False
        if any(o.aval.shape not in (shape, ()) for o in eqn.outputs):
            return False
    return True


def can_interchange(eqn) -> bool:
    n = eqn.params["n_carry"]
    body = eqn.params["body"]
    carries = eqn.outputs
    if not carries:
        return False
    shape = carries[0].aval.shape
    if shape == () or any(c.aval.shape != shape for c in carries):
        return False
    captured = eqn.inputs[2 + n:]
    if any(a.aval.shape not in (shape, ()) for a in captured):
        return False
    return _is_elementwise_body(body, shape)


def try_interchanged_for_loop(region, eqn, lower, upper):
    """Statements for the interchanged loop, or None when interchange is not legal, or when
    the body is deeper than the dialect lets one kernel be (interchanged, the whole body
    is one kernel's expression: see schedule.materialised_vars)."""
    cap = region.builder.max_fused_height
    if not can_interchange(eqn) or (cap is not None and
                                    deepest_fused_height(eqn.params["body"]) >= cap):
        return None
    n = eqn.params["n_carry"]
    body = eqn.params["body"]
    shape = eqn.outputs[0].aval.shape
    nvars = len(shape)
    idx = tuple(Affine.var(d, nvars) for d in range(nvars))
    stmts = []
    captured = [region.buffer_for(a, stmts) for a in eqn.inputs[2 + n:]]
    inner = region.nested(body, dict(zip(body.invars[1 + n:], captured)))
    index_var = body.invars[0]
    index_name = region.builder.fresh("iter")
    inner.leaf_exprs[index_var] = Expr("var", (index_name,), index_var.aval.dtype)
    names = [region.builder.fresh("carry") for _ in range(n)]
    for name, var in zip(names, body.invars[1:1 + n]):
        inner.leaf_exprs[var] = Expr("var", (name,), var.aval.dtype)
    carries = []
    for k in range(n):
        init = eqn.inputs[2 + k]
        init_expr = region.value_at(init, idx if init.aval.shape else (), nvars)
        out = body.outvars[k]
        update = inner.value_at(out, idx if not isinstance(out, Literal) and out.aval.shape
                                else (), nvars)
        dtype = eqn.outputs[k].aval.dtype
        carries.append((names[k], cast(init_expr, dtype, None), cast(update, dtype, None),
                        region.buffers[eqn.outputs[k]]))
    where = f" at {short_source(eqn.source)}" if eqn.source else ""    # never the full path
    kernel = IteratedKernel(shape, carries, index_name, index_var.aval.dtype,
                            f"fori_loop{where}, interchanged: elements outside, iterations inside")
    call = region.builder.add_kernel(kernel)
    stmts.append(Call(call.kernel, (lower, upper)))
    return stmts
