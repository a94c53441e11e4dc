"""Lowering: a simplified IR becomes a Program of kernels (loop nests) and statements.

Each materialised value (see schedule.py) gets one kernel. Its scalar body is built by
walking producers backwards from the kernel's output, carrying the multi-index at which
each value is needed: view primitives only rewrite that index, elementwise primitives
become expression nodes, and materialised values and inputs become loads. Control-flow
equations become statements (loops, switches) around the kernels of their regions; see
lower_control.py.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import IR, Literal, Var
from ..primitives import (ARG_REDUCTIONS, COMPLEX_PARTS, ELEMENTWISE_UFUNC,
                          REDUCTIONS, SPECIAL_UNARY)
from ..rules.abstract import elementwise_dtypes
from .buffers import plan_in_place
from .kernel_ir import (Affine, Buffer, Call, DebugKernel, Expr, LoopKernel, MatmulKernel,
                        MatmulLimits, Program, ReduceKernel, SortKernel, StepOffset,
                        StridedOperand, linearize)
from .lower_control import CONTROL_FLOW_LOWERINGS
from .lower_exprs import (I64, cast, clamp_expr, literal_expr, op_expr,
                          short_source)
from .lower_helpers import HELPER_LOWERINGS
from .lower_updates import in_place_update_kernels, static_update_kernels
from .names import kernel_names, python_name, value_name
from .schedule import is_trivial_reshape, materialised_vars

# On booleans max and sum are "any", min and prod "all". Never an arithmetic combiner: a C
# `bool` accumulator under `omp simd reduction(+)` is vectorised as wrapping byte lanes (12
# trues summed to false, issue 20).
BOOL_COMBINER = {"max": "or", "sum": "or", "min": "and", "prod": "and"}
_COMBINER = {"reduce_sum": "sum", "reduce_prod": "prod", "reduce_max": "max",
             "reduce_min": "min", "reduce_and": "and", "reduce_or": "or",
             "argmax": "argmax", "argmin": "argmin"}

# Integers are never NaN or infinite: these predicates are constants on them.
_CONSTANT_ON_INTEGERS = {"is_nan": False, "is_inf": False, "is_finite": True}

class ProgramBuilder:
    """State shared by every region of one program: kernels and uniquely named buffers."""

    def __init__(self, name: str, max_fused_height: int | None = None):
        self.name = name
        self.max_fused_height = max_fused_height    # see schedule.materialised_vars
        self.kernels: list = []
        self.temps: list[Buffer] = []
        self.views: list[Buffer] = []
        self.effects: list = []
        self._counts: dict[str, int] = {}
        self._taken: set[str] = set()

    def fresh(self, prefix: str) -> str:
        """`prefix` and the next count no other name of the program has (`exp0`, `exp1`)."""
        n = self._counts.get(prefix, 0)
        while f"{prefix}{n}" in self._taken:
            n += 1
        self._counts[prefix] = n + 1
        return self.claim(f"{prefix}{n}")

    @property
    def taken(self) -> set[str]:
        """Every name the program's buffers, loop variables and flags have."""
        return set(self._taken)

    def claim(self, name: str) -> str:
        self._taken.add(name)
        return name

    def temp(self, shape, dtype, stem: str = "t") -> Buffer:
        """A temporary named `stem` and a count (the operation that fills it, see names.py)."""
        buf = Buffer(self.fresh(stem), tuple(shape), np.dtype(dtype), "temp",
                     order=len(self.temps))
        self.temps.append(buf)
        return buf

    def view(self, of: Buffer, shape, offset: StepOffset | None, stem: str = "view") -> Buffer:
        view = Buffer(self.fresh(stem), tuple(shape), of.dtype, "view", of, offset,
                      order=len(self.views))
        self.views.append(view)
        return view

    def add_kernel(self, kernel) -> Call:
        self.kernels.append(kernel)
        return Call(len(self.kernels) - 1)


class RegionLowering:
    """Lowers one IR (the whole function, or a loop body / branch) into statements.

    `bound` gives buffers for the IR's invars (and constvars); `dests` asks for outvars
    to be written into particular buffers (a loop's next carry, a branch's results).
    """

    def __init__(self, builder: ProgramBuilder, ir: IR, bound: dict, dests: dict | None = None,
                 donated=frozenset(), matmul_limits=None):
        self.builder, self.ir = builder, ir
        self.producers = {v: eqn for eqn in ir.eqns for v in eqn.outputs}
        self.buffers: dict[Var, Buffer] = dict(bound)
        self.leaf_exprs: dict[Var, Expr] = {}     # scalars held in C variables (interchange)
        self.dests = dests or {}
        self.donated = donated                    # invars whose buffers may be overwritten
        self.in_place: set[Var] = set()           # updates stored into their operand's buffer
        self.not_in_place: dict[Var, str] = {}    # other updates: why they write a new buffer
        self.matmul_limits = matmul_limits or {}  # {product: loop_ranges.LoopLimits}
        self._memo: dict = {}

    # -- the statements of this region ------------------------------------------------------
    def lower(self) -> list:
        roots = materialised_vars(self.ir, self.builder.max_fused_height)
        plan = plan_in_place(self.ir, roots, self.donated, self.not_in_place)
        roots |= set(plan)
        written = set()
        for var, buf in self.dests.items():
            if var in self.producers and var not in self.buffers:
                self.buffers[var] = buf
                written.add(var)
                self._share_down_the_chain(var, buf, plan)
                if self._computes_into_reshaped(var, buf, roots, plan):
                    roots.discard(var)        # its values are in `buf` already
        for eqn in self.ir.eqns:
            for v in eqn.outputs:
                operand = self.buffers.get(plan.get(v))
                if operand is not None and self.buffers.get(v, operand) == operand:
                    self.buffers[v] = operand     # the update writes its operand's buffer
                    self.in_place.add(v)
                elif v in roots and v not in self.buffers:
                    self.buffers[v] = self.builder.temp(v.aval.shape, v.aval.dtype,
                                                        value_name(eqn.prim.name))
        stmts = []
        for eqn in self.ir.eqns:
            statements = STATEMENT_LOWERINGS.get(eqn.prim.name)
            if statements is not None:
                stmts.extend(statements(self, eqn))
            elif eqn.outputs[0] in roots:
                stmts.extend(self.emit_kernel(eqn.outputs[0]))
        for var, buf in self.dests.items():
            if var not in written:
                stmts.append(self.copy_into(buf, var, "result"))
        return stmts

    def _share_down_the_chain(self, var, buf, plan) -> None:
        """Give `buf` (the destination of `var`) to the chain of in-place updates that ends
        in `var`, back to its first value: that value is then computed straight into the
        destination and every update after it is a store there. Without this, a chain
        whose first value needs a buffer of its own (a stencil update that reads most of
        the old array) ends in a whole-array copy into the destination (a loop's spare
        buffer); the first value is dead once the update after it is done (buffers.py)."""
        operand = plan.get(var)
        while operand is not None and operand in self.producers \
                and operand not in self.buffers and operand not in self.dests:
            self.buffers[operand] = buf
            operand = plan.get(operand)

    def _computes_into_reshaped(self, var, buf, roots, plan) -> bool:
        """When result `var` is a reshape of a value x that gets a buffer of its own, let x
        be computed straight into the result's memory (a view of it in x's shape: row-major
        order is the same) instead of into a temporary copied out afterwards (doitgen's
        `reshape(A2 @ C4)`: a 3.7 MB copy after the product). Only for the program's
        results, and only where nothing overwrites x's buffer later (an update in place)
        and x is computed by one kernel (not a loop, whose results may swap buffers)."""
        eqn = self.producers[var]
        if buf.role != "output" or eqn.prim.name != "reshape":
            return False
        x = eqn.inputs[0]
        if not isinstance(x, Var) or x not in self.producers or x not in roots \
                or x in self.buffers or x in self.dests or x in plan or x in plan.values() \
                or self.producers[x].prim.name in STATEMENT_LOWERINGS:
            return False
        self.buffers[x] = self.builder.view(buf, x.aval.shape, None,
                                            value_name(self.producers[x].prim.name))
        return True

    def nested(self, ir: IR, bound: dict, dests: dict | None = None, donated=frozenset(),
               matmul_limits=None) -> "RegionLowering":
        """The lowering of a region inside this one (a loop body, a branch): same program."""
        return RegionLowering(self.builder, ir, bound, dests, donated, matmul_limits)

    def buffer_for(self, atom, stmts: list) -> Buffer:
        """A buffer holding `atom`, materialising a literal or a fused value into a
        temporary (its copy appended to `stmts`) when it has none."""
        buf = self.buffers.get(atom)
        if buf is None:
            buf = self.builder.temp(atom.aval.shape, atom.aval.dtype, "operand")
            stmts.append(self.copy_into(buf, atom, "operand"))
        return buf

    def copy_into(self, buf: Buffer, atom, why: str):
        return self.builder.add_kernel(self._copy_kernel(buf, atom, why))

    def _copy_kernel(self, buf: Buffer, atom, why: str) -> LoopKernel:
        shape = buf.shape
        n = len(shape)
        idx = tuple(Affine.var(d, n) for d in range(n))
        value = cast(self.value_at(atom, idx if atom.aval.shape else (), n), buf.dtype, None)
        return LoopKernel(shape, buf, linearize(idx, shape, n), value, f"{buf.shape} {why}")

    # -- scalar expressions -------------------------------------------------------------------
    # Expressions are built on an explicit stack, never by recursion: an unrolled Python loop
    # makes an expression as deep as its trip count (thousands of levels), so each rule below
    # is a generator that yields the (atom, index, nvars) of each operand it needs and is
    # sent back that operand's expression. `_run` drives the generators.
    def value_at(self, atom, idx: tuple[Affine, ...], nvars: int) -> Expr:
        """The scalar expression for `atom` at multi-index `idx` (memoised: IRs are DAGs)."""
        found = self._known(atom, idx, nvars)
        if found is None:
            found = self._memo[(atom, idx, nvars)] = self._run(atom, idx, nvars)
        return found

    def _known(self, atom, idx, nvars) -> Expr | None:
        """The expression when it needs no operand: a literal, a memoised value, a scalar
        held in a C variable, or a load from the atom's buffer. None otherwise."""
        if isinstance(atom, Literal):
            return literal_expr(atom.value, atom.aval.dtype)
        key = (atom, idx, nvars)
        expr = self._memo.get(key)
        if expr is None:
            if atom in self.leaf_exprs:
                expr = self.leaf_exprs[atom]
            else:
                buf = self.buffers.get(atom)
                if buf is None:
                    return None
                expr = Expr("load", (buf, linearize(idx, buf.shape, nvars)), buf.dtype)
            self._memo[key] = expr
        return expr

    def _run(self, var: Var, idx, nvars) -> Expr:
        """`var` built from its producer, and every operand it needs, depth first."""
        stack: list = []
        sent = self._begin(None, var, idx, nvars, stack)
        while stack:
            key, job = stack[-1]
            try:
                wanted = job.send(sent)
            except StopIteration as done:
                stack.pop()
                sent = done.value
                if key is not None:
                    self._memo[key] = sent
                continue
            sent = self._known(*wanted)
            if sent is None:
                sent = self._begin(wanted, *wanted, stack)
        return sent

    def _begin(self, key, var: Var, idx, nvars, stack) -> Expr | None:
        """Start building `var`: its expression when its rule needs no operand, else None
        with the rule's generator pushed on `stack` (memoised under `key` when done)."""
        eqn = self.producers[var]
        job = _INDEX_RULES.get(eqn.prim.name, _elementwise)(self, eqn, idx, nvars)
        if isinstance(job, Expr):
            if key is not None:
                self._memo[key] = job
            return job
        stack.append((key, job))
        return None

    def compute(self, var: Var, idx, nvars) -> Expr:
        """`var` computed from its producer (even when `var` itself has a buffer)."""
        return self._run(var, idx, nvars)

    def scalar(self, atom) -> Expr:
        """A 0-d value (an index, a bound) as an expression."""
        return self.value_at(atom, (), 0)

    # -- kernels ------------------------------------------------------------------------------
    def emit_kernel(self, var: Var) -> list:
        eqn, buf = self.producers[var], self.buffers[var]
        name = eqn.prim.name
        where = f" at {short_source(eqn.source)}" if eqn.source else ""
        comment = f"{var.aval.str_short()} = {name}{where}"
        rule = in_place_update_kernels if var in self.in_place else \
            KERNEL_LOWERINGS.get(name, _loop_kernels)
        return [self.builder.add_kernel(k) for k in rule(self, eqn, buf, comment)]

    def _copy_note(self, var, comment) -> str:
        """An update written to a new buffer copies the rest of the array: say why."""
        why = self.not_in_place.get(var) or "its result has a buffer of its own"
        return f"{comment}, into a new buffer: {why}"

    def _debug_print(self, eqn) -> list:
        stmts = []
        # Empty values have nothing to read: they are passed as null pointers.
        values = [self.buffer_for(a, stmts) if a.aval.size else None for a in eqn.inputs]
        effect = len(self.builder.effects)
        self.builder.effects.append((eqn.params["fmt"], eqn.params["treedef"],
                                     [(a.aval.shape, a.aval.dtype) for a in eqn.inputs]))
        where = f" at {short_source(eqn.source)}" if eqn.source else ""
        stmts.append(self.builder.add_kernel(DebugKernel(values, effect, f"debug.print{where}")))
        return stmts

    def _reduce_kernel(self, eqn, buf, comment):
        (x,) = eqn.inputs
        axes = (eqn.params["axis"],) if eqn.prim.name in ARG_REDUCTIONS else eqn.params["axes"]
        kept = [d for d in range(x.aval.ndim) if d not in axes]
        order = kept + list(axes)            # loop vars: output dims, then reduced dims
        nvars = len(order)
        idx = [None] * x.aval.ndim
        for loop_var, dim in enumerate(order):
            idx[dim] = Affine.var(loop_var, nvars)
        body = self.value_at(x, tuple(idx), nvars)
        combiner = _COMBINER[eqn.prim.name]
        if x.aval.dtype == np.bool_:
            combiner = BOOL_COMBINER.get(combiner, combiner)
        return ReduceKernel(tuple(x.aval.shape[d] for d in kept),
                            tuple(x.aval.shape[d] for d in axes), buf, combiner, body, comment,
                            eqn.source)

    def _matmul_kernels(self, eqn, buf, comment):
        """The product reads its operands in place through strides; an operand that is not a
        plain strided load of one buffer (rare: e.g. a constant) is first copied into one."""
        kernels, operands = [], []
        for atom in eqn.inputs:
            operand = self._strided_operand(atom)
            if operand is None:
                tmp = self.builder.temp(atom.aval.shape, atom.aval.dtype, "operand")
                kernels.append(self._copy_kernel(tmp, atom, "matmul operand"))
                operand = self._strided_operand_of(tmp)
            operands.append(operand)
        *batch, m, k = eqn.inputs[0].aval.shape
        n = eqn.inputs[1].aval.shape[-1]
        kernels.append(MatmulKernel(operands[0], operands[1], buf, tuple(batch), m, k, n,
                                    comment, self._limits(eqn.outputs[0], batch)))
        return kernels

    def _limits(self, var, batch):
        found = self.matmul_limits.get(var)
        if found is None or batch:
            return None
        return MatmulLimits(self.buffers[found.index], found.short_k, found.rows_from_index)

    def _strided_operand(self, atom):
        if not isinstance(atom, Var):
            return None
        n = atom.aval.ndim
        expr = self.value_at(atom, tuple(Affine.var(d, n) for d in range(n)), n)
        if expr.kind != "load" or expr.args[1].dyn:
            return None
        buffer, flat = expr.args
        return StridedOperand(buffer, flat.const, flat.coeffs)

    @staticmethod
    def _strided_operand_of(buf):
        """A whole contiguous buffer: row-major strides."""
        strides = np.cumprod((1,) + buf.shape[:0:-1])[::-1]
        return StridedOperand(buf, 0, tuple(int(s) for s in strides))

    def _sort_kernel(self, eqn, buf, comment):
        operand = self.buffers[eqn.inputs[0]]     # the schedule gave it a contiguous buffer
        if operand.dtype.kind == "c":
            raise NotImplementedError(f"{eqn.prim.name} of {operand.dtype} has no C rendering "
                                      "(NumPy orders complex numbers lexicographically); use "
                                      "backend='interpret'")
        shape = operand.shape
        n = shape[-1] if shape else 1
        rows = math.prod(shape[:-1]) if shape else 1
        scratch = self.builder.temp((4 * rows * n,), I64, "scratch")   # see tp_sort.h
        return SortKernel(operand, buf, scratch, rows, n, eqn.prim.name == "argsort", comment)

    def _concat_kernels(self, eqn, buf, comment):
        dim, offset, kernels = eqn.params["dimension"], 0, []
        out_shape = eqn.outputs[0].aval.shape
        for operand in eqn.inputs:
            shape = operand.aval.shape
            n = len(shape)
            idx = tuple(Affine.var(d, n) for d in range(n))
            store_idx = tuple(a.shift(offset) if d == dim else a for d, a in enumerate(idx))
            value = cast(self.value_at(operand, idx, n), buf.dtype, eqn.source)
            kernels.append(LoopKernel(shape, buf, linearize(store_idx, out_shape, n), value,
                                      f"{comment} (part at offset {offset})"))
            offset += shape[dim]
        return kernels


# -- the kernels of a materialised value: one rule per primitive ------------------------------
# A rule takes (region, equation, output buffer, comment) and returns the value's kernels.

def _loop_kernels(low, eqn, buf, comment):
    """The default: one loop nest storing the value, its producers fused into it."""
    var = eqn.outputs[0]
    shape = var.aval.shape
    n = len(shape)
    idx = tuple(Affine.var(d, n) for d in range(n))
    return [LoopKernel(shape, buf, linearize(idx, shape, n), low.compute(var, idx, n), comment)]


def _new_buffer_update_kernels(low, eqn, buf, comment):
    """A dynamic_update_slice into a buffer of its own (in place is in_place_update_kernels):
    boxes around the window at static starts, else an elementwise select."""
    comment = low._copy_note(eqn.outputs[0], comment)
    if all(isinstance(s, Literal) for s in eqn.inputs[2:]):
        return static_update_kernels(low, eqn, buf, comment)
    return _loop_kernels(low, eqn, buf, comment)


def _reduce_kernels(low, eqn, buf, comment):
    return [low._reduce_kernel(eqn, buf, comment)]


def _sort_kernels(low, eqn, buf, comment):
    return [low._sort_kernel(eqn, buf, comment)]


KERNEL_LOWERINGS = {
    **{name: _reduce_kernels for name in sorted(REDUCTIONS | ARG_REDUCTIONS)},
    "dot_general": RegionLowering._matmul_kernels,
    "concatenate": RegionLowering._concat_kernels,
    "sort": _sort_kernels, "argsort": _sort_kernels,
    "dynamic_update_slice": _new_buffer_update_kernels,
    **HELPER_LOWERINGS,
}

# Equations that become statements of their own (control flow around the kernels of their
# regions, a debug print's call) rather than the kernels of a materialised value.
STATEMENT_LOWERINGS = {**CONTROL_FLOW_LOWERINGS, "debug_print": RegionLowering._debug_print}


def _unique(name: str, builder: ProgramBuilder) -> str:
    """`name`, or `name_2`, `name_3`... when two arguments' paths make one name."""
    found, k = name, 1
    while found in builder._taken:
        k += 1
        found = f"{name}_{k}"
    return found


def literal_array(atom: Literal) -> np.ndarray:
    """A 0-d array of the literal's own dtype (a Python number alone would lose it)."""
    with np.errstate(over="ignore"):
        return np.array(atom.value).astype(atom.aval.dtype)


# -- the rules that build expressions: one generator per primitive ---------------------------
# A rule that reads operands is a generator: it yields (atom, index, nvars) for each operand
# it needs, is sent back that operand's expression (see RegionLowering._run) and returns the
# value's expression. A rule that reads no operand (iota) may return the expression itself.

def _elementwise(low, eqn, idx, nvars):
    name, out = eqn.prim.name, eqn.outputs[0].aval
    operands = []
    for a in eqn.inputs:
        operands.append((yield a, idx if a.aval.shape else (), nvars))
    src = eqn.source
    if name == "select":
        pred, t, f = operands
        return Expr("select", (pred, cast(t, out.dtype, src), cast(f, out.dtype, src)),
                    out.dtype, src)
    if name == "convert_element_type":
        return cast(operands[0], out.dtype, src, force=True)
    if name in SPECIAL_UNARY or name in COMPLEX_PARTS or name == "bitcast_convert_type":
        return op_expr(name, operands, [a.aval.dtype for a in eqn.inputs], out.dtype, src)
    if name not in ELEMENTWISE_UFUNC:
        raise NotImplementedError(f"no lowering for primitive '{name}'")
    loop, _ = elementwise_dtypes(name, [a.aval for a in eqn.inputs])
    if name in _CONSTANT_ON_INTEGERS and np.dtype(loop[0]).kind not in "fc":
        return literal_expr(_CONSTANT_ON_INTEGERS[name], out.dtype)
    return op_expr(name, [cast(o, dt, src) for o, dt in zip(operands, loop)], loop,
                   out.dtype, src)


# The view primitives only rewrite the index at which their operand is read.

def _broadcast_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    dims = eqn.params["broadcast_dimensions"]
    sub = tuple(Affine.constant(0, nvars) if x.aval.shape[i] == 1 else idx[d]
                for i, d in enumerate(dims))
    return (yield x, sub, nvars)


def _transpose_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    sub = [None] * x.aval.ndim
    for out_dim, in_dim in enumerate(eqn.params["permutation"]):
        sub[in_dim] = idx[out_dim]
    return (yield x, tuple(sub), nvars)


def _slice_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    p = eqn.params
    sub = tuple(a.scale(st).shift(lo) for a, lo, st in
                zip(idx, p["start_indices"], p["strides"]))
    return (yield x, sub, nvars)


def _rev_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    dims = eqn.params["dimensions"]
    sub = tuple(a.scale(-1).shift(x.aval.shape[d] - 1) if d in dims else a
                for d, a in enumerate(idx))
    return (yield x, sub, nvars)


def _reshape_index(low, eqn, idx, nvars):
    (x,) = eqn.inputs
    old, new = x.aval.shape, eqn.params["new_sizes"]
    if is_trivial_reshape(old, new):
        kept = iter([a for a, d in zip(idx, new) if d != 1])
        sub = tuple(next(kept) if d != 1 else Affine.constant(0, nvars) for d in old)
        return (yield x, sub, nvars)
    # The schedule guarantees x has a contiguous buffer: reuse the flat offset.
    buf = low.buffers[x]
    return Expr("load", (buf, linearize(idx, new, nvars)), buf.dtype)


def _iota_index(low, eqn, idx, nvars):
    return Expr("index", (idx[eqn.params["dimension"]],), eqn.outputs[0].aval.dtype,
                eqn.source)


def _clamped_starts_rule(eqn, operand_shape, sizes):
    """`clamped_starts` inside a rule: the start values are asked for, not computed."""
    clamped = []
    for s, d, n in zip(eqn.inputs[-len(operand_shape):], operand_shape, sizes):
        clamped.append(clamp_expr((yield s, (), 0), 0, d - n))
    return clamped


def _dynamic_slice_index(low, eqn, idx, nvars):
    x = eqn.inputs[0]
    starts = yield from _clamped_starts_rule(eqn, x.aval.shape, eqn.params["slice_sizes"])
    sub = tuple(a.plus(s) for a, s in zip(idx, starts))
    return (yield x, sub, nvars)


def _dynamic_update_slice_index(low, eqn, idx, nvars):
    x, update = eqn.inputs[0], eqn.inputs[1]
    sizes = update.aval.shape
    starts = yield from _clamped_starts_rule(eqn, x.aval.shape, sizes)
    inside, sub = None, []
    for a, s, n in zip(idx, starts, sizes):
        position = Expr("index", (a,), I64)
        offset = op_expr("sub", [position, s], (I64, I64), I64)
        ok = op_expr("and", [op_expr("ge", [offset, literal_expr(0, I64)], (I64, I64), np.bool_),
                             op_expr("lt", [offset, literal_expr(n, I64)], (I64, I64), np.bool_)],
                     (np.bool_, np.bool_), np.bool_)
        inside = ok if inside is None else op_expr("and", [inside, ok], (np.bool_,) * 2, np.bool_)
        # Clamped, so that the (always evaluated) update load never leaves its buffer.
        sub.append(Affine.constant(0, nvars).plus(clamp_expr(offset, 0, max(n - 1, 0))))
    new = yield update, tuple(sub), nvars
    old = yield x, idx, nvars
    if inside is None:                       # 0-d: the update replaces the value
        return new
    return Expr("select", (inside, new, old), old.dtype, eqn.source)


def _gather_index(low, eqn, idx, nvars):
    """The operand read at a data-dependent position: the index value, counted from the end
    when negative and clamped into the axis (as in JAX), becomes a run-time offset."""
    x, indices = eqn.inputs
    axis, k = eqn.params["axis"], indices.aval.ndim
    n = x.aval.shape[axis]
    raw = cast((yield indices, tuple(idx[axis:axis + k]), nvars), I64, eqn.source)
    negative = op_expr("lt", [raw, literal_expr(0, I64)], (I64, I64), np.bool_)
    wrapped = Expr("select", (negative, op_expr("add", [raw, literal_expr(n, I64)], (I64, I64),
                                                       I64), raw), I64, eqn.source)
    position = Affine.constant(0, nvars).plus(clamp_expr(wrapped, 0, max(n - 1, 0)))
    sub = tuple(idx[:axis]) + (position,) + tuple(idx[axis + k:])
    return (yield x, sub, nvars)


_INDEX_RULES = {"broadcast_in_dim": _broadcast_index, "transpose": _transpose_index,
                "slice": _slice_index, "rev": _rev_index, "reshape": _reshape_index,
                "iota": _iota_index, "dynamic_slice": _dynamic_slice_index,
                "dynamic_update_slice": _dynamic_update_slice_index, "gather": _gather_index}


def lower(ir: IR, name: str, max_fused_height: int | None = None,
          arg_names=(), function: str = "") -> Program:
    """The Program of `ir`, whose entry is called `name`. `arg_names`, one per invar (the
    Python arguments' names and paths), name the input buffers; without them they are `in0`,
    `in1`... `function` (the jitted function's Python name) starts its kernels' names."""
    builder = ProgramBuilder(name, max_fused_height)
    named = len(arg_names) == len(ir.invars)
    inputs, bound, position = [], {}, {}    # position: the index of each var's input buffer
    for i, v in enumerate(ir.constvars):
        bound[v] = Buffer(builder.fresh("c"), v.aval.shape, v.aval.dtype, "const", order=i)
        position[v] = len(inputs)
        inputs.append(bound[v])
    for i, v in enumerate(ir.invars):
        if v not in bound:
            label = builder.claim(_unique(python_name(arg_names[i]), builder)) if named \
                else builder.fresh("in")
            bound[v] = Buffer(label, v.aval.shape, v.aval.dtype, "input", order=i)
            position[v] = len(inputs)
            inputs.append(bound[v])
    outputs, sources, dests, returned = [], [], {}, {}
    for atom in ir.outvars:
        if isinstance(atom, Literal):
            sources.append(("literal", literal_array(atom)))
        elif atom in bound:
            sources.append(("input", position[atom]))
        elif atom in dests:                  # the same value returned twice
            sources.append(("buffer", returned[atom]))
        else:
            dests[atom] = Buffer(builder.fresh("out"), atom.aval.shape, atom.aval.dtype,
                                 "output", order=len(outputs))
            returned[atom] = len(outputs)
            outputs.append(dests[atom])
            sources.append(("buffer", len(outputs) - 1))
    body = RegionLowering(builder, ir, bound, dests).lower()
    kernels = kernel_names(function, builder.kernels, builder.taken | {name}, body)
    return Program(name, inputs, outputs, builder.temps, builder.kernels, sources, body,
                   builder.views, builder.effects, kernels)
