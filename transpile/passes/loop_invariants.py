"""Loop carries that the body passes through unchanged become captured values.

`fori_loop(0, n, lambda i, c: (c[0], f(i, c)), (L, x))` carries `L` without changing it.
As a carry it would need a buffer of its own, initialised by a copy; as a captured value
the loop reads the initial value's buffer directly and the loop's output is that value.
So an unchanged carry is never copied, whatever the renderer.
"""
from __future__ import annotations

from ..ir import IR, Eqn, Var

# Per loop primitive: (number of leading non-carry inputs, number of leading non-carry body
# invars): fori_loop's bounds and index come before its carries.
_LAYOUT = {"for_loop": (2, 1), "while": (0, 0), "scan": (0, 0)}


def hoist_invariant_carries(ir: IR) -> IR:
    env, eqns = {}, []
    for eqn in ir.eqns:
        inputs = [env.get(a, a) if isinstance(a, Var) else a for a in eqn.inputs]
        params = {k: _recurse(v) for k, v in eqn.params.items()}
        eqn = Eqn(eqn.prim, inputs, params, eqn.outputs, eqn.source)
        if eqn.prim.name in _LAYOUT:
            eqn, replaced = _hoist(eqn)
            env.update(replaced)
        eqns.append(eqn)
    outvars = [env.get(a, a) if isinstance(a, Var) else a for a in ir.outvars]
    return IR(ir.constvars, ir.invars, eqns, outvars)


def _recurse(value):
    if isinstance(value, IR):
        return hoist_invariant_carries(value)
    if isinstance(value, tuple) and any(isinstance(v, IR) for v in value):
        return tuple(_recurse(v) for v in value)
    return value


def _invariant(eqn, k) -> bool:
    skip_in, skip_body = _LAYOUT[eqn.prim.name]
    body = eqn.params["body"]
    init = eqn.inputs[skip_in + k]
    return body.outvars[k] is body.invars[skip_body + k] and \
        init.aval == eqn.outputs[k].aval


def _hoist(eqn):
    """(the loop without its invariant carries, {old output: initial value})."""
    n = eqn.params["n_carry"]
    moved = [k for k in range(n) if _invariant(eqn, k)]
    if not moved:
        return eqn, {}
    skip_in, skip_body = _LAYOUT[eqn.prim.name]
    kept = [k for k in range(n) if k not in moved]
    inputs = eqn.inputs[:skip_in] + [eqn.inputs[skip_in + k] for k in kept] + \
        eqn.inputs[skip_in + n:] + [eqn.inputs[skip_in + k] for k in moved]
    params = dict(eqn.params, n_carry=len(kept))
    for key in ("body", "cond"):
        if key in params:
            params[key] = _move_invars(params[key], skip_body, n, kept, moved,
                                       drop_outputs=moved if key == "body" else ())
    outputs = [eqn.outputs[k] for k in kept] + eqn.outputs[n:]
    replaced = {eqn.outputs[k]: eqn.inputs[skip_in + k] for k in moved}
    return Eqn(eqn.prim, inputs, params, outputs, eqn.source), replaced


def _move_invars(region: IR, skip: int, n: int, kept, moved, drop_outputs) -> IR:
    """The region with carry invars `moved` taken to the end (as captured values)."""
    v = region.invars
    invars = v[:skip] + [v[skip + k] for k in kept] + v[skip + n:] + [v[skip + k] for k in moved]
    outvars = [a for k, a in enumerate(region.outvars) if k not in drop_outputs]
    return IR(region.constvars, invars, region.eqns, outvars)

