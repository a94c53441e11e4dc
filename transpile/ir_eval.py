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
from .core import bind
from .ir import Literal


def literal_value(lit: Literal):
    """The operand a Literal stands for, typed as it was traced: a weakly typed literal came
    from a Python number and goes back as one; a strong one as a NumPy scalar of its dtype."""
    if lit.aval.weak_type and type(lit.value) in dtypes.DEFAULT_FOR_PYTHON_TYPE and \
            lit.aval.dtype == dtypes.default_for_python_type(type(lit.value)):
        return lit.value
    return np.asarray(lit.value, dtype=lit.aval.dtype)[()]


def bind_equation(eqn, values) -> list:
    """Bind `eqn`'s primitive on `values` with its params; always a list of results."""
    out = bind(eqn.prim, *values, **eqn.params)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def eval_ir(ir, consts, args) -> list:
    """Replay `ir` on `consts` and `args` (tracers or arrays); returns its outputs."""
    env = dict(zip(ir.constvars, consts))
    env.update(zip(ir.invars, args))

    def read(atom):
        return literal_value(atom) if isinstance(atom, Literal) else env[atom]

    for eqn in ir.eqns:
        env.update(zip(eqn.outputs, bind_equation(eqn, [read(a) for a in eqn.inputs])))
    return [read(v) for v in ir.outvars]
