"""Differentiating lax loops: `scan`, `fori_loop` (for_loop) and `while_loop` (see
control_flow.py for the two modes and the shared region helpers)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import ShapedArray, aval_of, bind, current_trace
from . import ops
from .control_flow import (WHILE_REVERSE_MESSAGE, ReverseModeError, _flags, _inexact,
                           _linearize, _linearizing, _merge, _region, _tangent_list,
                           _tangent_mask, transpose_linear_ir)


# -- scan -----------------------------------------------------------------------------------

def _carry_fixpoint(body, wrt, n_carry, what):
    """Which carries have tangents: those given one, and those the body gives one."""
    while True:
        lin = _linearize(body, wrt, what)
        carry = [w or (lin.tangent_out[k] is not None and _inexact(body.invars[k].aval))
                 for k, w in enumerate(wrt[:n_carry])]
        if carry == wrt[:n_carry]:
            return lin, wrt
        wrt = carry + wrt[n_carry:]


def scan_jvp(primals, tangents, *, body, n_carry, n_xs, length, reverse):
    if current_trace() is None:
        return _eager_scan_jvp(primals, tangents, body, n_carry, n_xs, length, reverse)
    avals = [v.aval for v in body.invars]
    if not _linearizing():
        return _fused_scan_jvp(primals, tangents, body, n_carry, n_xs, length, reverse)
    lin, wrt = _carry_fixpoint(body, _flags(tangents, avals), n_carry, "a lax.scan body")
    n_in = len(avals)
    consts_from = n_carry + n_xs
    # Residuals that are loop-invariant (the body's captured values, or constants) are
    # passed to the tangent loop once; the others are stacked per iteration.
    jvp_invars = lin.jvp_ir.invars[:n_in]
    position = {v: k for k, v in enumerate(jvp_invars)}
    constvars = set(lin.jvp_ir.constvars)
    outer = dict(zip(lin.captured_vars, lin.captured))     # values of enclosing traces
    invariant = [v in constvars or v in outer or position.get(v, -1) >= consts_from
                 for v in lin.residual_vars]
    # Residuals that are slices of the scanned xs are read from the xs themselves.
    from_xs = [n_carry <= position.get(v, -1) < consts_from for v in lin.residual_vars]

    def primal_body(args):
        outs, res = lin.forward(args)
        carry = [ops.exact(o, a) for o, a in zip(outs[:n_carry], avals[:n_carry])]
        return carry + list(outs[n_carry:]) + [
            r for r, inv, x in zip(res, invariant, from_xs) if not inv and not x]
    region, captured = _region(primal_body, avals, "a lax.scan body")
    results = bind(P.scan, *primals, *captured, body=region, n_carry=n_carry, n_xs=n_xs,
                   length=length, reverse=reverse)
    n_out = len(body.outvars)
    outs, computed = results[:n_out], iter(results[n_out:])
    stacked = [primals[position[v]] if x else next(computed)
               for v, inv, x in zip(lin.residual_vars, invariant, from_xs) if not inv]
    invariant_values = []
    for v, inv in zip(lin.residual_vars, invariant):
        if inv:
            if v in constvars:
                invariant_values.append(lin.consts[lin.jvp_ir.constvars.index(v)])
            else:
                invariant_values.append(outer[v] if v in outer else primals[position[v]])
    out_avals = [v.aval for v in body.outvars]
    carry_mask = wrt[:n_carry]
    ys_mask = [lin.tangent_out[n_carry + j] is not None for j in range(n_out - n_carry)]
    t_carry = [ops.instantiate(t, a) for t, a, w in
               zip(tangents[:n_carry], avals[:n_carry], carry_mask) if w]
    t_xs = [t for t, w in zip(tangents[n_carry:consts_from], wrt[n_carry:consts_from]) if w]
    t_consts = [t for t, w in zip(tangents[consts_from:], wrt[consts_from:]) if w]
    res_avals = [v.aval for v, inv in zip(lin.residual_vars, invariant) if not inv]
    inv_avals = [v.aval for v, inv in zip(lin.residual_vars, invariant) if inv]
    t_avals = [a for a, w in zip(avals, wrt) if w]
    n_tc, n_tx = len(t_carry), len(t_xs)
    layout = [len(t_carry), len(res_avals), n_tx, len(inv_avals), len(t_consts)]

    def linear_body(args):
        tc, rx, tx, ir_, tk = _cut(args, layout)
        it_r, it_i = iter(rx), iter(ir_)
        residuals = [next(it_i) if inv else next(it_r) for inv in invariant]
        touts = lin.apply(residuals, list(tc) + list(tx) + list(tk))
        carry_t = [ops.exact(ops.instantiate(t, a), a) for t, a, m in
                   zip(touts[:n_carry], avals[:n_carry], carry_mask) if m]
        ys_t = [ops.instantiate(t, a) for t, a, m in
                zip(touts[n_carry:], out_avals[n_carry:], ys_mask) if m]
        return carry_t + ys_t
    lin_avals = t_avals[:n_tc] + res_avals + t_avals[n_tc:n_tc + n_tx] + inv_avals + \
        t_avals[n_tc + n_tx:]
    region, captured = _region(linear_body, lin_avals, "the tangent of a lax.scan body")
    touts = bind(P.scan, *t_carry, *stacked, *t_xs, *invariant_values, *t_consts, *captured,
                 body=region, n_carry=n_tc, n_xs=len(res_avals) + n_tx, length=length,
                 reverse=reverse)
    it = iter(touts)
    t_out = [next(it) if m else None for m in carry_mask] + \
        [next(it) if m else None for m in ys_mask]
    return list(outs), t_out


def _fused_scan_jvp(primals, tangents, body, n_carry, n_xs, length, reverse):
    """Forward mode: one scan carrying values and tangents (nothing stored per step)."""
    from .jvp import jvp_eval
    avals = [v.aval for v in body.invars]
    wrt = _flags(tangents, avals)
    while True:                                 # carries that get a tangent
        out_mask = _tangent_mask(body, wrt)
        carry = [w or (m and _inexact(a)) for w, m, a in
                 zip(wrt[:n_carry], out_mask[:n_carry], avals[:n_carry])]
        if carry == wrt[:n_carry]:
            break
        wrt = carry + wrt[n_carry:]
    out_avals = [v.aval for v in body.outvars]
    ys_mask = [m and _inexact(a) for m, a in zip(out_mask[n_carry:], out_avals[n_carry:])]
    n_k = len(avals) - n_carry - n_xs
    masks = _cut(wrt, [n_carry, n_xs, n_k])
    p_parts = _cut(primals, [n_carry, n_xs, n_k])
    t_parts = [[ops.instantiate(t, aval_of(p)) for t, p, w in zip(ts, ps, m) if w]
               for ts, ps, m in zip(_cut(tangents, [n_carry, n_xs, n_k]), p_parts, masks)]
    a_parts = _cut(avals, [n_carry, n_xs, n_k])
    layout = [n_carry, len(t_parts[0]), n_xs, len(t_parts[1]), n_k, len(t_parts[2])]

    def step(args):
        c, tc, x, tx, k, tk = _cut(args, layout)
        tangents_in = (_tangent_list(masks[0], tc) + _tangent_list(masks[1], tx) +
                       _tangent_list(masks[2], tk))
        outs, touts = jvp_eval(body, [], c + x + k, tangents_in)
        carry_out = [ops.exact(o, a) for o, a in zip(outs[:n_carry], a_parts[0])]
        t_carry = [ops.exact(ops.instantiate(t, a), a) for t, a, m in
                   zip(touts[:n_carry], a_parts[0], masks[0]) if m]
        t_ys = [ops.instantiate(t, a) for t, a, m in
                zip(touts[n_carry:], out_avals[n_carry:], ys_mask) if m]
        return carry_out + t_carry + list(outs[n_carry:]) + t_ys
    step_avals = []
    for part, mask in zip(a_parts, masks):
        step_avals += part + [a for a, m in zip(part, mask) if m]
    region, captured = _region(step, step_avals, "a lax.scan body")
    operands = []
    for p_, t_ in zip(p_parts, t_parts):
        operands += list(p_) + t_
    results = bind(P.scan, *operands, *captured, body=region,
                   n_carry=n_carry + len(t_parts[0]), n_xs=n_xs + len(t_parts[1]),
                   length=length, reverse=reverse)
    n_tc = len(t_parts[0])
    carry, t_carry = results[:n_carry], results[n_carry:n_carry + n_tc]
    rest = results[n_carry + n_tc:]
    n_ys = len(out_avals) - n_carry
    ys, t_ys = rest[:n_ys], rest[n_ys:]
    return (list(carry) + list(ys),
            _tangent_list(masks[0], t_carry) + _tangent_list(ys_mask, t_ys))


def _cut(values, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(list(values[start:start + n]))
        start += n
    return out


def scan_transpose(cts, args, *, body, n_carry, n_xs, length, reverse):
    """A linear scan's transpose: a scan the other way, carrying the carries' cotangents
    and accumulating those of linear loop-invariant operands, its ys the cotangents of the
    linear xs."""
    from .transpose_rules import is_linear
    cts = cts if isinstance(cts, list) else [cts]
    out_avals = [v.aval for v in body.outvars]
    n_ys = len(out_avals) - n_carry
    carry, xs, consts = _cut(args, [n_carry, n_xs, len(args) - n_carry - n_xs])
    # Every carry of a tangent loop is a tangent; one may start as known zeros (a carry
    # that gets its tangent in the loop): it is transposed too, its cotangent dropped.
    ct_carry = [ops.instantiate(c, a) for c, a in zip(cts[:n_carry], out_avals[:n_carry])]
    ys_avals = [ShapedArray((length,) + a.shape, a.dtype, a.weak_type)
                for a in out_avals[n_carry:]]
    ct_ys = [ops.instantiate(c, a) for c, a in zip(cts[n_carry:], ys_avals)]
    lin_consts = [c for c in consts if is_linear(c)]
    acc = [ops.zeros(c.aval) for c in lin_consts]
    known_xs = [x for x in xs if not is_linear(x)]
    known_consts = [c for c in consts if not is_linear(c)]
    linear = [True] * n_carry + [is_linear(a) for a in xs + consts]
    layout = [n_carry, len(acc), n_ys, len(known_xs), len(known_consts)]

    def transposed_body(values):
        cc, ac, cy, kx, kc = _cut(values, layout)
        it_x, it_c = iter(kx), iter(kc)
        known = [next(it_x) for x in xs if not is_linear(x)] + \
            [next(it_c) for c in consts if not is_linear(c)]
        in_cts = transpose_linear_ir(body, linear, known, cc + cy)
        carry_cts, rest = in_cts[:n_carry], in_cts[n_carry:]
        n_lin_xs = sum(is_linear(x) for x in xs)
        xs_cts, const_cts = rest[:n_lin_xs], rest[n_lin_xs:]
        return carry_cts + [ops.add(a, c) for a, c in zip(ac, const_cts)] + xs_cts
    avals = [aval_of(c) for c in ct_carry] + [aval_of(a) for a in acc] + \
        [ShapedArray(a.shape[1:], a.dtype, a.weak_type) for a in map(aval_of, ct_ys)] + \
        [ShapedArray(aval_of(x).shape[1:], aval_of(x).dtype, aval_of(x).weak_type)
         for x in known_xs] + [aval_of(c) for c in known_consts]
    region, captured = _region(transposed_body, avals, "the transpose of a lax.scan body")
    results = bind(P.scan, *ct_carry, *acc, *ct_ys, *known_xs, *known_consts, *captured,
                   body=region, n_carry=n_carry + len(acc), n_xs=n_ys + len(known_xs),
                   length=length, reverse=not reverse)
    carry_cts = results[:n_carry]
    const_cts = iter(results[n_carry:n_carry + len(acc)])
    xs_cts = iter(results[n_carry + len(acc):])
    return [c if is_linear(a) else None for c, a in zip(carry_cts, carry)] + \
        [next(xs_cts) if is_linear(x) else None for x in xs] + \
        [next(const_cts) if is_linear(c) else None for c in consts]


def _eager_scan_jvp(primals, tangents, body, n_carry, n_xs, length, reverse):
    from .jvp import jvp_eval
    carry, xs, consts = _cut(primals, [n_carry, n_xs, len(primals) - n_carry - n_xs])
    t_carry, t_xs, t_consts = _cut(tangents, [n_carry, n_xs, len(primals) - n_carry - n_xs])
    ys, t_ys = [], []
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        x_i = [x[i] for x in xs]
        tx_i = [None if t is None else t[i] for t in t_xs]
        outs, touts = jvp_eval(body, [], carry + x_i + consts, t_carry + tx_i + t_consts)
        carry, t_carry = outs[:n_carry], touts[:n_carry]
        ys.append(outs[n_carry:])
        t_ys.append(touts[n_carry:])
    if reverse:
        ys.reverse()
        t_ys.reverse()
    out_avals = [v.aval for v in body.outvars[n_carry:]]
    stacked, t_stacked = [], []
    for j, a in enumerate(out_avals):
        # (in the body's type: a y that is a body argument passes through unconverted, a
        # Python number for the first step's weakly typed carry)
        stacked.append(np.stack([np.asarray(y[j], a.dtype) for y in ys]) if ys else
                       np.zeros((0,) + a.shape, a.dtype))
        if any(t[j] is not None for t in t_ys):
            t_stacked.append(np.stack([np.asarray(ops.instantiate(t[j], a)) for t in t_ys]))
        else:
            t_stacked.append(None)
    return carry + stacked, t_carry + t_stacked


# -- fori_loop (for_loop) ---------------------------------------------------------------------

def for_loop_jvp(primals, tangents, *, body, n_carry):
    lower, upper, *rest = primals
    t_rest = tangents[2:]
    static = not any(isinstance(b, _tracer_type()) for b in (lower, upper))
    if current_trace() is None:
        from .jvp import jvp_eval
        carry, consts = rest[:n_carry], rest[n_carry:]
        t_carry, t_consts = t_rest[:n_carry], t_rest[n_carry:]
        index_aval = body.invars[0].aval
        for i in range(int(lower), int(upper)):
            outs, touts = jvp_eval(body, [], [_eager_index(i, index_aval)] + carry + consts,
                                   [None] + t_carry + t_consts)
            carry, t_carry = outs, touts
        return carry, t_carry
    if static:
        return _for_as_scan(lower, upper, rest, t_rest, body, n_carry)
    fused = _for_as_while(lower, upper, rest, t_rest, body, n_carry)
    if _linearizing():
        return _values_apart(bind(P.for_loop, *primals, body=body, n_carry=n_carry), fused)
    return fused


def _eager_index(i: int, aval):
    """The loop index as the body was traced with it. A weakly typed index (the bounds were
    Python ints) goes in as a Python int: a strong NumPy int64 would promote a float32
    carry to float64 when the body is replayed eagerly (fuzz seed 200172)."""
    if aval.weak_type:
        value = dtypes.python_scalar_type(aval.dtype)(i)
        if aval_of(value) == aval:
            return value
    return np.asarray(i, aval.dtype)


def _tracer_type():
    from ..core import Tracer
    return Tracer


def _for_as_scan(lower, upper, rest, t_rest, body, n_carry):
    """A fori_loop with a static trip count as a scan carrying the index too."""
    from .evaluate import eval_ir
    index_aval = body.invars[0].aval
    length = max(int(upper) - int(lower), 0)
    avals = [v.aval for v in body.invars]

    def step(args):
        i = args[0]
        outs = eval_ir(body, [], args)
        return [ops.add(i, ops.scalar(1, index_aval.dtype) if not index_aval.weak_type
                        else 1)] + outs
    scan_body, captured = _region(step, avals, "a lax.fori_loop body")
    start = ops.scalar(int(lower), index_aval.dtype) if not index_aval.weak_type \
        else int(lower)
    primals = [start] + list(rest[:n_carry]) + list(rest[n_carry:]) + captured
    tangents = [None] + list(t_rest) + [None] * len(captured)
    outs, touts = scan_jvp(primals, tangents, body=scan_body, n_carry=n_carry + 1, n_xs=0,
                           length=length, reverse=False)
    return outs[1:], touts[1:]


def _for_as_while(lower, upper, rest, t_rest, body, n_carry):
    from .evaluate import eval_ir
    avals = [v.aval for v in body.invars]
    index_aval = avals[0]
    upper_aval = aval_of(upper)

    def cond_fn(args):
        return [ops.binary("lt", args[0], args[-1])]

    def body_fn(args):
        i = args[0]
        outs = eval_ir(body, [], args[:-1])
        return [ops.add(i, 1 if index_aval.weak_type else ops.scalar(1, index_aval.dtype))] \
            + outs
    loop_avals = avals + [upper_aval]
    (cond_ir, body_ir), captured = _merge([_region(cond_fn, loop_avals, "a fori_loop bound"),
                                           _region(body_fn, loop_avals, "a fori_loop body")])
    # the while's carries: (i, *carry); its constants: (*consts, upper, *captured)
    return _while_jvp_core([lower] + list(rest[:n_carry]), [None] + list(t_rest[:n_carry]),
                           list(rest[n_carry:]) + [upper] + captured,
                           list(t_rest[n_carry:]) + [None] * (1 + len(captured)),
                           cond_ir, body_ir, drop=1)


# -- while_loop -----------------------------------------------------------------------------

def while_jvp(primals, tangents, *, cond, body, n_carry):
    carry, consts = list(primals[:n_carry]), list(primals[n_carry:])
    t_carry, t_consts = list(tangents[:n_carry]), list(tangents[n_carry:])
    if current_trace() is None:
        from .evaluate import eval_ir
        from .jvp import jvp_eval
        while bool(np.asarray(eval_ir(cond, [], carry + consts)[0])):
            carry, t_carry = jvp_eval(body, [], carry + consts, t_carry + t_consts)
        return carry, t_carry
    fused = _while_jvp_core(carry, t_carry, consts, t_consts, cond, body, drop=0)
    if _linearizing():
        return _values_apart(bind(P.while_loop, *primals, cond=cond, body=body,
                                  n_carry=n_carry), fused)
    return fused


def _values_apart(values, fused):
    """Linearizing a while loop, as JAX does: the values from the loop itself (primal
    equations) and the tangents from the loop carrying both, which recomputes the values
    (the tangent equations read only its tangents). Transposing that loop is the error
    (`while_transpose`), so a tangent nobody needs, under stop_gradient, is none."""
    return list(values), fused[1]


def while_transpose(cts, args, **params):
    raise ReverseModeError(WHILE_REVERSE_MESSAGE)


def _while_jvp_core(carry, t_carry, consts, t_consts, cond, body, drop):
    """One while loop carrying values and tangents (forward mode)."""
    from .evaluate import eval_ir
    from .jvp import jvp_eval
    n_carry = len(carry)
    avals = [v.aval for v in body.invars]
    c_mask = _flags(t_carry, avals[:n_carry])
    k_mask = _flags(t_consts, avals[n_carry:])
    while True:                                 # carries that get a tangent
        probe = _tangent_mask(body, c_mask + k_mask)
        new = [m or probe[k] for k, m in enumerate(c_mask)]
        new = [n and _inexact(a) for n, a in zip(new, avals[:n_carry])]
        if new == c_mask:
            break
        c_mask = new
    tc_avals = [a for a, m in zip(avals[:n_carry], c_mask) if m]
    tk_avals = [a for a, m in zip(avals[n_carry:], k_mask) if m]
    layout = [n_carry, len(tc_avals), len(consts), len(tk_avals)]

    def unpack(args):
        c, tc, k, tk = _cut(args, layout)
        it_c, it_k = iter(tc), iter(tk)
        return (c + k, [next(it_c) if m else None for m in c_mask] +
                [next(it_k) if m else None for m in k_mask])

    def cond_fn(args):
        values, _ = unpack(args)
        return eval_ir(cond, [], values)

    def body_fn(args):
        values, tangents = unpack(args)
        outs, touts = jvp_eval(body, [], values, tangents)
        return list(outs) + [ops.instantiate(t, a) for t, a, m in
                             zip(touts, avals[:n_carry], c_mask) if m]
    all_avals = avals[:n_carry] + tc_avals + avals[n_carry:] + tk_avals
    (cond_ir, body_ir), captured = _merge([_region(cond_fn, all_avals, "a while_loop cond"),
                                           _region(body_fn, all_avals, "a while_loop body")])
    tc = [ops.instantiate(t, a) for t, a, m in zip(t_carry, avals[:n_carry], c_mask) if m]
    tk = [t for t, m in zip(t_consts, k_mask) if m]
    n_new = n_carry + len(tc)
    results = bind(P.while_loop, *carry, *tc, *consts, *tk, *captured, cond=cond_ir,
                   body=body_ir, n_carry=n_new)
    outs, it = results[:n_carry], iter(results[n_carry:n_new])
    touts = [next(it) if m else None for m in c_mask]
    return outs[drop:], touts[drop:]
