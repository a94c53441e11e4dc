"""The typed IR: variables, literals, equations, and a jaxpr-style printer.

Values are immutable and identified by object identity; names are given only
when printing, in order of appearance, so equal programs print identically.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np

from . import dtypes
from .core import Primitive, ShapedArray


class Var:
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"Var({self.aval.str_short()})"


class Literal:
    """A scalar constant written inline in the IR (and in the generated code)."""
    __slots__ = ("value", "aval")

    def __init__(self, value, aval: ShapedArray):
        self.value, self.aval = value, aval

    def __repr__(self):
        return format_literal(self.value, self.aval)


Atom = Var | Literal


@dataclasses.dataclass(frozen=True)
class SourceInfo:
    """Where in the user's Python code an equation came from."""
    filename: str
    lineno: int
    function: str

    def __str__(self):
        return f"{self.filename}:{self.lineno}"


@dataclasses.dataclass(eq=False)
class Eqn:
    prim: Primitive
    inputs: list[Atom]
    params: dict[str, Any]
    outputs: list[Var]
    source: SourceInfo | None = None

    # JAX's JaxprEqn names, for code that inspects make_jaxpr's result
    primitive = property(lambda self: self.prim)
    invars = property(lambda self: self.inputs)
    outvars = property(lambda self: self.outputs)


@dataclasses.dataclass(eq=False)
class IR:
    constvars: list[Var]
    invars: list[Var]
    eqns: list[Eqn]
    outvars: list[Atom]

    def __str__(self):
        return pretty_print(self)

    in_avals = property(lambda self: [v.aval for v in self.invars])
    out_avals = property(lambda self: [v.aval for v in self.outvars])


@dataclasses.dataclass(eq=False)
class ClosedIR:
    """An IR with the values of its constvars: what `make_jaxpr` returns, read as JAX's
    ClosedJaxpr is (`.jaxpr`, `.consts`, `.eqns`, `.in_avals`, `.out_avals`)."""
    jaxpr: IR
    consts: list

    eqns = property(lambda self: self.jaxpr.eqns)
    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)

    def __str__(self):
        return pretty_print(self.jaxpr)


def format_literal(value, aval: ShapedArray) -> str:
    v = np.asarray(value).item()
    if aval.dtype == dtypes.bool_:
        text = str(bool(v))
    elif dtypes.is_float(aval.dtype):
        text = repr(float(v))
    elif dtypes.is_complex(aval.dtype):
        text = repr(complex(v))
    else:
        text = str(int(v))
    return text if aval.weak_type or aval.dtype in (dtypes.float64, dtypes.int64, dtypes.bool_,
                                                          dtypes.complex128) \
        else f"{text}:{dtypes.short_name(aval.dtype)}"


def _names():
    letters = "abcdefghijklmnopqrstuvwxyz"
    for n in itertools.count(1):
        for combo in itertools.product(letters, repeat=n):
            yield "".join(combo)


def format_param(value) -> str:
    if isinstance(value, IR):
        return pretty_print(value).replace("\n", "\n  ")
    if isinstance(value, np.dtype):
        return str(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(format_param(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def pretty_print(ir: IR) -> str:
    names: dict[Var, str] = {}
    fresh = _names()

    def name(atom) -> str:
        if isinstance(atom, Literal):
            return repr(atom)
        if atom not in names:
            names[atom] = next(fresh)
        return names[atom]

    def binder(v: Var) -> str:
        return f"{name(v)}:{v.aval.str_short()}"

    consts = " ".join(binder(v) for v in ir.constvars)
    args = " ".join(binder(v) for v in ir.invars)
    lines = []
    for eqn in ir.eqns:
        params = ", ".join(f"{k}={format_param(v)}" for k, v in sorted(eqn.params.items()))
        if "\n" in params:      # nested regions: one parameter per line, indented
            params = "\n      " + ",\n      ".join(
                f"{k}={format_param(v)}".replace("\n", "\n    ")
                for k, v in sorted(eqn.params.items())) + "\n    "
        params = f"[{params}]" if params else ""
        lhs = " ".join(binder(v) for v in eqn.outputs)
        rhs = " ".join(name(a) for a in eqn.inputs)
        lines.append(f"{lhs} = {eqn.prim.name}{params} {rhs}".rstrip())
    outs = ", ".join(name(a) for a in ir.outvars) + ("," if len(ir.outvars) == 1 else "")
    head = f"{{ lambda {consts}; {args}. let"
    one_line = f"{head} {' '.join(lines)}{' ' if lines else ''}in ({outs}) }}"
    if len(lines) <= 1 and len(one_line) <= 80:
        return one_line
    body = "".join(f"\n    {line}" for line in lines)
    return f"{head}{body}\n  in ({outs}) }}"
