"""The reference backend: evaluate the IR equation by equation with NumPy."""
from __future__ import annotations

import dataclasses

import numpy as np

from ..ir import IR, Literal
from ..rules.impl import impl_rules


def evaluate(ir: IR, consts, args) -> list[np.ndarray]:
    env = {}

    def read(atom):
        if isinstance(atom, Literal):
            return np.asarray(atom.value, dtype=atom.aval.dtype)
        return env[atom]

    for var, value in zip(ir.constvars, consts):
        env[var] = value
    for var, value in zip(ir.invars, args):
        env[var] = np.asarray(value, dtype=var.aval.dtype)
    for eqn in ir.eqns:
        avals = [a.aval for a in eqn.inputs]
        result = impl_rules[eqn.prim.name](avals, *map(read, eqn.inputs), **eqn.params)
        results = result if len(eqn.outputs) > 1 or isinstance(result, list) else [result]
        for var, value in zip(eqn.outputs, results):
            env[var] = np.asarray(value, dtype=var.aval.dtype)
    return [np.array(read(v), dtype=v.aval.dtype) for v in ir.outvars]


@dataclasses.dataclass
class Prepared:
    ir: IR
    consts: list

    @property
    def source(self) -> str:
        return str(self.ir)


class Executable:
    compiled = False

    def __init__(self, prepared: Prepared):
        self.prepared = prepared

    def __call__(self, arrays):
        return evaluate(self.prepared.ir, self.prepared.consts, arrays)


class InterpretBackend:
    name = "interpret"

    def prepare(self, ir, consts, fun, signature) -> Prepared:
        return Prepared(ir, consts)

    def compile(self, prepared: Prepared):
        return Executable(prepared), False


BACKEND = InterpretBackend()
