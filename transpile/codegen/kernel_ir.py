"""Kernels: loop nests over scalar expressions, the backend-neutral output of lowering.

Indices are affine in the loop variables (`Affine`), which is what lets view
operations (broadcast, transpose, slice, reverse, reshape of a buffer) fuse
into their consumers as pure index arithmetic, and lets adjacent loops merge.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Affine:
    """sum(coeffs[d] * i_d) + const + sum(k * e) over a kernel's loop variables i_0..i_{n-1}.

    `dyn` holds run-time offsets (an integer scalar Expr and its multiplier each), which is
    how a dynamic_slice with a traced start stays a strided load instead of a copy.
    """
    coeffs: tuple[int, ...]
    const: int = 0
    dyn: tuple = ()

    @staticmethod
    def var(d: int, n: int) -> "Affine":
        return Affine(tuple(int(k == d) for k in range(n)), 0)

    @staticmethod
    def constant(c: int, n: int) -> "Affine":
        return Affine((0,) * n, c)

    def __add__(self, other: "Affine") -> "Affine":
        return Affine(tuple(a + b for a, b in zip(self.coeffs, other.coeffs)),
                      self.const + other.const, self.dyn + other.dyn)

    def scale(self, k: int) -> "Affine":
        return Affine(tuple(k * c for c in self.coeffs), k * self.const,
                      tuple((e, k * m) for e, m in self.dyn if k * m))

    def shift(self, c: int) -> "Affine":
        return Affine(self.coeffs, self.const + c, self.dyn)

    def plus(self, expr, k: int = 1) -> "Affine":
        return Affine(self.coeffs, self.const, self.dyn + ((expr, k),))


def linearize(idx: tuple[Affine, ...], shape: tuple[int, ...], nvars: int) -> Affine:
    """Row-major flat offset of a multi-index into a contiguous array of `shape`."""
    flat, stride = Affine.constant(0, nvars), 1
    for a, n in zip(reversed(idx), reversed(shape)):
        flat = flat + a.scale(stride)
        stride *= n
    return flat


@dataclasses.dataclass(frozen=True)
class StepOffset:
    """Where step `var` of a loop starts in a stacked buffer, in elements: position * stride,
    the position being `var`, or `reverse_length - 1 - var` for a scan run in reverse."""
    var: str
    stride: int
    reverse_length: int | None = None


@dataclasses.dataclass(frozen=True)
class Buffer:
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype
    role: str           # "input", "const", "output", "temp", or "view"
    # A view (a scan's x or y of one step) is `of`'s memory from element `offset` on: no
    # copy, and structure rather than a pointer expression (each renderer spells it).
    # Offset None: all of `of`, in another shape (a value computed into a reshaped result).
    of: "Buffer | None" = None
    offset: StepOffset | None = None
    # Creation order within its role: kernel parameters and entry declarations follow it
    # (names come from the Python source and do not sort).
    order: int = 0

    # Names are unique within a program: hashing the name alone keeps the hash of every
    # load (which holds its buffer) cheap; equality still compares every field.
    def __hash__(self):
        return hash(self.name)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def root(self) -> "Buffer":
        """The buffer a view points into, through views of views (itself if not a view)."""
        buf = self
        while buf.of is not None:
            buf = buf.of
        return buf


class Expr:
    """A scalar expression node. `kind` is one of:

    load (args: Buffer, Affine), lit (args: value, its bytes), index (args: Affine),
    op (args: primitive name, operand Exprs, operand loop dtypes), cast (args: Expr),
    select (args: pred, on_true, on_false), var (args: the name of a scalar register: an
    interchanged loop's carry or index, see IteratedKernel).

    Nodes are immutable and compared structurally (that is how the renderer shares
    equal subexpressions); the hash is computed once, because expressions are DAGs and
    re-hashing them recursively would take time exponential in their depth.
    `source` (the Python line) is carried along but is not part of the identity.
    """
    __slots__ = ("kind", "args", "dtype", "source", "_hash")

    def __init__(self, kind: str, args: tuple, dtype: np.dtype, source: Any = None):
        self.kind, self.args, self.dtype, self.source = kind, args, dtype, source
        self._hash = hash((kind, args, dtype))

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self is other or (isinstance(other, Expr) and self._hash == other._hash
                                 and _same_structure(self, other))

    def __repr__(self):
        # One level only: a whole expression can be thousands of levels deep, and as a DAG
        # printed as a tree, exponentially long.
        head = self.args[0] if self.kind in ("op", "lit", "var") else \
            self.args[0].name if self.kind == "load" else ""
        return f"Expr({self.kind}, {head!r}, {self.dtype})"


def _same_structure(a: Expr, b: Expr) -> bool:
    """Do two expression DAGs hold the same nodes? Compared on an explicit stack (an
    unrolled loop makes them thousands of levels deep), each pair of nodes once (shared
    subexpressions would otherwise be compared once per path to them). Leaves compare as
    a tuple compares its items: identical, or equal."""
    stack, compared = [(a, b)], set()
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        kind = type(x)
        if kind in (Expr, tuple, Affine) and type(y) is not kind:
            return False
        if kind is Expr:
            if x._hash != y._hash or x.kind != y.kind or x.dtype != y.dtype:
                return False
            if (id(x), id(y)) not in compared:
                compared.add((id(x), id(y)))
                stack.append((x.args, y.args))
        elif kind is tuple:
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif kind is Affine:
            if x.coeffs != y.coeffs or x.const != y.const:
                return False
            stack.append((x.dyn, y.dyn))
        elif x != y:
            return False
    return True


def children(expr: Expr) -> list:
    """Sub-expressions, including the run-time offsets inside indices."""
    if expr.kind == "load":
        return [e for e, _ in expr.args[1].dyn]
    if expr.kind == "index":
        return [e for e, _ in expr.args[0].dyn]
    if expr.kind == "op":
        return list(expr.args[1])
    if expr.kind in ("cast", "select"):
        return list(expr.args)
    return []


def walk(expr: Expr, seen=None):
    """Every node of an expression DAG once."""
    seen = set() if seen is None else seen
    stack = [expr]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        stack.extend(children(e))


# A kernel parameter constant's type: every integer that may become one (an index offset, a
# loop's trip count, an int64 literal) is an int64 where the kernel uses it.
KERNEL_CONSTANT_DTYPE = np.dtype(np.int64)


@dataclasses.dataclass(frozen=True)
class KernelConstant:
    """An integer a kernel takes as a parameter instead of spelling it (codegen/
    kernel_sharing.py: kernels equal up to such integers share one function, each call
    passing its values). Inside expressions it is a `var` leaf of its name, so every
    renderer spells it as it spells a register; renderers declare it a `const int64_t`."""
    name: str

    def expr(self) -> Expr:
        return Expr("var", (self.name,), KERNEL_CONSTANT_DTYPE)


@dataclasses.dataclass
class LoopKernel:
    """out[store(i)] = value(i) for every i in `shape` (one loop nest, elementwise)."""
    shape: tuple[int, ...]
    out: Buffer
    store: Affine
    value: Expr
    comment: str = ""


@dataclasses.dataclass
class IteratedKernel:
    """A fori_loop interchanged with its elementwise body: for each element (in parallel),
    the carries live in scalar variables while the loop runs, then are stored once.

    `carries` are (register name, initial value Expr, update Expr, output Buffer); the
    update Exprs read the carries and the loop index through "var" leaves.
    """
    shape: tuple[int, ...]
    carries: list
    index_name: str
    index_dtype: np.dtype
    comment: str = ""


@dataclasses.dataclass
class ReduceKernel:
    """out[o] = combine over r of body(o, r); loop vars are out dims then reduced dims."""
    out_shape: tuple[int, ...]
    reduce_shape: tuple[int, ...]
    out: Buffer
    combiner: str        # "sum", "prod", "max", "min", "and", "or", "argmax", "argmin"
    body: Expr
    comment: str = ""
    source: Any = None   # the Python line of the reduction


@dataclasses.dataclass(frozen=True)
class StridedOperand:
    """A matmul operand read in place from `buffer`: the element at multi-index (b..., i, j)
    is buffer[offset + sum(index * stride)]. Strides (in elements) may be 0 (broadcast) or
    negative (reversed); views (transpose, slice, broadcast, rev) never become copies."""
    buffer: Buffer
    offset: int
    strides: tuple[int, ...]     # one per dimension: batch dims, then rows, then columns


@dataclasses.dataclass(frozen=True)
class MatmulLimits:
    """Run-time bounds read from a loop index (codegen/loop_ranges.py proves them): contract
    only p < index (`short_k`: the rest adds exact zeros); compute only rows >= index and
    store zeros above (`rows_from_index`: nothing reads those rows). Optional for renderers."""
    index: Buffer
    short_k: bool
    rows_from_index: bool


@dataclasses.dataclass
class MatmulKernel:
    """out[b] = lhs[b] @ rhs[b]: (*batch, m, k) @ (*batch, k, n) into a contiguous `out`."""
    lhs: StridedOperand
    rhs: StridedOperand
    out: Buffer
    batch_shape: tuple[int, ...]
    m: int
    k: int
    n: int
    comment: str = ""
    limits: MatmulLimits | None = None     # only on unbatched products

    @property
    def batch(self) -> int:
        return int(np.prod(self.batch_shape, dtype=np.int64))

    def batch_groups(self) -> list:
        """The batch dimensions as (size, (lhs, rhs, out) strides) groups, outermost first:
        size-1 dimensions dropped, neighbours merged wherever all three operands allow it.
        One runtime GEMM call runs the innermost group; the others are loops around it
        (each renderer spells them; the first-call executor runs them)."""
        out_strides, stride = [], self.m * self.n
        for size in reversed(self.batch_shape):
            out_strides.insert(0, stride)
            stride *= size
        dims = [(size, (ls, rs, os_)) for size, ls, rs, os_ in
                zip(self.batch_shape, self.lhs.strides, self.rhs.strides, out_strides)
                if size != 1]
        groups = []
        for size, strides in dims:
            if groups and all(prev == s * size for prev, s in zip(groups[-1][1], strides)):
                groups[-1] = (groups[-1][0] * size, strides)
            else:
                groups.append((size, strides))
        return groups


@dataclasses.dataclass
class SortKernel:
    """Each row of a contiguous (rows, n) operand sorted stably (NaN last): the values into
    `out`, or, with `indices=True`, their int64 positions. `scratch` holds 4 * rows * n
    int64 of working space, allocated with the other temporaries."""
    operand: Buffer
    out: Buffer
    scratch: Buffer
    rows: int
    n: int
    indices: bool
    comment: str = ""


@dataclasses.dataclass
class DebugKernel:
    """Hand `values` (contiguous buffers) to the Python print hook as print number `effect`
    (an index into Program.effects); an empty value is None (a null pointer). It runs in
    the entry's statement order, so prints come out in program order, once per execution (inside loops, once per iteration)."""
    values: list
    effect: int
    comment: str = ""


# The run-time helpers a HelperKernel can call: operation -> what it does. Each renderer
# spells the call (its function and where it is declared) from (operation, dtype).
HELPER_OPERATIONS = {
    **{f"scatter_{mode}": f"scatter ({mode}) at positions, in order"
       for mode in ("set", "add", "mul", "min", "max")},
    "solve": "LU solve", "det": "determinant by LU", "slogdet": "sign and log|det| by LU",
    "cholesky": "Cholesky factor", "qr_q": "QR's Q", "qr_r": "QR's R",
    "eigh": "symmetric eigenvalues by LAPACK's xSYEVD route",
    "svd": "SVD by LAPACK's xGESDD route (one-sided Jacobi above order 25)",
    "eig": "eigenvalues and vectors by Hessenberg QR",
    "fft_c2c": "complex FFT", "fft_r2c": "real-input FFT", "fft_c2r": "real-output FFT",
    "conv": "direct convolution, channels last",
}


@dataclasses.dataclass
class HelperKernel:
    """The run-time helper `operation` on elements of `dtype` (reads..., writes...,
    scalars...): work on whole contiguous buffers (scatters, factorizations, FFTs). Whether
    it runs in parallel is the helper's own business; a scatter runs serially, in index
    order. `items`: the independent problems it runs (the matrices of a batch), each of
    which the helper can run alone (a device thread each); None when the work is one
    serial problem (a scatter: duplicates make the order matter)."""
    operation: str       # a key of HELPER_OPERATIONS
    dtype: np.dtype
    reads: list
    writes: list
    scalars: tuple = ()
    comment: str = ""
    items: int | None = None


# -- statements: the control flow of the entry function, calling kernels -------------------

@dataclasses.dataclass(frozen=True)
class EntryScalar:
    """A scalar the entry function reads: a loop bound, a `while` flag, a switch index or a
    kernel's scalar argument. Either the one element of `buffer` (which the entry reads
    from memory: from the device, on a GPU) or the literal `value` of `dtype`. Structure,
    not text: each renderer spells it, and knows which buffers its entry reads."""
    buffer: Buffer | None = None
    value: Any = None
    dtype: np.dtype | None = None

    @staticmethod
    def literal(value, dtype) -> "EntryScalar":
        return EntryScalar(None, value, np.dtype(dtype))

    @staticmethod
    def read(buffer: Buffer) -> "EntryScalar":
        return EntryScalar(buffer)


@dataclasses.dataclass
class Call:
    kernel: int
    scalars: tuple = ()     # extra scalar arguments (EntryScalars), e.g. loop bounds


@dataclasses.dataclass
class Swap:
    """A double-buffered loop carry: the body reads `current` and writes the next value into
    `spare`, then the two pointers are exchanged (no copy). If the loop ends after an odd
    number of exchanges, `restore` (a Call of a copy kernel spare <- current) runs and the
    pointers are exchanged back, so every buffer name means its own memory again after the
    loop; None where the loop's trip count is known and even (the carry always ends at
    home: no copy kernel to compile). Kernels must not take swapped buffers as `restrict`
    pointers (see c_render)."""
    current: Buffer
    spare: Buffer
    restore: Call | None


@dataclasses.dataclass
class For:
    """for (var = lower; var < upper; var++) { [index[0] = position;] body; swaps }"""
    var: str
    lower: EntryScalar
    upper: EntryScalar
    body: list
    index: Buffer | None = None
    reverse_length: int | None = None    # scan(reverse=True): position = length - 1 - var
    swaps: list = dataclasses.field(default_factory=list)
    parity: str = ""                     # name of the "odd number of swaps" flag
    # Does the body read `index`? If not, it is never stored (on CUDA each store would be a
    # host-to-device copy per iteration); its dtype still types the loop variable.
    index_read: bool = True


@dataclasses.dataclass
class While:
    """for (;;) { cond; if (!flag[0]) break; body; swaps }"""
    cond: list
    flag: Buffer
    body: list
    swaps: list = dataclasses.field(default_factory=list)
    parity: str = ""


def swapped_buffers(stmts) -> set[str]:
    """Names of the buffers whose pointers some loop exchanges."""
    names = set()
    for st in stmts:
        for swap in getattr(st, "swaps", ()):
            names.update((swap.current.name, swap.spare.name))
        for nested in (getattr(st, "body", None), getattr(st, "cond", None)):
            if nested:
                names |= swapped_buffers(nested)
        for case in getattr(st, "cases", ()):
            names |= swapped_buffers(case)
    return names


@dataclasses.dataclass
class Switch:
    """Run cases[clamp(index, 0, len(cases) - 1)]."""
    index: EntryScalar
    cases: list


@dataclasses.dataclass
class Program:
    name: str
    inputs: list[Buffer]      # constants first, then arguments, in call order
    outputs: list[Buffer]
    temps: list[Buffer]
    kernels: list
    output_sources: list      # per user output: ("buffer", i) | ("input", j) | ("literal", 0-d array)
    body: list = dataclasses.field(default_factory=list)    # statements
    views: list = dataclasses.field(default_factory=list)   # pointer-offset buffers (scan)
    effects: list = dataclasses.field(default_factory=list)  # debug prints: (fmt, treedef, avals)
    # One C name per kernel, from the Python source (`softmax_exp0`: names.kernel_names).
    kernel_names: list = dataclasses.field(default_factory=list)
