"""Forward mode: an IR's outputs and their tangents, its equations bound in order on the
current trace. Tangents are values or None, a symbolic zero: integer and boolean values,
and anything computed only from values without a tangent, carry None, so a derivative
never contains work on them."""
from __future__ import annotations

from .. import dtypes
from ..ir import Var
from ..tracing import equations_from
from . import ops
from .evaluate import bind_eqn, reader
from .jvp_rules import jvp_rule


def has_tangent_space(aval) -> bool:
    """Only floating-point and complex values vary continuously; others have zero tangents."""
    return dtypes.is_inexact(aval.dtype)


def jvp_eval(ir, consts, primals, tangents):
    """(outputs, output tangents) of `ir` at `primals`, pushed forward along `tangents`."""
    env = dict(zip(ir.constvars, consts))
    env.update(zip(ir.invars, primals))
    tenv = {v: ops.fit(t, v.aval) for v, t in zip(ir.invars, tangents)
            if t is not None and has_tangent_space(v.aval)}
    read = reader(env)
    for eqn in ir.eqns:       # a loop over the equations, however deep the program
        args = [read(a) for a in eqn.inputs]
        ts = [tenv.get(a) if isinstance(a, Var) else None for a in eqn.inputs]
        if all(t is None for t in ts):
            env.update(zip(eqn.outputs, bind_eqn(eqn, args)))
            continue
        with equations_from(eqn.source):
            outs, touts = jvp_rule(eqn.prim.name)(args, ts, **eqn.params)
            for var, out, t in zip(eqn.outputs, outs, touts):
                env[var] = out
                if t is not None and has_tangent_space(var.aval):
                    tenv[var] = ops.fit(t, var.aval)
    out_tangents = [tenv.get(a) if isinstance(a, Var) else None for a in ir.outvars]
    return [read(a) for a in ir.outvars], out_tangents
