"""Batching the regions (sub-IRs) of control flow: tracing their batched form as new
regions, finding which loop carries end up batched, and giving sibling regions (cond
branches, a while's cond and body) one shared list of captured values."""
from __future__ import annotations

from ..core import aval_of
from ..ir import IR, Var
from ..tracing import trace_subfunction
from .moves import batched_aval
from .transform import batch_ir, settle


def trace_region(fn, avals, what: str):
    """Trace `fn` (flat list in, flat list out) as a region of the current trace.
    Returns (region, captured outer values)."""
    region, captured, _ = trace_subfunction(fn, avals, [frozenset()] * len(avals), what,
                                            described=_RegionName(what))
    return region, captured


def batch_region(ir: IR, in_batched, size: int, what: str, out_batched=None):
    """A region (sub-IR) batched: its inputs batched along axis 0 where `in_batched`.

    Outputs are batched along axis 0 where `out_batched` says (None: wherever the body makes
    them batched). Returns (new region, outer values it captures, which outputs are batched).
    The new region's invars are its explicit inputs followed by the captured values."""
    avals = [batched_aval(v.aval, size) if b else v.aval for v, b in zip(ir.invars, in_batched)]
    found = []

    def body(args):
        outs, dims = batch_ir(ir, args, [0 if b else None for b in in_batched], size)
        want = out_batched if out_batched is not None else [d is not None for d in dims]
        found.append(list(want))
        return settle(outs, dims, want, size)
    region, captured = trace_region(body, avals, what)
    return region, captured, found[-1]


def batched_outputs(ir: IR, in_batched, size: int) -> list[bool]:
    """Which outputs of `ir` come out batched when these inputs are (traced, then dropped)."""
    return batch_region(ir, in_batched, size, "vmap probe")[2]


def settle_carry(body: IR, carry_batched, rest_batched, size: int,
                 n_in_front: int = 0) -> list[bool]:
    """The fixed point of a loop carry's batchedness: a carry is batched if it starts batched
    or the body makes it batched from batched inputs. `n_in_front` body inputs (a loop index)
    precede the carry and are never batched; the first outputs are the new carry."""
    carry = list(carry_batched)
    for _ in range(len(carry) + 1):
        ins = [False] * n_in_front + carry + list(rest_batched)
        outs = batched_outputs(body, ins, size)[:len(carry)]
        new = [c or o for c, o in zip(carry, outs)]
        if new == carry:
            return carry
        carry = new
    return carry


class _RegionName:
    """Names a batched region in messages the way a function would be named."""

    def __init__(self, what):
        self.__name__ = "vmapped_region"
        self.__qualname__ = what


def merge_captures(regions):
    """[(region, captured)] -> ([region], union of captured): every region gets the union as
    its trailing invars (a fresh, unused Var for a value it does not use itself)."""
    union, seen = [], set()
    for _, captured in regions:
        for c in captured:
            if id(c) not in seen:
                seen.add(id(c))
                union.append(c)
    merged = []
    for region, captured in regions:
        explicit = region.invars[:len(region.invars) - len(captured)]
        own = dict(zip(map(id, captured), region.invars[len(explicit):]))
        extra = [own.get(id(c)) or Var(aval_of(c)) for c in union]
        merged.append(IR([], explicit + extra, region.eqns, region.outvars))
    return merged, union

