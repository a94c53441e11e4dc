"""Seeded random programs: inputs, then a short chain of ops, each run in NumPy as it is drawn
(so the generator knows every value's shape, dtype and weakness, and drops ops NumPy refuses
on runtime values)."""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np

from .ops import COMPLEX_OPS, OPS, Meta, NoOperand, Pool, Ref, draw_op, operand_value
from .values import (COMPLEX_DTYPES, DTYPES, HALF_DTYPE, LAYOUTS, is_pyscalar, random_array, random_literal,
                     random_shape)

MAX_TRIES = 40
# The Python ints a jit argument may be: int64's range (JAX mode without x64: int32's, as
# JAX refuses larger ones; fuzz/jax_mode.py sets it).
PYTHON_INT_ARGUMENTS = (-2**63, 2**63)


@dataclasses.dataclass
class Node:
    op: str
    operands: tuple
    params: dict
    expect_raise: bool = False     # NumPy raised TypeError/OverflowError at trace-level data


@dataclasses.dataclass
class Program:
    seed: int
    inputs: list                   # NumPy arrays (views), 0-d arrays, or Python scalars
    layouts: list                  # how each input array was made
    nodes: list

    def describe(self) -> str:
        lines = [f"seed {self.seed}"]
        for i, (x, lay) in enumerate(zip(self.inputs, self.layouts)):
            lines.append(f"  in{i} = {_describe_input(x, lay)}")
        for k, n in enumerate(self.nodes):
            args = ", ".join(f"v{a.index}" if isinstance(a, Ref) else repr(a.value)
                             for a in n.operands)
            raise_note = "   # NumPy raises here" if n.expect_raise else ""
            lines.append(f"  v{len(self.inputs) + k} = {n.op}({args}; {n.params}){raise_note}")
        return "\n".join(lines)


def _describe_input(x, layout):
    if isinstance(x, np.ndarray):
        body = np.array2string(np.asarray(x).ravel()[:12], threshold=12, max_line_width=10**6)
        return f"{x.dtype}{list(x.shape)} {layout} {body}"
    return f"{type(x).__name__} argument {x!r}"


def quiet():
    """NumPy warns about overflow, invalid values and division by zero; the fuzzer expects
    them, so they must not turn into errors. A C compiler warning on generated code does
    (as in the test suite's filterwarnings)."""
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("ignore")
    warnings.filterwarnings("error", message="transpile. the C compiler warned")
    err = np.errstate(all="ignore")
    err.__enter__()
    return ctx, err


def unquiet(handles):
    ctx, err = handles
    err.__exit__(None, None, None)
    ctx.__exit__(None, None, None)


def draw_inputs(rng, big: bool, complex_inputs: bool = False, half_inputs: bool = False):
    inputs, layouts = [], []
    for i in range(int(rng.integers(1, 4))):
        if complex_inputs and (i == 0 or rng.random() < 0.5):
            dtype = COMPLEX_DTYPES[int(rng.integers(0, 2))]
        elif half_inputs and (i == 0 or rng.random() < 0.5):
            dtype = HALF_DTYPE
        else:
            dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
        shape = random_shape(rng, big and i == 0)
        layout = LAYOUTS[int(rng.integers(0, len(LAYOUTS)))] if rng.random() < 0.5 \
            else "contiguous"
        inputs.append(random_array(rng, dtype, shape, layout, edgy=float(rng.random() * 0.5)))
        layouts.append(layout)
    for _ in range(int(rng.integers(0, 3))):           # Python scalars and 0-d arrays
        r = rng.random()
        if r < 0.45:
            kind = ["int", "int", "float", "bool"][int(rng.integers(0, 4))]
            value = random_literal(rng, kind)
            lo, hi = PYTHON_INT_ARGUMENTS
            if type(value) is int and not lo <= value < hi:
                value = -1                            # beyond int64: refused as JAX does
            inputs.append(value)
            layouts.append("python-scalar")
        elif r < 0.75:
            inputs.append(int(rng.integers(-8, 9)))   # small ints: loop bounds and indices
            layouts.append("python-scalar")
        else:
            dtype = DTYPES[int(rng.integers(1, 9))]   # a 0-d integer array: a traced index
            lo, hi = max(-9, np.iinfo(dtype).min), min(9, np.iinfo(dtype).max)
            inputs.append(np.asarray(rng.integers(lo, hi, endpoint=True), dtype=dtype))
            layouts.append("0-d")
    return inputs, layouts


def _runtime(metas, operands) -> bool:
    return any(isinstance(a, Ref) and metas[a.index].runtime_scalar for a in operands)


# Elements an op's broadcast operands may span: seed 25318 drew a (5, 8000, 1) and a (40000,)
# operand, whose 12 GiB NumPy reference got the worker killed (a generator accident, not a
# finding).
MAX_BROADCAST = 1 << 22


def _broadcast_too_big(node_operands, values) -> bool:
    shapes = [np.shape(operand_value(a, values)) for a in node_operands]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return False
    return math.prod(shape) > MAX_BROADCAST


def evaluate(op, node_operands, params, values):
    args = [operand_value(a, values) for a in node_operands]
    handles = quiet()
    try:
        return op.ref(params, *args)
    finally:
        unquiet(handles)


# Seeds from here on draw complex programs: complex arrays among the inputs, and only the ops
# transpile compiles for complex operands (ops.COMPLEX_OPS). A seed alone still reproduces.
COMPLEX_SEEDS = 1_000_000_000
# Seeds from here on draw float16 programs: float16 arrays among the inputs, every op.
HALF_SEEDS = 2_000_000_000


def program(seed: int, n_ops: int | None = None) -> Program:
    half_inputs = seed >= HALF_SEEDS
    complex_inputs = COMPLEX_SEEDS <= seed < HALF_SEEDS
    rng = np.random.default_rng(seed)
    big = rng.random() < 0.2
    inputs, layouts = draw_inputs(rng, big, complex_inputs, half_inputs)
    metas = [Meta(x, is_pyscalar(x), lay) for x, lay in zip(inputs, layouts)]
    values = list(inputs)
    nodes = []
    n_ops = int(rng.integers(2, 9)) if n_ops is None else n_ops
    tries = 0
    while len(nodes) < n_ops and tries < MAX_TRIES:
        tries += 1
        op = draw_op(rng, COMPLEX_OPS if complex_inputs else None)
        try:
            drawn = op.draw(rng, Pool(rng, metas))
        except NoOperand:
            continue
        if drawn is None or any(a is None for a in drawn[0]):
            continue
        operands, params = tuple(drawn[0]), drawn[1]
        if _broadcast_too_big(operands, values):
            continue
        try:
            value = evaluate(op, operands, params, values)
        except (TypeError, OverflowError) as e:
            if _runtime(metas, operands) or not _type_level(e):
                continue
            nodes.append(Node(op.name, operands, params, expect_raise=True))
            break
        except (ValueError, IndexError, ZeroDivisionError, RecursionError):
            continue
        if not _representable(value) or _value_dependent(op, operands, metas):
            continue
        nodes.append(Node(op.name, operands, params))
        values.append(value)
        runtime = is_pyscalar(value) and _runtime(metas, operands)
        metas.append(Meta(value, runtime))
    return Program(seed, inputs, layouts, nodes)


COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _value_dependent(op, operands, metas) -> bool:
    """A Python-int *argument* outside an integer partner's range: NumPy decides the result
    (or raises) from its value, which a traced argument does not have at trace time.
    Comparisons are exact whatever the value, so they are kept."""
    if op.name in COMPARISONS:
        return False
    ints = [metas[a.index].value for a in operands if isinstance(a, Ref) and
            metas[a.index].runtime_scalar and type(metas[a.index].value) is int]
    dts = [metas[a.index].dtype for a in operands if isinstance(a, Ref) and
           not metas[a.index].is_pyscalar and metas[a.index].dtype.kind in "iu"]
    return any(not np.iinfo(d).min <= v <= np.iinfo(d).max for v in ints for d in dts)


def _type_level(e: Exception) -> bool:
    """Errors NumPy raises from types and literals alone, which transpile can (and must) raise
    while tracing. Value-dependent errors (negative integer powers) are not."""
    text = str(e)
    return "negative integer powers" not in text


def _representable(value) -> bool:
    """Values transpile can return: arrays of supported dtypes, and Python scalars within
    int64 (a Python int beyond it has no fixed-width type)."""
    if isinstance(value, bool) or isinstance(value, float):
        return True
    if isinstance(value, int):
        return -2**63 <= value < 2**63
    arr = np.asarray(value)
    return arr.dtype in DTYPES or arr.dtype in COMPLEX_DTYPES or arr.dtype == HALF_DTYPE


def reference_values(prog: Program) -> list:
    """The NumPy value of every input and node (up to a node expected to raise)."""
    values = list(prog.inputs)
    for node in prog.nodes:
        if node.expect_raise:
            break
        values.append(evaluate(OPS[node.op], node.operands, node.params, values))
    return values


def runtime_flags(prog: Program, values) -> list:
    flags = [is_pyscalar(x) for x in prog.inputs]
    for node, v in zip(prog.nodes, values[len(prog.inputs):]):
        flags.append(is_pyscalar(v) and _runtime(
            [Meta(None, f) for f in flags], node.operands))
    return flags
