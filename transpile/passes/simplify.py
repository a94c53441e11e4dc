"""Simplification: constant folding, dropping no-op equations, CSE and DCE.

Each pass takes an IR and returns a new one; `simplify` runs them in order and
typechecks after each, so a buggy pass is caught where it happens.
"""
from __future__ import annotations

import numpy as np

from ..ir import IR, Eqn, Literal, Var
from ..primitives import EFFECTS, get as get_primitive
from ..rules.impl import impl_rules
from .loop_invariants import hoist_invariant_carries
from .typecheck import sub_irs, typecheck


def has_effect(eqn: Eqn) -> bool:
    """Does running `eqn` do something (print) besides computing its outputs? Then no pass
    may drop, merge or evaluate it ahead of time."""
    return eqn.prim.name in EFFECTS or any(has_effect(e) for ir in sub_irs(eqn)
                                           for e in ir.eqns)


def _substitute(atom, env):
    return env.get(atom, atom) if isinstance(atom, Var) else atom


def _rebuild(ir: IR, eqns, env) -> IR:
    return IR(ir.constvars, ir.invars, eqns, [_substitute(a, env) for a in ir.outvars])


def fold_constants(ir: IR) -> IR:
    """Evaluate scalar equations whose inputs are all literals (`log 2.0` → 0.693...)."""
    env, eqns = {}, []
    for eqn in ir.eqns:
        inputs = [_substitute(a, env) for a in eqn.inputs]
        out = eqn.outputs[0] if len(eqn.outputs) == 1 else None
        if out is not None and out.aval.shape == () and inputs \
                and all(isinstance(a, Literal) for a in inputs) and eqn.prim.name != "iota" \
                and eqn.prim.name not in EFFECTS:
            values = [np.asarray(a.value, dtype=a.aval.dtype) for a in inputs]
            value = impl_rules[eqn.prim.name]([a.aval for a in inputs], *values, **eqn.params)
            env[out] = Literal(np.asarray(value, dtype=out.aval.dtype).item(), out.aval)
            continue
        eqns.append(Eqn(eqn.prim, inputs, eqn.params, eqn.outputs, eqn.source))
    return _rebuild(ir, eqns, env)


def drop_stop_gradients(ir: IR) -> IR:
    """`stop_gradient x` is x: by the time an IR is compiled every differentiation is done.
    The marker stays in an IR only where a loop or branch body was traced while a
    differentiation was on the stack (reverse mode of a scan whose body calls
    lax.stop_gradient); nested bodies included."""
    env, eqns = {}, []
    for eqn in ir.eqns:
        inputs = [_substitute(a, env) for a in eqn.inputs]
        if eqn.prim.name == "stop_gradient":
            env[eqn.outputs[0]] = inputs[0]
            continue
        params = {k: _without_stop_gradients(v) for k, v in eqn.params.items()}
        eqns.append(Eqn(eqn.prim, inputs, params, eqn.outputs, eqn.source))
    return _rebuild(ir, eqns, env)


def _without_stop_gradients(value):
    if isinstance(value, IR):
        return drop_stop_gradients(value)
    if isinstance(value, tuple) and any(isinstance(v, IR) for v in value):
        return tuple(_without_stop_gradients(v) for v in value)
    return value


# x * 1 and x + 0 on integers (tnp.arange's start and step): exact identities. Not on floats,
# where -0.0 + 0 is +0.0.
_INTEGER_IDENTITY = {"mul": 1, "add": 0}


def _integer_identity_operand(eqn: Eqn, inputs):
    """The operand `x` of an integer `x * 1` or `x + 0` (either order) of x's type, or None."""
    unit = _INTEGER_IDENTITY.get(eqn.prim.name)
    if unit is None or len(inputs) != 2 or np.dtype(eqn.outputs[0].aval.dtype).kind not in "iu":
        return None
    for x, other in (inputs, inputs[::-1]):
        if isinstance(x, Var) and x.aval == eqn.outputs[0].aval and \
                isinstance(other, Literal) and other.value == unit:
            return x
    return None


def _is_noop(eqn: Eqn, inputs) -> bool:
    if not inputs or len(eqn.outputs) != 1:
        return False
    if _integer_identity_operand(eqn, inputs) is not None:
        return True
    name, x = eqn.prim.name, inputs[0]
    if not isinstance(x, Var) or x.aval != eqn.outputs[0].aval:
        return False
    if name in ("reshape", "broadcast_in_dim", "convert_element_type"):
        return True
    if name == "transpose":
        return eqn.params["permutation"] == tuple(range(x.aval.ndim))
    return name in ("rev",) and not eqn.params["dimensions"]


def _whole_window(eqn: Eqn, inputs, nested: bool):
    """What a slice or update whose window is the whole array leaves: `x` for
    dynamic_slice(x) and the update `u` for dynamic_update_slice(x, u) (starts are clamped,
    so with a full-size window they are all 0 whatever they are). `x.at[:].set(y)`, in
    NPBench's gemm, doitgen, floyd_warshall..., would otherwise copy y into a new buffer."""
    name, out = eqn.prim.name, eqn.outputs[0]
    # (Not in nested bodies: there it can leave a scan's index operand unread, and the
    # renderer then declares a constant it never uses, which the compiler warns about.)
    if name == "dynamic_slice" and not nested and isinstance(inputs[0], Var) \
            and inputs[0].aval == out.aval:
        return inputs[0]
    if name == "dynamic_update_slice" and isinstance(inputs[1], Var) \
            and inputs[1].aval == out.aval:
        return inputs[1]
    return None


def _squares_as_products(eqn: Eqn, inputs) -> Eqn:
    """`pow(x, 2)` on real floats as `x * x`: the same bits (pow is correctly rounded at
    exponent 2, as NumPy's `x ** 2`, which calls square), without a libm call per element
    that also keeps the loop from vectorising (cavity_flow's `dx ** 2`, `du ** 2`)."""
    if eqn.prim.name != "pow" or not isinstance(inputs[1], Literal) or inputs[1].value != 2 \
            or not isinstance(inputs[0], Var) or inputs[0].aval != eqn.outputs[0].aval \
            or np.dtype(inputs[0].aval.dtype).kind != "f":
        return Eqn(eqn.prim, inputs, eqn.params, eqn.outputs, eqn.source)
    return Eqn(get_primitive("mul"), [inputs[0], inputs[0]], {}, eqn.outputs, eqn.source)


def _in_bodies(run_pass, params: dict) -> dict:
    """`params` with `run_pass` applied to the nested IRs (loop bodies, branches) in them."""
    def each(value):
        if isinstance(value, IR):
            return run_pass(value)
        if isinstance(value, tuple) and any(isinstance(v, IR) for v in value):
            return tuple(run_pass(v) if isinstance(v, IR) else v for v in value)
        return value
    return {k: each(v) for k, v in params.items()}


def drop_noops(ir: IR, nested: bool = False) -> IR:
    """Drop no-op equations, here and in nested bodies (a loop body's `dx ** 2` and
    whole-array updates are where they cost most: once per iteration). A reshape of a
    reshape reads the first one's operand: row-major order is the same through both, and
    the intermediate shape no longer needs its own buffer (doitgen's `reshape(reshape(A))
    @ C4` copied A into one before the product)."""
    env, eqns = {}, []
    reshaped = {}       # output of a kept reshape -> its operand
    for eqn in ir.eqns:
        inputs = [_substitute(a, env) for a in eqn.inputs]
        if sub_irs(eqn):
            body_pass = lambda body: drop_noops(body, nested=True)  # noqa: E731
            eqn = Eqn(eqn.prim, eqn.inputs, _in_bodies(body_pass, eqn.params), eqn.outputs,
                      eqn.source)
        if _is_noop(eqn, inputs):
            env[eqn.outputs[0]] = _integer_identity_operand(eqn, inputs) or inputs[0]
            continue
        whole = _whole_window(eqn, inputs, nested) if len(eqn.outputs) == 1 else None
        if whole is not None:
            env[eqn.outputs[0]] = whole
            continue
        if eqn.prim.name == "reshape":
            inputs = [reshaped.get(inputs[0], inputs[0])]
            if _is_noop(eqn, inputs):       # reshaped back to the shape it had
                env[eqn.outputs[0]] = inputs[0]
                continue
            reshaped[eqn.outputs[0]] = inputs[0]
        eqns.append(_squares_as_products(eqn, inputs))
    return _rebuild(ir, eqns, env)


def _atom_key(atom):
    if isinstance(atom, Literal):
        value = atom.value
        # 0.0 and -0.0 (and NaN payloads) must stay distinct: key on the exact bits.
        bits = np.asarray(value, dtype=atom.aval.dtype).tobytes()
        return ("lit", bits, atom.aval)
    return ("var", id(atom))


def _param_key(params) -> tuple:
    return tuple(sorted((k, v) for k, v in params.items()))


def eliminate_common_subexpressions(ir: IR) -> IR:
    env, seen, eqns = {}, {}, []
    for eqn in ir.eqns:
        inputs = [_substitute(a, env) for a in eqn.inputs]
        key = (eqn.prim.name, tuple(map(_atom_key, inputs)), _param_key(eqn.params))
        if key in seen and not has_effect(eqn):
            env.update(zip(eqn.outputs, seen[key]))
            continue
        seen[key] = eqn.outputs
        eqns.append(Eqn(eqn.prim, inputs, eqn.params, eqn.outputs, eqn.source))
    return _rebuild(ir, eqns, env)


def eliminate_dead_code(ir: IR) -> IR:
    live = {a for a in ir.outvars if isinstance(a, Var)}
    kept = []
    for eqn in reversed(ir.eqns):
        if any(o in live for o in eqn.outputs) or has_effect(eqn):
            kept.append(eqn)
            live.update(a for a in eqn.inputs if isinstance(a, Var))
    return IR(ir.constvars, ir.invars, kept[::-1], ir.outvars)


PASSES = (drop_stop_gradients, fold_constants, drop_noops, eliminate_common_subexpressions,
          hoist_invariant_carries, eliminate_dead_code)


def simplify(ir: IR) -> IR:
    typecheck(ir)
    for run_pass in PASSES:
        ir = typecheck(run_pass(ir))
    return ir
