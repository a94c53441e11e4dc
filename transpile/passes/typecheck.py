"""The IR typechecker: run after building an IR and after every pass."""
from __future__ import annotations

from ..ir import IR, Literal, Var
from ..rules.abstract import abstract_rules


class IRTypeError(AssertionError):
    """The IR is malformed: a bug in transpile, never in user code."""


def typecheck(ir: IR) -> IR:
    defined: set[Var] = set(ir.constvars) | set(ir.invars)
    if len(defined) != len(ir.constvars) + len(ir.invars):
        raise IRTypeError("an input variable is bound twice")

    def check_atom(atom, where):
        if isinstance(atom, Var) and atom not in defined:
            raise IRTypeError(f"{where}: variable {atom} used before it is defined")
        if not isinstance(atom, (Var, Literal)):
            raise IRTypeError(f"{where}: {atom!r} is not a Var or Literal")

    for n, eqn in enumerate(ir.eqns):
        where = f"equation {n} ({eqn.prim.name})"
        for atom in eqn.inputs:
            check_atom(atom, where)
        for sub in sub_irs(eqn):
            typecheck(sub)
        expected = abstract_rules[eqn.prim.name](*(a.aval for a in eqn.inputs), **eqn.params)
        expected = list(expected) if isinstance(expected, (list, tuple)) else [expected]
        if [o.aval for o in eqn.outputs] != expected:
            raise IRTypeError(f"{where}: outputs declared {[o.aval for o in eqn.outputs]}, "
                              f"rule says {expected}")
        for out in eqn.outputs:
            if out in defined:
                raise IRTypeError(f"{where}: output variable assigned twice (not SSA)")
            defined.add(out)
    for atom in ir.outvars:
        check_atom(atom, "outputs")
    return ir


def sub_irs(eqn) -> list[IR]:
    """The nested IRs (branches, loop bodies) an equation carries in its params."""
    found = []
    for value in eqn.params.values():
        if isinstance(value, IR):
            found.append(value)
        elif isinstance(value, tuple):
            found.extend(v for v in value if isinstance(v, IR))
    return found
