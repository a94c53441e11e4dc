"""The reference backend: evaluate the IR equation by equation with NumPy."""
from __future__ import annotations

import dataclasses

from ..eager_array import eager
from ..ir import IR
from ..rules.impl import evaluate


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
        return [eager(out) for out in evaluate(self.prepared.ir, self.prepared.consts, arrays)]


class InterpretBackend:
    name = "interpret"

    def prepare(self, ir, consts, fun, signature, arg_names=()) -> Prepared:
        return Prepared(ir, consts)

    def compile(self, prepared: Prepared, first_call: bool = False):
        return Executable(prepared), False


BACKEND = InterpretBackend()
