"""Lowering of structured control flow: `cond`, `while`, `for_loop` and `scan` equations
become statements (loops, switches) around the kernels of their regions.

Loop state lives in buffers: the equation's output buffers hold the carry (initialised by
one copy, since inputs are never written). A carry the body updates in place (see
buffers.py) stays in that one buffer; any other changed carry is double-buffered: the body
writes the next value into a spare buffer and the two pointers are swapped after each
iteration (never copied). Unchanged carries were turned into captured values before
lowering (passes/loop_invariants.py). Scans read each x as a pointer offset into its input
(no copy) and write each y straight into its stacked output. All temporaries are
allocated once, by the entry function, outside every loop.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import Literal
from .interchange import try_interchanged_for_loop
from .buffers import carries_in_place
from .kernel_ir import EntryScalar, For, StepOffset, Swap, Switch, While
from .lower_exprs import copy_kernel
from .loop_ranges import matmul_limits
from .schedule import materialised_vars


def _entry_scalar(region, atom, stmts) -> EntryScalar:
    """A loop bound, flag or switch index: a literal as the user wrote it, or the one
    element of the buffer holding the value."""
    if isinstance(atom, Literal):
        return EntryScalar.literal(atom.value, atom.aval.dtype)
    return EntryScalar.read(region.buffer_for(atom, stmts))


def lower_region(region, ir, args, results, donated=frozenset(), matmul_limits=None) -> list:
    """Statements computing `ir` on `args` (buffers), writing outvar k into results[k].
    `donated` invars' buffers may be overwritten (a carry updated in place);
    `matmul_limits` bounds the region's products (see loop_ranges.py)."""
    bound = dict(zip(ir.invars, args))
    dests, extra = {}, []
    for atom, buf in zip(ir.outvars, results):
        if buf is None:
            continue
        if isinstance(atom, Literal) or atom in bound or atom in dests:
            extra.append((buf, atom))      # not computed here, or wanted twice: copy it
        else:
            dests[atom] = buf
    low = region.nested(ir, bound, dests, donated, matmul_limits)
    stmts = low.lower()
    stmts.extend(low.copy_into(buf, atom, "region result") for buf, atom in extra)
    return stmts


def _init_carry(region, eqn, inits, stmts):
    carry = [region.buffers[v] for v in eqn.outputs[:len(inits)]]
    for buf, init in zip(carry, inits):
        if region.buffers.get(init) is buf:
            continue        # the loop runs in its initial value's buffer (buffers.py)
        stmts.append(region.copy_into(buf, init, "initial carry: the loop owns this buffer "
                                      "(inputs are never written)"))
    return carry


def _loop_body(region, body_ir, args, carry, first, extra_results=(), matmul_limits=None,
               even_trips=False):
    """(the body's statements, the Swaps of its double-buffered carries).

    `first` is the position of the first carry among the body's invars. A carry updated in
    place is the destination of its own update; any other changed carry gets a spare buffer
    that the body writes and the loop swaps with it. `even_trips`: the loop is known to run
    an even number of times, so no carry needs copying home after it (Swap.restore)."""
    n = len(carry)
    invars, outvars = body_ir.invars[first:first + n], body_ir.outvars[:n]
    in_place = carries_in_place(body_ir, materialised_vars(
        body_ir, region.builder.max_fused_height), invars, outvars)
    results, swaps = [], []
    for k in range(n):
        if k in in_place:
            results.append(carry[k])
        elif outvars[k] is invars[k]:
            results.append(None)         # passed through (its type changed, so not hoisted)
        else:
            spare = region.builder.temp(carry[k].shape, carry[k].dtype, "spare")
            restore = None if even_trips else region.builder.add_kernel(copy_kernel(
                spare, carry[k], "the loop stopped after an odd number of pointer swaps, "
                "so the carry is in the spare buffer: copy it home once"))
            results.append(spare)
            swaps.append(Swap(carry[k], spare, restore))
    stmts = lower_region(region, body_ir, args, results + list(extra_results),
                         {invars[k] for k in in_place}, matmul_limits)
    return stmts, swaps


def _cond(region, eqn) -> list:
    stmts = []
    index = _entry_scalar(region, eqn.inputs[0], stmts)
    operands = [region.buffer_for(a, stmts) for a in eqn.inputs[1:]]
    results = [region.buffers[v] for v in eqn.outputs]
    cases = [lower_region(region, branch, operands, results)
             for branch in eqn.params["branches"]]
    stmts.append(Switch(index, cases))
    return stmts


def _while(region, eqn) -> list:
    n = eqn.params["n_carry"]
    cond_ir, body_ir = eqn.params["cond"], eqn.params["body"]
    stmts = []
    carry = _init_carry(region, eqn, eqn.inputs[:n], stmts)
    captured = [region.buffer_for(a, stmts) for a in eqn.inputs[n:]]
    flag = region.builder.temp((), np.bool_, "flag")
    cond = lower_region(region, cond_ir, carry + captured, [flag])
    body, swaps = _loop_body(region, body_ir, carry + captured, carry, 0)
    stmts.append(While(cond, flag, body, swaps, region.builder.fresh("odd")))
    return stmts


def _for_loop(region, eqn) -> list:
    n = eqn.params["n_carry"]
    body_ir = eqn.params["body"]
    stmts = []
    lower = _entry_scalar(region, eqn.inputs[0], stmts)
    upper = _entry_scalar(region, eqn.inputs[1], stmts)
    interchanged = try_interchanged_for_loop(region, eqn, lower, upper)
    if interchanged is not None:
        return stmts + interchanged
    carry = _init_carry(region, eqn, eqn.inputs[2:2 + n], stmts)
    captured = [region.buffer_for(a, stmts) for a in eqn.inputs[2 + n:]]
    index = region.builder.temp((), body_ir.invars[0].aval.dtype, "index")
    limits = matmul_limits(eqn, region.producers)
    body, swaps = _loop_body(region, body_ir, [index] + carry + captured, carry, 1,
                             matmul_limits=limits, even_trips=_even_trips(lower, upper))
    # Products bounded by the index read its buffer too (MatmulKernel.limits).
    read = bool(limits) or _reads(body_ir, body_ir.invars[0])
    stmts.append(For(region.builder.fresh("it"), lower, upper, body, index, swaps=swaps,
                     parity=region.builder.fresh("odd"), index_read=read))
    return stmts


def _even_trips(lower, upper) -> bool:
    """Are both bounds literals, with an even number of iterations (none counts) between?"""
    if lower.buffer is not None or upper.buffer is not None:
        return False
    return max(0, int(upper.value) - int(lower.value)) % 2 == 0


def _reads(ir, var) -> bool:
    """Does `ir` read `var`? (Nested regions receive what they capture as inputs.)"""
    return var in ir.outvars or any(var in eqn.inputs for eqn in ir.eqns)


def _scan(region, eqn) -> list:
    p = eqn.params
    n, n_xs, length = p["n_carry"], p["n_xs"], p["length"]
    stmts = []
    carry = _init_carry(region, eqn, eqn.inputs[:n], stmts)
    xs = [region.buffer_for(a, stmts) for a in eqn.inputs[n:n + n_xs]]
    captured = [region.buffer_for(a, stmts) for a in eqn.inputs[n + n_xs:]]
    var = region.builder.fresh("it")

    def step_view(buf):
        offset = StepOffset(var, math.prod(buf.shape[1:]), length if p["reverse"] else None)
        return region.builder.view(buf, buf.shape[1:], offset)
    x_views = [step_view(x) for x in xs]
    y_views = [step_view(region.buffers[v]) for v in eqn.outputs[n:]]
    body, swaps = _loop_body(region, p["body"], carry + x_views + captured, carry, 0, y_views,
                             even_trips=length % 2 == 0)
    first, end = (EntryScalar.literal(v, np.int64) for v in (0, length))
    stmts.append(For(var, first, end, body, swaps=swaps,
                     parity=region.builder.fresh("odd")))
    return stmts


# Statements for each control-flow primitive (lower.py's STATEMENT_LOWERINGS holds them).
CONTROL_FLOW_LOWERINGS = {"cond": _cond, "while": _while, "for_loop": _for_loop, "scan": _scan}
