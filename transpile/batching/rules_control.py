"""Batching structured control flow: cond/switch, while_loop, fori_loop and scan.

- cond with the same branch for every member stays a cond over batched branches; with a
  batched index every branch runs and each member selects its own results (as JAX does).
- while_loop with a batched predicate runs until every member is done; a member that is done
  keeps its carry (the body's results are selected away for it).
- fori_loop with batched bounds becomes such a while_loop over (i, upper, carry).
- scan scans the same axis; batched scanned inputs carry the batch in axis 1.
"""
from __future__ import annotations

import numpy as np

from .. import primitives as P
from ..core import aval_of, bind, trace_stack
from ..dtypes import is_inexact
from ..ir_eval import eval_ir
from .moves import batched_aval, moveaxis, to_front
from .regions import (batch_region, batched_outputs, merge_captures, settle_carry,
                      trace_region)
from .table import batching_rules, register
from .transform import batch_ir, settle

EQ, LT, ADD, MAX, MIN, REDUCE_OR, STOP_GRADIENT = (P.get(name) for name in (
    "eq", "lt", "add", "max", "min", "reduce_or", "stop_gradient"))


def _front(values, dims):
    """Batched values with their batch axis in front; unbatched ones unchanged."""
    return [x if d is None else moveaxis(x, d, 0) for x, d in zip(values, dims)]


def _flags(dims):
    return [d is not None for d in dims]


def _select(size, pred, on_true, d_true, on_false, d_false):
    """Per member: on_true where pred (batched along 0, one flag per member), else on_false."""
    return batching_rules["select"](size, [pred, on_true, on_false], [0, d_true, d_false])


# -- cond / switch ------------------------------------------------------------------------------

@register("cond")
def cond_batching(size, values, dims, *, branches):
    index, operands = values[0], _front(values[1:], dims[1:])
    in_batched = _flags(dims[1:])
    if dims[0] is not None:
        return _cond_as_select(size, moveaxis(index, dims[0], 0), operands, in_batched, branches)
    out_batched = [any(flags) for flags in zip(*(batched_outputs(b, in_batched, size)
                                                for b in branches))]
    regions = [batch_region(b, in_batched, size, "a vmapped lax.cond branch", out_batched)[:2]
               for b in branches]
    merged, captured = merge_captures(regions)
    outs = bind(P.cond, index, *operands, *captured, branches=tuple(merged))
    return list(outs), [0 if b else None for b in out_batched]


def _cond_as_select(size, index, operands, in_batched, branches):
    """A batched index: every branch runs on every member, then each member picks its own."""
    index = bind(MIN, bind(MAX, index, 0), len(branches) - 1)     # clamped, as cond does
    results = [batch_ir(b, *_guarded_operands(size, bind(EQ, index, i), operands, in_batched),
                        size)
               for i, b in enumerate(branches)]
    outs, out_dims = results[0]
    outs, out_dims = list(outs), list(out_dims)
    for i, (b_outs, b_dims) in enumerate(results[1:], start=1):
        pick = bind(EQ, index, i)
        for k in range(len(outs)):
            if b_outs[k] is outs[k] and b_dims[k] == out_dims[k]:
                continue    # one value both branches forward: no select, unbatched stays so
            outs[k], out_dims[k] = _select(size, pick, b_outs[k], b_dims[k], outs[k],
                                           out_dims[k])
    return outs, out_dims


def _guarded_operands(size, taken, operands, in_batched):
    """(operands, dims) for one branch of a cond run on every member. Under differentiation
    each inexact operand passes unchanged to the members taking the branch and through
    stop_gradient to the others, as JAX guards it (its issue 1052): the derivative of a
    branch a member did not take (sqrt's at 0, say: inf, times a zero cotangent: NaN) then
    never reaches that member's gradient. Elsewhere the operands pass as they are."""
    dims = [0 if f else None for f in in_batched]
    if not any(getattr(t, "differentiating", False) for t in trace_stack()):
        return operands, dims
    guarded, guarded_dims = [], []
    for x, d in zip(operands, dims):
        if is_inexact(aval_of(x).dtype):
            x, d = _select(size, taken, x, d, bind(STOP_GRADIENT, x), d)
        guarded.append(x)
        guarded_dims.append(d)
    return guarded, guarded_dims


# -- while_loop ---------------------------------------------------------------------------------

@register("while")
def while_batching(size, values, dims, *, cond, body, n_carry):
    rest_b = _flags(dims[n_carry:])
    carry_b = settle_carry(body, _flags(dims[:n_carry]), rest_b, size)
    pred_batched = batched_outputs(cond, carry_b + rest_b, size)[0]
    if pred_batched:
        carry_b = [True] * n_carry
        cond_r, body_r = _lanewise_while_regions(size, cond, body, n_carry, rest_b)
    else:
        cond_r = batch_region(cond, carry_b + rest_b, size, "a vmapped lax.while_loop cond",
                              [False])[:2]
        body_r = batch_region(body, carry_b + rest_b, size, "a vmapped lax.while_loop body",
                              carry_b)[:2]
    carry = _carry_in(values[:n_carry], dims[:n_carry], carry_b, size)
    (cond_ir, body_ir), captured = merge_captures([cond_r, body_r])
    rest = _front(values[n_carry:], dims[n_carry:])
    outs = bind(P.while_loop, *carry, *rest, *captured, cond=cond_ir, body=body_ir,
                n_carry=n_carry)
    return list(outs), [0 if b else None for b in carry_b]


def _carry_in(values, dims, carry_batched, size):
    """Initial carries batched along axis 0 where the loop carries them batched."""
    return [to_front(x, d, size) if b else x for x, d, b in zip(values, dims, carry_batched)]


def _lanewise_while_regions(size, cond, body, n_carry, rest_b):
    """cond: does any member go on? body: step every member, keep the old carry of members
    whose own predicate is false."""
    in_dims = [0] * n_carry + [0 if b else None for b in rest_b]
    avals = [batched_aval(v.aval, size) if d == 0 else v.aval
             for v, d in zip(cond.invars, in_dims)]

    def member_pred(args):
        (p,), (pd,) = batch_ir(cond, args, in_dims, size)
        return settle([p], [pd], [True], size)[0]

    def any_member(args):
        return [bind(REDUCE_OR, member_pred(args), axes=(0,))]

    def step(args):
        pred = member_pred(args)
        new, new_dims = batch_ir(body, args, in_dims, size)
        kept = [_select(size, pred, n, d, old, 0)
                for n, d, old in zip(new, new_dims, args[:n_carry])]
        return settle([x for x, _ in kept], [d for _, d in kept], [True] * n_carry, size)
    return (trace_region(any_member, avals, "a vmapped lax.while_loop cond"),
            trace_region(step, avals, "a vmapped lax.while_loop body"))


# -- fori_loop ----------------------------------------------------------------------------------

@register("for_loop")
def for_loop_batching(size, values, dims, *, body, n_carry):
    if dims[0] is not None or dims[1] is not None:
        return _for_as_while(size, values, dims, body, n_carry)
    lower, upper = values[0], values[1]
    rest = _front(values[2 + n_carry:], dims[2 + n_carry:])
    rest_b = _flags(dims[2 + n_carry:])
    carry_b = settle_carry(body, _flags(dims[2:2 + n_carry]), rest_b, size, n_in_front=1)
    region, captured, _ = batch_region(body, [False] + carry_b + rest_b, size,
                                       "a vmapped lax.fori_loop body", carry_b)
    carry = _carry_in(values[2:2 + n_carry], dims[2:2 + n_carry], carry_b, size)
    outs = bind(P.for_loop, lower, upper, *carry, *rest, *captured, body=region,
                n_carry=n_carry)
    return list(outs), [0 if b else None for b in carry_b]


def _for_as_while(size, values, dims, body, n_carry):
    """Per-member bounds: the loop as while (i < upper) over the carry (i, upper, *carry)."""
    index_aval = body.invars[0].aval
    avals = [index_aval, index_aval] + [v.aval for v in body.invars[1:]]

    def keep_going(args):
        return [bind(LT, args[0], args[1])]

    def step(args):
        i, upper = args[0], args[1]
        new_carry = eval_ir(body, [], [i, *args[2:]])
        return [bind(ADD, i, _one(index_aval)), upper, *new_carry]
    cond_ir, _ = trace_region(keep_going, avals, "fori_loop as while_loop cond")
    body_ir, _ = trace_region(step, avals, "fori_loop as while_loop body")
    outs, out_dims = while_batching(size, values, dims, cond=cond_ir, body=body_ir,
                                    n_carry=n_carry + 2)
    return outs[2:], out_dims[2:]


def _one(aval):
    return 1 if aval.weak_type else np.asarray(1, dtype=aval.dtype)[()]


# -- scan ---------------------------------------------------------------------------------------

@register("scan")
def scan_batching(size, values, dims, *, body, n_carry, n_xs, length, reverse):
    carry_d, xs_d, rest_d = dims[:n_carry], dims[n_carry:n_carry + n_xs], dims[n_carry + n_xs:]
    xs = [x if d is None else moveaxis(x, d, 1)       # axis 0 is the scanned one
          for x, d in zip(values[n_carry:n_carry + n_xs], xs_d)]
    rest = _front(values[n_carry + n_xs:], rest_d)
    others = _flags(xs_d) + _flags(rest_d)
    carry_b = settle_carry(body, _flags(carry_d), others, size)
    ys_b = batched_outputs(body, carry_b + others, size)[n_carry:]
    region, captured, _ = batch_region(body, carry_b + others, size, "a vmapped lax.scan body",
                                       carry_b + ys_b)
    carry = _carry_in(values[:n_carry], carry_d, carry_b, size)
    outs = bind(P.scan, *carry, *xs, *rest, *captured, body=region, n_carry=n_carry,
                n_xs=n_xs, length=length, reverse=reverse)
    return list(outs), [0 if b else None for b in carry_b] + [1 if b else None for b in ys_b]
