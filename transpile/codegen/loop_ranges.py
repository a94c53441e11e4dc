"""Index ranges inside a `for_loop` body that let a matrix product do less work.

A left-looking factorisation written with `fori_loop` builds a matrix column by column from
zeros (benchmarks/bench_programs.py, tests/test_loop_ranges.py):

    def step(j, L):
        v = a[:, j] - L @ L[j]
        return L.at[:, j].set(tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0))

Taken literally every step is a full n x n matrix-vector product: n^3 multiply-adds where
the factorisation needs n^3 / 6. Two facts, each proved from the IR, recover the difference:

* Zero suffix: a carry that starts as +0.0 everywhere and whose only update writes a window
  one wide at the loop index j along some axis is still zero at positions >= j along that
  axis (ascending loop from a literal start >= 0). A product contracting that axis of two
  such operands only adds exact zeros beyond j, so its contraction stops at j.
* Unread prefix: a value read only where `iota >= j` selects it, or at [j] itself, is never
  read below j along that axis. A product whose rows are unread below j computes rows
  [j, m) and stores zeros above, so every element of its buffer stays defined.

Values read are unchanged, except that a contraction cut short may end in -0.0 where the
full one added +0.0 terms to it (BLAS makes no promise about the sign of a zero sum either).
The facts reach the lowering as `MatmulLimits`; a renderer may ignore them and compute the
whole product.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..ir import Literal, Var
from ..primitives import ELEMENTWISE_UFUNC


@dataclasses.dataclass(frozen=True)
class LoopLimits:
    """For one matrix product in a loop body: contract only p < index (`short_k`), compute
    only rows >= index (`rows_from_index`); `index` is the body's loop-index variable."""
    index: Var
    short_k: bool
    rows_from_index: bool


def matmul_limits(eqn, outer_producers: dict) -> dict:
    """{output of a dot_general in the body of for_loop `eqn`: LoopLimits}."""
    lower, upper = eqn.inputs[0], eqn.inputs[1]
    if not (isinstance(lower, Literal) and lower.value >= 0):
        return {}                 # a negative index would wrap: none of the facts hold
    body = eqn.params["body"]
    producers = {v: e for e in body.eqns for v in e.outputs}
    outer = dict(zip(body.invars[1:], eqn.inputs[2:]))
    index = body.invars[0]
    same = _equal_to_index(body, index)
    zeros = _zero_suffixes(eqn, body, producers, outer_producers, same)
    unread = _unread_prefixes(body, same, _iotas(body, outer, outer_producers),
                              upper.value if isinstance(upper, Literal) else None)
    limits = {}
    for e in body.eqns:
        if e.prim.name != "dot_general":
            continue
        lhs, rhs = e.inputs
        short_k = lhs.aval.ndim - 1 in zeros.get(lhs, ()) and \
            rhs.aval.ndim - 2 in zeros.get(rhs, ())
        rows = lhs.aval.ndim == 2 and 0 in unread.get(e.outputs[0], ())
        if short_k or rows:
            limits[e.outputs[0]] = LoopLimits(index, short_k, rows)
    return limits


def _equal_to_index(body, index) -> set:
    """Variables equal to the loop index whenever it is >= 0: integer conversions of it and
    the negative-index normalisation `select(i < 0, i + n, i)`."""
    same = {index}
    producers = {}
    for e in body.eqns:
        producers.update((v, e) for v in e.outputs)
        if len(e.outputs) != 1:
            continue                  # effects (debug.print), loops
        out = e.outputs[0]
        name = e.prim.name
        if name == "convert_element_type" and e.inputs[0] in same \
                and _keeps_every_index(e.inputs[0].aval.dtype, out.aval.dtype):
            same.add(out)
        elif name == "select" and e.inputs[2] in same:
            test = producers.get(e.inputs[0])
            if test is not None and test.prim.name == "lt" and test.inputs[0] in same \
                    and isinstance(test.inputs[1], Literal) and test.inputs[1].value == 0:
                same.add(out)
    return same


def _keeps_every_index(src, dst) -> bool:
    """Does converting a non-negative `src` integer to `dst` keep its value?"""
    src, dst = np.dtype(src), np.dtype(dst)
    if src.kind not in "iu" or dst.kind not in "iu":
        return False
    return dst.itemsize > src.itemsize or \
        (dst.itemsize == src.itemsize and (dst.kind == src.kind or src.kind == "i"))


def _is_positive_zero(atom, producers) -> bool:
    if isinstance(atom, Var):
        e = producers.get(atom)
        if e is None or e.prim.name != "broadcast_in_dim":
            return False
        atom = e.inputs[0]
    if not (isinstance(atom, Literal) and atom.value == 0):
        return False
    value = complex(atom.value)          # a complex zero is +0 when both of its parts are
    return not (np.signbit(value.real) or np.signbit(value.imag))


def _zero_suffixes(eqn, body, producers, outer_producers, same) -> dict:
    """{body variable: axes along which it is +0.0 from the loop index on}."""
    facts = {}
    for c in range(eqn.params["n_carry"]):
        carry, new = body.invars[1 + c], body.outvars[c]
        update = producers.get(new)
        if not _is_positive_zero(eqn.inputs[2 + c], outer_producers) or update is None \
                or update.prim.name != "dynamic_update_slice" or update.inputs[0] is not carry:
            continue
        window = update.inputs[1].aval.shape
        axes = {a for a, start in enumerate(update.inputs[2:])
                if start in same and window[a] == 1}
        if axes:
            facts[carry] = axes
    for e in body.eqns:
        x = e.inputs[0] if e.inputs else None
        if x not in facts:
            continue
        if e.prim.name == "dynamic_slice":
            sizes = e.params["slice_sizes"]
            kept = {a for a in facts[x] if sizes[a] == x.aval.shape[a]
                    and isinstance(e.inputs[1 + a], Literal) and e.inputs[1 + a].value == 0}
        elif e.prim.name == "reshape":
            kept = _map_axes(facts[x], _squeeze_map(x.aval.shape, e.outputs[0].aval.shape))
        else:
            continue
        if kept:
            facts[e.outputs[0]] = kept
    return facts


def _iotas(body, outer, outer_producers) -> dict:
    """{body variable: its axis} for the variables that are an iota (computed in the body or
    captured from outside)."""
    found = {}
    for var, atom in outer.items():
        e = outer_producers.get(atom)
        if e is not None and e.prim.name == "iota":
            found[var] = e.params["dimension"]
    for e in body.eqns:
        if e.prim.name == "iota":
            found[e.outputs[0]] = e.params["dimension"]
    return found


def _unread_prefixes(body, same, iotas, upper) -> dict:
    """{body variable: axes along which no position below the loop index is ever read}."""
    producers = {v: e for e in body.eqns for v in e.outputs}
    uses: dict = {}
    for e in body.eqns:
        for position, a in enumerate(e.inputs):
            if isinstance(a, Var):
                uses.setdefault(a, []).append((e, position))
    results = {a for a in body.outvars if isinstance(a, Var)}
    unread: dict = {}
    for e in reversed(body.eqns):
        for v in e.outputs:
            axes = set() if v in results else set(range(v.aval.ndim))
            for use, position in uses.get(v, ()):
                axes &= _unread_through(use, position, v, unread, producers, same, iotas, upper)
            unread[v] = axes
    return unread


def _unread_through(use, position, v, unread, producers, same, iotas, upper) -> set:
    """Axes of `v` along which `use` (reading v as input `position`) reads nothing below
    the loop index."""
    if len(use.outputs) != 1:
        return set()                  # a print, a loop, a cond: reads anything
    name, out = use.prim.name, use.outputs[0]
    after = unread.get(out, set()) if out.aval.shape == v.aval.shape else set()
    if name == "select" and position == 1:
        return after | _selected_from_index(use.inputs[0], v, producers, same, iotas)
    if name == "select" and position == 2 or name in ELEMENTWISE_UFUNC \
            or name == "convert_element_type":
        return after
    if name == "reshape":
        return _map_axes(unread.get(out, set()), _squeeze_map(out.aval.shape, v.aval.shape))
    if name == "dynamic_slice" and position == 0:
        sizes, starts = use.params["slice_sizes"], use.inputs[1:]
        whole = {a for a in range(v.aval.ndim) if sizes[a] == v.aval.shape[a]
                 and isinstance(starts[a], Literal) and starts[a].value == 0}
        at_index = {a for a in range(v.aval.ndim) if sizes[a] == 1 and starts[a] in same
                    and upper is not None and upper <= v.aval.shape[a]}
        return (unread.get(out, set()) & whole) | at_index
    return set()


def _selected_from_index(pred, v, producers, same, iotas) -> set:
    """{axis} when `pred` is `iota_axis >= index` over v's shape (the select reads v only
    from the index on), else nothing."""
    e = producers.get(pred)
    if e is None or e.prim.name != "ge" or pred.aval.shape != v.aval.shape:
        return set()
    iota, index = e.inputs
    if iota in iotas and iota.aval.shape == v.aval.shape and index in same:
        return {iotas[iota]}
    return set()


def _squeeze_map(src, dst) -> dict:
    """{axis of src: axis of dst} when a reshape from `src` to `dst` only adds or drops axes
    of length 1 (else {})."""
    big_src = [a for a, n in enumerate(src) if n != 1]
    big_dst = [a for a, n in enumerate(dst) if n != 1]
    if [src[a] for a in big_src] != [dst[a] for a in big_dst]:
        return {}
    return dict(zip(big_src, big_dst))


def _map_axes(axes, mapping) -> set:
    return {mapping[a] for a in axes if a in mapping}
