"""float16 and bfloat16 computed in float32, rounded back after every operation.

C has no portable 16-bit float arithmetic, and neither NumPy nor JAX on a CPU uses one: NumPy's
float16 loops (and ml_dtypes' bfloat16 ones) convert each operand to float32, compute, and
round the result back; XLA's CPU backend does the same per operation. This pass rewrites a
program that way before lowering, so the generated code only ever stores, moves and converts
16-bit values (the renderers' half of the job, runtime/include/tp_half.h) and every
arithmetic operation, reduction, sort and helper call runs on float32.

An operation that only moves values (views, select, gather, slices, concatenation, casts) is
kept on the 16-bit values, which it copies exactly. Every other operation reading or writing
a 16-bit value gets float32 operands (a 16-bit value widens exactly) and its 16-bit results
come from float32 ones through one rounding conversion. Elementwise operations first take
each operand to the operation's own loop dtype, as NumPy and JAX do: `x * 0.1` multiplies by
0.1 rounded to x's 16 bits, not by 0.1 in float32. Reductions accumulate in float32 (JAX's
choice, and NumPy's for contiguous data) and round once at the end.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..config import config
from ..core import ShapedArray
from ..ir import IR, Eqn, Literal, Var
from ..primitives import CONTROL_FLOW, ELEMENTWISE_UFUNC, VIEWS
from ..primitives import get as primitive
from ..rules.abstract import abstract_rules, elementwise_dtypes

F32 = dtypes.float32

# Operations that copy their 16-bit operands' bits without computing on them.
MOVES_VALUES = VIEWS | {"select", "concatenate", "dynamic_slice", "dynamic_update_slice",
                        "gather", "convert_element_type", "bitcast_convert_type"}
# Operations that read a bit of their 16-bit operands' patterns: signbit is the top bit, no
# float32 needed (gcc 12 at -O3 -march=native crashes vectorising signbit of widened values).
READS_BITS = frozenset({"signbit"})


def has_half(ir: IR) -> bool:
    """Does any value of the program (regions included) have a 16-bit float dtype?"""
    atoms = [*ir.constvars, *ir.invars, *ir.outvars]
    for eqn in ir.eqns:
        if any(_has_half_region(v) for v in eqn.params.values()):
            return True
        atoms += eqn.inputs + eqn.outputs
    return any(dtypes.is_half(a.aval.dtype) for a in atoms)


def _has_half_region(value) -> bool:
    if isinstance(value, IR):
        return has_half(value)
    return isinstance(value, tuple) and any(_has_half_region(v) for v in value)


def compute_halves_in_float32(ir: IR) -> IR:
    """The program with every computation on 16-bit floats done in float32 (see above)."""
    if not has_half(ir):
        return ir
    return _Rewriter().region(ir)


class _Rewriter:
    def region(self, ir: IR) -> IR:
        eqns: list[Eqn] = []
        widened: dict[tuple, Var] = {}      # (var, via dtype) -> its float32 copy, made once
        for eqn in ir.eqns:
            eqns.extend(self.equation(eqn, widened))
        return IR(ir.constvars, ir.invars, eqns, ir.outvars)

    def equation(self, eqn: Eqn, widened) -> list[Eqn]:
        name = eqn.prim.name
        if name in CONTROL_FLOW:
            params = {k: self._regions(v) for k, v in eqn.params.items()}
            return [Eqn(eqn.prim, eqn.inputs, params, eqn.outputs, eqn.source)]
        if name == "convert_element_type" and _rounds_twice_in_jax(eqn):
            return _through_float32(eqn)
        if name in MOVES_VALUES or name in READS_BITS or not _touches_half(eqn):
            return [eqn]
        if _numpy_float16_tie(eqn):
            return self._first_wins(eqn, widened)
        return self._in_float32(eqn, widened)

    def _in_float32(self, eqn: Eqn, widened) -> list[Eqn]:
        """The generic rewrite: float32 operands in, 16-bit results rounded from float32."""
        name = eqn.prim.name
        out: list[Eqn] = []
        inputs = [self._widen(atom, via, widened, out, eqn.source)
                  for atom, via in zip(eqn.inputs, _operand_dtypes(eqn))]
        params = {k: (F32 if isinstance(v, np.dtype) and dtypes.is_half(v) else v)
                  for k, v in eqn.params.items()}
        avals = abstract_rules[name](*(a.aval for a in inputs), **params)
        avals = avals if isinstance(avals, (list, tuple)) else [avals]
        outputs, narrowing = [], []
        for var, aval in zip(eqn.outputs, avals):
            if (aval.shape, aval.dtype) == (var.aval.shape, var.aval.dtype):
                outputs.append(var)
            else:                  # a float32 result, rounded into the 16-bit variable
                wide = Var(aval)
                outputs.append(wide)
                narrowing.append(_convert(wide, var, eqn.source))
        out.append(Eqn(eqn.prim, inputs, params, outputs, eqn.source))
        return out + narrowing

    def _first_wins(self, eqn: Eqn, widened) -> list[Eqn]:
        """NumPy's float16 maximum/minimum: `a >= b || isnan(a) ? a : b` (<= for minimum),
        so on a tie (0.0 and -0.0) the first operand wins, where its float32 loops (and the C
        helpers) return the second. A max/min reduction keeps the earliest of equal values:
        the same reduction over the axes reversed, whose C loop keeps the latest."""
        out: list[Eqn] = []
        if eqn.prim.name in ("reduce_max", "reduce_min"):
            (x,), axes = eqn.inputs, eqn.params["axes"]
            flipped = Var(x.aval)
            out.append(Eqn(primitive("rev"), [x], {"dimensions": tuple(axes)}, [flipped],
                           eqn.source))
            return out + self._in_float32(Eqn(eqn.prim, [flipped], eqn.params, eqn.outputs,
                                              eqn.source), widened)
        a, b = (self._widen(x, dtypes.float16, widened, out, eqn.source) for x in eqn.inputs)
        bind = _Binder(out, eqn.source)
        tie = bind("ge" if eqn.prim.name == "max" else "le", a, b)
        first = bind("or", tie, bind("is_nan", a))
        chosen = bind("select", first, a, b)
        (result,) = eqn.outputs
        out.append(_convert(chosen, result, eqn.source))
        return out

    def _regions(self, value):
        if isinstance(value, IR):
            return self.region(value)
        if isinstance(value, tuple):
            return tuple(self._regions(v) for v in value)
        return value

    def _widen(self, atom, via, widened, out, source):
        """`atom` as float32 when `via` (the dtype the operation reads it in) is 16-bit;
        taken to `via` first when it is something else (a weak float32 value, an integer)."""
        if not dtypes.is_half(via):
            return atom
        if isinstance(atom, Literal):
            with np.errstate(all="ignore"):
                value = np.asarray(atom.value).astype(via).astype(F32).item()
            return Literal(value, ShapedArray((), F32, False))
        key = (atom, via)
        if key not in widened:
            narrow = atom
            if atom.aval.dtype != via:
                narrow = Var(ShapedArray(atom.aval.shape, via, False))
                out.append(_convert(atom, narrow, source))
            wide = Var(ShapedArray(atom.aval.shape, F32, False))
            out.append(_convert(narrow, wide, source))
            widened[key] = wide
        return widened[key]


class _Binder:
    """Appends one equation per call and returns its output variable."""

    def __init__(self, out: list, source):
        self.out, self.source = out, source

    def __call__(self, name: str, *inputs, **params) -> Var:
        aval = abstract_rules[name](*(a.aval for a in inputs), **params)
        var = Var(aval)
        self.out.append(Eqn(primitive(name), list(inputs), params, [var], self.source))
        return var


def _numpy_float16_tie(eqn: Eqn) -> bool:
    """A float16 maximum/minimum under NumPy's rules (see _Rewriter._first_wins)."""
    if config.jax_rules() or eqn.prim.name not in ("max", "min", "reduce_max", "reduce_min"):
        return False
    if eqn.prim.name.startswith("reduce"):
        return eqn.inputs[0].aval.dtype == dtypes.float16
    return list(_operand_dtypes(eqn)) == [dtypes.float16] * 2


def _rounds_twice_in_jax(eqn: Eqn) -> bool:
    """float64 -> float16 under JAX's rules, which (XLA on CPU) rounds through float32: a
    double just past a float16 tie can land on it in float32 and then round to even."""
    return (config.jax_rules() and eqn.inputs[0].aval.dtype == dtypes.float64
            and eqn.params["new_dtype"] == dtypes.float16)


def _through_float32(eqn: Eqn) -> list[Eqn]:
    (x,), (out,) = eqn.inputs, eqn.outputs
    mid = Var(ShapedArray(x.aval.shape, F32, False))
    return [_convert(x, mid, eqn.source), _convert(mid, out, eqn.source)]


def _touches_half(eqn: Eqn) -> bool:
    return any(dtypes.is_half(a.aval.dtype) for a in (*eqn.inputs, *eqn.outputs)) or any(
        isinstance(v, np.dtype) and dtypes.is_half(v) for v in eqn.params.values())


def _operand_dtypes(eqn: Eqn) -> list:
    """The dtype the operation reads each operand in: the ufunc loop's for elementwise
    operations, the operand's own otherwise."""
    if eqn.prim.name in ELEMENTWISE_UFUNC:
        loop, _ = elementwise_dtypes(eqn.prim.name, [a.aval for a in eqn.inputs])
        return list(loop)
    return [a.aval.dtype for a in eqn.inputs]


def _convert(src: Var, dst: Var, source) -> Eqn:
    return Eqn(primitive("convert_element_type"), [src],
               {"new_dtype": dst.aval.dtype, "weak_type": dst.aval.weak_type}, [dst], source)
