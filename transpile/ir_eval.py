"""Running an IR again, one equation at a time, by binding each primitive anew.

A transformation (vmap, and grad's helpers) reads a traced IR and replays it: equations it
has nothing to change are bound again as they are. Binding goes through `core.bind`, so the
replay is recorded into whatever trace is current (or runs eagerly outside any trace) —
that is what lets a transformed function compose with `jit` both ways.

Equations are visited in a loop over the list, never by recursion, so a program of any length
replays in constant Python stack depth.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .core import aval_of, bind
from .ir import Literal
from .tracing import equations_from


def literal_value(lit: Literal):
    """The operand a Literal stands for, typed as it was traced: a weakly typed literal came
    from a Python number and goes back as one (under either dtype mode: the check is on the
    aval it gets back); a strong one as a NumPy scalar of its dtype."""
    a = lit.aval
    if a.weak_type:
        value = dtypes.python_scalar_type(a.dtype)(lit.value)
        if aval_of(value) == a:
            return value
    return np.asarray(lit.value, dtype=a.dtype)[()]


def reader(env: dict):
    """atom -> its value: a Literal's operand, or what `env` holds for a variable."""
    def read(atom):
        return literal_value(atom) if isinstance(atom, Literal) else env[atom]
    return read


def bind_equation(eqn, values) -> list:
    """Bind `eqn`'s primitive on `values` with its params, the new equations keeping the
    source line of the one replayed; always a list of results."""
    with equations_from(eqn.source):
        out = bind(eqn.prim, *values, **eqn.params)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def eval_ir(ir, consts, args, bind_eqn=bind_equation) -> list:
    """Replay `ir` on `consts` and `args` (tracers or arrays); returns its outputs.
    `bind_eqn(eqn, values)` binds one equation (a transformation may intercept some)."""
    env = dict(zip(ir.constvars, consts))
    env.update(zip(ir.invars, args))
    read = reader(env)
    for eqn in ir.eqns:
        env.update(zip(eqn.outputs, bind_eqn(eqn, [read(a) for a in eqn.inputs])))
    return [read(v) for v in ir.outvars]
