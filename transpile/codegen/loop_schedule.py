"""The schedule: how each kernel's loops map to the machine, decided on the kernel IR before
anything is spelled, one pass per target.

CPU (C + OpenMP): a loop nest runs serially with a simd innermost loop, or with its outer
loop split across threads (`parallel for`) when it has enough work; a reduction runs with its
output loops split, or its reduced loop split under a reduction clause, or strictly in order
(float products), or with its rows outside (a column reduction reads memory in order);
consecutive kernels with one parallel loop each share one parallel region. CUDA: loop
nests are grid-stride loops; a reduction is two passes over all elements, or a warp or a
block per row, or a thread per output, by how its input sits in memory; sorts and
factorizations give each item a thread or a block. Renderers read the plans and only spell.

The decisions are tested on the IR (tests/test_loop_schedule.py), not by reading C.
"""
from __future__ import annotations

import dataclasses
import math

from .. import dtypes
from .c_ops import is_scalar_call
from .kernel_ir import (Call, DebugKernel, HelperKernel, IteratedKernel, LoopKernel,
                        MatmulKernel, Program, ReduceKernel, SortKernel, children,
                        swapped_buffers, walk)
from .loop_nest import collect_affines, group_extents, merge_groups, row_major

# How a plan maps its kernel (KernelPlan.layout), per target:
CPU_LAYOUTS = {
    "nest": "a loop nest, the innermost loop simd (reductions: over the reduced loops)",
    "in_order": "a reduction taking its terms strictly in order: no simd, no threads",
    "lanes": "a float sum as a nest, the innermost reduced loop in a fixed order of simd "
             "lanes (c_reductions.SUM_LANES): in straight-line programs, which the first-call "
             "executor runs and must match",
    "rows_outside": "a column reduction: blocks of outputs, each row of the reduced axis "
                    "updating the block (a simd loop), memory read in order",
    "gemm_small": "a product inlined, specialised on its shapes (tp_gemm_small.h)",
    "gemm": "a product by the runtime library's packed GEMM",
    "helper": "a run-time helper, which parallelises itself where it can",
}
CUDA_LAYOUTS = {
    "grid_stride": "a grid-stride loop over the flattened iteration space",
    "full": "a full reduction: block partials, then one block over them",
    "warp_per_row": "a warp per output, lanes along a contiguous reduced axis",
    "block_per_row": "a block per output, threads along a long contiguous reduced axis",
    "thread_per_output": "a thread per output, in order along the reduced axes",
    "tiles": "a block per 16x16 output tile, in shared memory",
    "thread_per_item": "a thread per row or matrix, running the runtime's helper",
    "block_per_item": "a block per long row (tp_sort.h's merge path)",
    "one_thread": "one thread, in order (a scatter: duplicates make the order matter)",
    "host": "a host function (a debug print)",
    "none": "zero elements: nothing to compute, nothing launched",
}
# What runs one work item of a CUDA launch (KernelPlan.unit); a launch covers `items` of them.
CUDA_UNITS = ("thread", "warp", "block", "tile", "one")
THREADS = ("none", "loop", "reduction")


@dataclasses.dataclass(frozen=True)
class KernelPlan:
    """How one kernel runs. `groups`: the kernel's loop dimensions, merged into the loops
    the nest has (outermost first; a reduction's output loops come first, `out_loops` of
    them). `threads` (CPU): "loop" splits the outermost loop across threads, "reduction"
    splits the reduced loop under a reduction clause, "none" runs on one thread.
    `shared_region` (CPU): the parallel loop runs inside one parallel region shared with
    the kernels called next to it (one fork and join for all of them). `lanes` (CPU): an
    interchanged loop (IteratedKernel) runs this many elements of its innermost loop side
    by side, their carries in small arrays (1: one element at a time). `items` and `unit`
    (CUDA): the launch covers `items` work items (elements, rows, matrices; tiles as
    (columns, rows, matrices)), each run by a `unit` (CUDA_UNITS): the renderer spells the
    grid from them."""
    layout: str
    groups: tuple = ()
    out_loops: int = 0
    threads: str = "none"
    shared_region: bool = False
    items: tuple = ()
    unit: str = ""
    lanes: int = 1

    def __post_init__(self):
        assert self.layout in CPU_LAYOUTS or self.layout in CUDA_LAYOUTS, self.layout
        assert self.threads in THREADS, self.threads
        assert self.unit in CUDA_UNITS or not self.unit, self.unit


def _frozen(groups) -> tuple:
    return tuple(tuple(g) for g in groups)


def loop_nest(kernel) -> tuple[tuple, int]:
    """(merged loop groups, how many of them are output loops) of a loop or reduce kernel."""
    if isinstance(kernel, LoopKernel):
        affines = collect_affines(kernel.value, [kernel.store])
        return _frozen(merge_groups(kernel.shape, affines, 0, len(kernel.shape))), 0
    if isinstance(kernel, IteratedKernel):
        n = len(kernel.shape)
        affines = [row_major(kernel.shape, n) for _ in kernel.carries]
        for _, init, update, _ in kernel.carries:
            collect_affines(init, affines)
            collect_affines(update, affines)
        return _frozen(merge_groups(kernel.shape, affines, 0, n)), 0
    n_out, n_red = len(kernel.out_shape), len(kernel.reduce_shape)
    extents = kernel.out_shape + kernel.reduce_shape
    affines = collect_affines(kernel.body, [row_major(kernel.out_shape, n_out + n_red)])
    outer = merge_groups(extents, affines, 0, n_out)
    return _frozen(outer + merge_groups(extents, affines, n_out, n_out + n_red)), len(outer)


def _extents(kernel, groups) -> list[int]:
    shape = kernel.shape if isinstance(kernel, (LoopKernel, IteratedKernel)) else \
        kernel.out_shape + kernel.reduce_shape
    return group_extents(shape, groups)


# -- CPU --------------------------------------------------------------------------------------

class CpuTarget:
    """The CPU schedule's thresholds (measured: benchmarks/bench_parallel.py, README
    "Threads"), and the pass itself (`schedule`)."""
    # Below this many loop iterations a kernel runs serially: on the loaded 2-core machine a
    # parallel region only paid off from about 2^19 elements; below, waking the other thread
    # cost more than it saved.
    parallel_min_elements = 1 << 19
    # A copy or fill is bound by memory bandwidth, which the cores share: copying 2^20
    # doubles took 0.28-0.31 ms on one thread and 0.40-0.59 ms on two, under load.
    copy_parallel_min_elements = 1 << 22
    # An element that calls libm (tanh, log, sin in float64, ...) counts as this many: a
    # scalar call takes 15-25 ns against well under 1 ns for a vectorised add, so a float64
    # tanh over 128x512 (1.3 ms on one thread) is worth two threads.
    scalar_call_weight = 32
    # Operations an element of the thresholds' measurements took, and what counts as one.
    element_operations = 4
    counted_kinds = ("load", "op", "select", "cast")
    # An interchanged loop does a whole fori_loop per element: parallel from fewer elements.
    iterated_parallel_min_elements = 1 << 9
    # ... and runs this many elements side by side, so that one element's chain of
    # dependent operations per iteration overlaps the others' (mandelbrot1, 125x125 points
    # of 60 iterations, one thread: 40 ms one at a time; 8 lanes 4-10 ms, 4 or 16 slower).
    iterated_lanes = 8
    # Outputs per block of a column reduction: whole rows of up to 16 KiB of doubles stream
    # best (2000^2 f64 column sum, one thread: 1.6 ms; blocks of 256: 3.1 ms; NumPy 1.8 ms).
    column_block = 2048
    # Products with fewer multiply-adds than this (batch included) stay inlined in the module
    # (tp_gemm_small.h's TP_GEMM_SMALL_MAX): specialised on their constant shapes they run
    # faster in a hot loop than the library's general kernel, and build in milliseconds.
    small_product_max = 32 * 32 * 32
    # Consecutive parallel kernels share one parallel region (False: each opens its own).
    shared_regions = True

    @classmethod
    def schedule(cls, program: Program) -> dict[int, KernelPlan]:
        plans = {i: cls.plan(k) for i, k in enumerate(program.kernels)}
        if all(type(statement) is Call for statement in program.body):
            for i, kernel in enumerate(program.kernels):
                if _lane_ordered(kernel, plans[i]):
                    plans[i] = dataclasses.replace(plans[i], layout="lanes")
        if cls.shared_regions:
            for i in shared_region_runs(program.body, plans):
                plans[i] = dataclasses.replace(plans[i], shared_region=True)
        return plans

    @classmethod
    def registers(cls, program: Program) -> frozenset[str]:
        """The 0-d temporaries that live in registers: C locals of the entry function, which
        kernels reading them take by value (a write takes the local's address), instead of
        one-element blocks of memory. Not those whose pointers a loop swaps."""
        swapped = swapped_buffers(program.body)
        return frozenset(b.name for b in program.temps
                         if b.shape == () and b.name not in swapped)

    @classmethod
    def plan(cls, kernel) -> KernelPlan:
        if isinstance(kernel, LoopKernel):
            groups, _ = loop_nest(kernel)
            copy = kernel.value.kind in ("load", "lit")
            big = cls.work(kernel.shape, kernel.value) >= (
                cls.copy_parallel_min_elements if copy else cls.parallel_min_elements)
            return KernelPlan("nest", groups, 0, _split(big, _extents(kernel, groups)))
        if isinstance(kernel, IteratedKernel):
            groups, _ = loop_nest(kernel)
            big = math.prod(kernel.shape) >= cls.iterated_parallel_min_elements
            extents = _extents(kernel, groups)
            lanes = min(cls.iterated_lanes, extents[-1]) if extents else 1
            return KernelPlan("nest", groups, 0, _split(big, extents), lanes=max(lanes, 1))
        if isinstance(kernel, ReduceKernel):
            return cls._reduction(kernel)
        if isinstance(kernel, MatmulKernel):
            small = kernel.batch * kernel.m * kernel.n * kernel.k < cls.small_product_max
            return KernelPlan("gemm_small" if small else "gemm")
        if isinstance(kernel, (SortKernel, HelperKernel, DebugKernel)):
            return KernelPlan("helper")
        raise NotImplementedError(type(kernel).__name__)

    @classmethod
    def work(cls, shape, expr) -> int:
        """Elements of a loop nest over `shape` computing `expr`, weighed by what each one
        costs (the parallel thresholds compare against this): a libm call counts as
        scalar_call_weight elements, and each operation or load past the
        element_operations that the thresholds were measured with (a binary op: two loads,
        the op, a store) as a further 1/element_operations. Counting elements alone left
        NPBench's hdiff on one thread: 250k elements of a ten-operation stencil each, 4x
        the work of the 2^19 adds the threshold stands for (XLA splits its fusion in two).
        Operations on loop-invariant values (a bound computed from scalars) do not count:
        the compiler hoists them out of the loop (azimint_naive's ring mask, in a loop of
        1000 rings, stays serial: a parallel region per ring ran it at half speed under
        load)."""
        varying = _varying_nodes(expr)
        nodes = [e for e in walk(expr) if e.kind in cls.counted_kinds and id(e) in varying]
        calls = sum(1 for e in nodes
                    if e.kind == "op" and is_scalar_call(e.args[0], (*e.args[2], e.dtype)[0]))
        extra = max(0, len(nodes) - calls - cls.element_operations)
        per_element = cls.element_operations * (1 + cls.scalar_call_weight * calls) + extra
        return math.prod(shape) * per_element // cls.element_operations

    @classmethod
    def _reduction(cls, k: ReduceKernel) -> KernelPlan:
        groups, n_out = loop_nest(k)
        extents = _extents(k, groups)
        if walks_rows(k, groups, n_out):
            big = cls.work(k.out_shape + k.reduce_shape, k.body) >= cls.parallel_min_elements
            # One output loop: its blocks are what threads split; more: the outermost loop.
            split = extents[n_out - 1] > cls.column_block if n_out == 1 else extents[0] > 1
            return KernelPlan("rows_outside", groups, n_out, "loop" if big and split else "none")
        big = cls.work(k.out_shape + k.reduce_shape, k.body) >= cls.parallel_min_elements
        outputs = math.prod(k.out_shape)
        layout = "in_order" if in_order(k) else "nest"
        if outputs > 1:
            threads = _split(big, extents[:n_out])
        elif layout == "nest" and k.combiner not in ("argmax", "argmin"):
            threads = "reduction" if _split(big, extents[n_out:]) == "loop" else "none"
        else:
            threads = "none"
        return KernelPlan(layout, groups, n_out, threads)


def _lane_ordered(kernel, plan: KernelPlan) -> bool:
    """Does this kernel's float sum take the lane order ("lanes") in a straight-line program?
    Not where threads split the reduced loop (their partial sums meet in the runtime's order),
    and not in programs with loops: the executor never runs those, and in loops (trisolv's
    row dot products, azimint_naive's 1000 masked sums) the lanes' scalar tail and block loop
    ran 1.6-4x slower than the vectoriser's own order."""
    return isinstance(kernel, ReduceKernel) and plan.layout == "nest" and \
        plan.threads != "reduction" and kernel.combiner == "sum" and \
        dtypes.is_float(kernel.body.dtype) and not dtypes.is_complex(kernel.body.dtype)


def _varying_nodes(expr) -> set[int]:
    """ids of the nodes of `expr` whose value changes from one loop iteration to the next:
    loads at positions that move, loop indices, interchanged loops' carries, and what
    is computed from them. Post-order on an explicit stack (expressions are deep DAGs)."""
    varying, done, stack = set(), set(), [(expr, False)]
    while stack:
        e, ready = stack.pop()
        if id(e) in done:
            continue
        kids = children(e)
        if not ready:
            stack.append((e, True))
            stack.extend((c, False) for c in kids if id(c) not in done)
            continue
        done.add(id(e))
        moves = e.kind in ("index", "var") or (e.kind == "load" and any(e.args[1].coeffs))
        if moves or any(id(c) in varying for c in kids):
            varying.add(id(e))
    return varying


def _split(big: bool, extents) -> str:
    """Threads for a nest whose outermost loop has these extents: split if there is work
    enough and more than one iteration to split."""
    return "loop" if big and extents and extents[0] > 1 else "none"


def in_order(k: ReduceKernel) -> bool:
    """Must this reduction take its terms strictly in order (no simd lanes, no threads)?

    A float product: NumPy multiplies in order, and a reassociated product is not a few ulp
    off but arbitrarily far where partial products pass through subnormals or overflow
    (1e-300 * 1e-300 * 1e300 * 1e300). Complex max/min: of NaNs, or of equal values with
    different bits (signed zeros), the first is NumPy's answer. Sums are reassociated: their
    error is bounded by the terms' magnitudes, and NumPy's own order is pairwise, not serial."""
    dt = k.body.dtype
    return (k.combiner == "prod" and dtypes.is_inexact(dt)) or \
        (k.combiner in ("max", "min") and dtypes.is_complex(dt))


def walks_rows(k: ReduceKernel, groups, n_out_loops) -> bool:
    """Should this reduction run with the reduced loops outside its innermost output loop?

    Yes when the innermost output loop walks contiguous outputs in memory (some load steps
    by one along it), no load that depends on it steps by one along the innermost reduced
    loop, and there is a real accumulator (the output buffer accumulates, or a block of
    accumulators of their own type where that differs: float32 sums in double). Walking
    rows then reads memory in order instead of one cache line per element (a float32 bias
    gradient, the sum of a 128x512 batch over its rows: 0.14-0.27 ms by columns), and a
    contraction over several axes (a convolution's window times its weights, summed over
    the window and the input channels) becomes a simd loop over output channels that
    updates a block of accumulators, where the output-outside layout reduced each output
    by itself and paid a horizontal sum per output. Outer output loops stay outside."""
    if n_out_loops < 1 or len(groups) == n_out_loops or k.combiner in ("argmax", "argmin"):
        return False
    if k.combiner in ("max", "min") and dtypes.is_float(k.body.dtype):
        return False     # the sign of a zero result has its own pass (c_render)
    if dtypes.is_complex(k.body.dtype) or dtypes.is_complex(k.out.dtype):
        return False
    out_var, red_var = groups[n_out_loops - 1][-1], groups[-1][-1]
    loads = [a for a in collect_affines(k.body, []) if any(a.coeffs)]
    # A load that does not move with the outputs is one scalar per row, read in order.
    if not any(a.coeffs[out_var] == 1 for a in loads) or \
            any(a.coeffs[red_var] == 1 and a.coeffs[out_var] != 0 for a in loads):
        return False
    if any(a.coeffs[red_var] == 1 for a in loads):
        # The output-outside layout would run a contiguous simd loop over the reduced
        # axis: walking rows must give the simd loop over the outputs as many lanes.
        extents = _extents(k, groups)
        return extents[n_out_loops - 1] >= min(extents[-1], ROW_WALK_MIN_LANES)
    return True


# Lanes of a simd loop over outputs that match a simd loop along a contiguous reduced axis:
# 8 float32 sums in double, one AVX-512 register (a convolution's 8 output channels against
# its 32 input channels: 450 -> 46 us by rows; a product with 2 outputs per row against a
# 512-long contiguous row keeps its outputs outside).
ROW_WALK_MIN_LANES = 8


def shared_region_runs(stmts, plans) -> set[int]:
    """Kernels in runs of two or more consecutive calls whose kernels each have exactly one
    parallel loop (and no reduction clause): every statement such a kernel runs is inside
    that loop, so the run can share one parallel region, each loop an orphaned `omp for`."""
    shared, run = set(), []
    for st in list(stmts) + [None]:
        if isinstance(st, Call) and plans[st.kernel].threads == "loop":
            run.append(st.kernel)
            continue
        if len(run) > 1:
            shared.update(run)
        run = []
        for nested in (getattr(st, "body", None), getattr(st, "cond", None)):
            shared |= shared_region_runs(nested, plans) if nested else set()
        for case in getattr(st, "cases", ()):
            shared |= shared_region_runs(case, plans)
    return shared


# -- CUDA -------------------------------------------------------------------------------------

class CudaTarget:
    warp_row_max = 1024      # rows up to this long get one warp each, longer ones a block
    block_sort_min = 256     # rows at least this long are sorted by a block each
    tile = 16                # a matmul block's output tile is tile x tile (tp_cuda.h's TP_TILE)
    # Run-time helpers written for the host only (OpenMP, plans allocated and cached with
    # malloc), with no device form yet: what uses them.
    host_only_helpers = {"fft_c2c": "jnp.fft", "fft_r2c": "jnp.fft", "fft_c2r": "jnp.fft",
                         "conv": "lax.conv_general_dilated"}

    @classmethod
    def schedule(cls, program: Program) -> dict[int, KernelPlan]:
        return {i: cls.plan(k) for i, k in enumerate(program.kernels)}

    @classmethod
    def registers(cls, program: Program) -> frozenset[str]:
        """None: the host entry cannot hand a kernel a host local (scalars stay in device
        memory, which the entry reads back where it needs them)."""
        return frozenset()

    @classmethod
    def plan(cls, kernel) -> KernelPlan:
        if isinstance(kernel, (LoopKernel, IteratedKernel)):
            groups, elements = loop_nest(kernel)[0], math.prod(kernel.shape)
            if elements == 0:
                return KernelPlan("none", groups)
            return KernelPlan("grid_stride", groups, items=(elements,), unit="thread")
        if isinstance(kernel, ReduceKernel):
            return cls._reduction(kernel)
        if isinstance(kernel, MatmulKernel):
            tiles = (-(-kernel.n // cls.tile), -(-kernel.m // cls.tile), kernel.batch)
            return KernelPlan("tiles", items=tiles, unit="tile")
        if isinstance(kernel, SortKernel):
            block = kernel.n >= cls.block_sort_min
            return KernelPlan("block_per_item" if block else "thread_per_item",
                              items=(kernel.rows,), unit="block" if block else "thread")
        if isinstance(kernel, HelperKernel):
            if kernel.operation in cls.host_only_helpers:
                raise NotImplementedError(
                    f"{cls.host_only_helpers[kernel.operation]} has no CUDA kernel yet (its "
                    f"run-time helper, {kernel.operation}, is host code); use backend='cpu'")
            if kernel.items is None:
                return KernelPlan("one_thread", items=(1,), unit="one")
            return KernelPlan("thread_per_item", items=(kernel.items,), unit="thread")
        if isinstance(kernel, DebugKernel):
            return KernelPlan("host")
        raise NotImplementedError(type(kernel).__name__)

    # What runs one output of each reduction layout (a full reduction: one element).
    _REDUCTION_UNITS = {"full": "thread", "warp_per_row": "warp", "block_per_row": "block",
                        "thread_per_output": "thread"}

    @classmethod
    def _reduction(cls, k: ReduceKernel) -> KernelPlan:
        groups, n_out = loop_nest(k)
        outputs = math.prod(k.out_shape)
        if outputs == 0:
            return KernelPlan("none", groups, n_out)
        layout = cls.reduction_layout(k, groups, n_out)
        items = math.prod(k.reduce_shape) if layout == "full" else outputs
        return KernelPlan(layout, groups, n_out, items=(items,),
                          unit=cls._REDUCTION_UNITS[layout])

    @classmethod
    def reduction_layout(cls, k: ReduceKernel, groups, n_out) -> str:
        """By how the reduced elements sit in memory. Never float atomics: the same answer on
        every run; NumPy multiplies floats in order, so a float product is a thread each."""
        if k.combiner == "prod" and dtypes.is_inexact(k.body.dtype):
            return "thread_per_output"
        length = math.prod(k.reduce_shape)
        if math.prod(k.out_shape) == 1:
            return "full"
        if length < 32 or len(groups) == n_out:
            return "thread_per_output"
        innermost = groups[-1][-1]
        loads = [e.args[1] for e in walk(k.body) if e.kind == "load"]
        if any(a.coeffs and abs(a.coeffs[innermost]) == 1 for a in loads):
            return "warp_per_row" if length <= cls.warp_row_max else "block_per_row"
        return "thread_per_output"
