"""The schedule pass (codegen/loop_schedule.py), tested on the kernel IR: which loops run on
threads, which kernels share a parallel region, which reductions run in order or with their
rows outside, and how CUDA lays out reductions, sorts and helpers. Nothing here reads C,
except the last tests, which check that the C renderer spells the plans it is given and
renders each kernel once."""
from __future__ import annotations

import types

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.codegen.c_render import CRenderer
from transpile.codegen.cuda_render import CudaRenderer
from transpile.codegen.kernel_ir import (HelperKernel, LoopKernel, MatmulKernel, ReduceKernel,
                                         SortKernel)
from transpile.codegen.loop_schedule import CPU_LAYOUTS, CUDA_LAYOUTS, CpuTarget, CudaTarget

THRESHOLD = CpuTarget.parallel_min_elements


def _program(fun, *args):
    return tp.jit(fun).lower(*args)._prepared.program


def _plans(target, fun, *args):
    program = _program(fun, *args)
    return program, target.schedule(program)


def _only(target, kind, fun, *args):
    """The plan of the one kernel of type `kind` in the program."""
    program, plans = _plans(target, fun, *args)
    found = [plans[i] for i, k in enumerate(program.kernels) if isinstance(k, kind)]
    assert len(found) == 1, found
    return found[0]


# -- CPU: threads -------------------------------------------------------------------------------

def test_a_loop_nest_is_split_across_threads_from_the_threshold_on():
    at = _only(CpuTarget, LoopKernel, lambda x: x * 2.0 + 1.0, np.ones(THRESHOLD))
    below = _only(CpuTarget, LoopKernel, lambda x: x * 2.0 + 1.0, np.ones(THRESHOLD - 1))
    assert (at.layout, at.threads) == ("nest", "loop")
    assert (below.layout, below.threads) == ("nest", "none")


def test_libm_calls_weigh_more_than_arithmetic():
    """A float64 log over 128x512 (a scalar libm call each) is worth two threads; an add of
    that size is not."""
    x = np.ones((128, 512))
    assert _only(CpuTarget, LoopKernel, tnp.log, x).threads == "loop"
    assert _only(CpuTarget, LoopKernel, lambda v: v + 1.0, x).threads == "none"


def test_copies_wait_for_the_larger_copy_threshold():
    """A copy is bound by memory bandwidth, which threads share."""
    n = CpuTarget.copy_parallel_min_elements
    assert THRESHOLD < n
    assert _only(CpuTarget, LoopKernel, lambda x: x.T, np.ones((n // 2048, 2048))) \
        .threads == "loop"
    half = np.ones((n // 4096, 2048))
    assert _only(CpuTarget, LoopKernel, lambda x: x.T, half).threads == "none"
    assert _only(CpuTarget, LoopKernel, lambda x: x.T * 3.0, half).threads == "loop"


def test_operations_per_element_count_towards_the_threshold():
    """A stencil of eleven loads and operations an element over half the threshold's
    elements is more work than the threshold's adds; a single add over as many is not."""
    n = THRESHOLD // 2

    def stencil(x):
        return 4.0 * x[1:-1] - (x[2:] + x[:-2] + x[1:-1] * x[2:] + x[:-2] * 0.5)
    assert _only(CpuTarget, LoopKernel, stencil, np.ones(n)).threads == "loop"
    assert _only(CpuTarget, LoopKernel, lambda x: x + 1.0, np.ones(n)).threads == "none"
    assert _only(CpuTarget, LoopKernel, stencil, np.ones(THRESHOLD // 8)).threads == "none"

    def bounds(x, s):       # ten operations on the scalar s, hoisted out of the loop
        return (x >= s * 3.0 / 7.0 - 1.0) & (x < (s + 1.0) * 3.0 / 7.0 + s * s)
    assert _only(CpuTarget, LoopKernel, bounds, np.ones(n), np.float64(2.0)).threads == "none"


def test_interchanged_loops_run_lanes_of_elements():
    from transpile.codegen.kernel_ir import IteratedKernel

    def iterate(z):
        return lax.fori_loop(0, 5, lambda i, z: z * z * 0.5 + 0.25, z)
    wide = _only(CpuTarget, IteratedKernel, iterate, np.ones((3, 40)))
    narrow = _only(CpuTarget, IteratedKernel, iterate, np.ones(3))
    assert (wide.lanes, narrow.lanes) == (CpuTarget.iterated_lanes, 3)
    assert _only(CudaTarget, IteratedKernel, iterate, np.ones((3, 40))).lanes == 1


def test_loops_merge_where_every_index_is_flat():
    contiguous = _only(CpuTarget, LoopKernel, lambda x: x * 2.0, np.ones((4, 5, 6)))
    transposed = _only(CpuTarget, LoopKernel, lambda x: x.T * 2.0, np.ones((4, 5)))
    assert contiguous.groups == ((0, 1, 2),)
    assert transposed.groups == ((0,), (1,))


# -- CPU: reductions ----------------------------------------------------------------------------

def test_reduction_layouts():
    big = np.ones((1024, 1024))
    row = _only(CpuTarget, ReduceKernel, lambda x: x.sum(axis=1), big)
    column = _only(CpuTarget, ReduceKernel, lambda x: x.sum(axis=0), big.astype(np.float32))
    full = _only(CpuTarget, ReduceKernel, lambda x: x.sum(), big)
    # a float sum in a straight-line program: the lanes' order (the executor matches it)
    assert (row.layout, row.threads, row.out_loops) == ("lanes", "loop", 1)
    assert (column.layout, column.threads) == ("rows_outside", "none")    # 1024 outputs: one block
    assert (full.layout, full.threads, full.out_loops) == ("nest", "reduction", 0)
    wide = _only(CpuTarget, ReduceKernel, lambda x: x.sum(axis=0), np.ones((256, 4096)))
    assert (wide.layout, wide.threads) == ("rows_outside", "loop")       # two blocks


def test_a_contraction_over_several_axes_walks_rows_inside_its_outer_outputs():
    """A convolution's output pixel (NPBench's conv2d): a window (N, K, K, C_in) times the
    weights (K, K, C_in, C_out), summed over (K, K, C_in). The batch loop stays outside, the
    output channels (contiguous in the weights and the result) are the simd loop, and the
    window's rows and channels update them; the window is read one scalar per row, in
    order. A sum along the axis that is contiguous in an operand moving with the outputs
    keeps the outputs outside."""
    window, weights = np.ones((8, 3, 3, 4), np.float32), np.ones((3, 3, 4, 16), np.float32)

    def pixel(x, w):
        return (x[..., None] * w[None]).sum(axis=(1, 2, 3))
    plan = _only(CpuTarget, ReduceKernel, pixel, window, weights)
    assert (plan.layout, plan.out_loops, plan.threads) == ("rows_outside", 2, "none")
    assert _only(CpuTarget, ReduceKernel, lambda x: x.sum(axis=2), np.ones((3, 5, 64))) \
        .layout == "lanes"
    # Two outputs per row against 512 contiguous terms each: the reduced loop is the simd one.
    narrow = _only(CpuTarget, ReduceKernel, lambda x, w: (x[:, :, None] * w[None]).sum(axis=1),
                   np.ones((64, 512)), np.ones((512, 2)))
    assert narrow.layout == "lanes"
    rng = np.random.default_rng(3)
    x = rng.standard_normal(window.shape).astype(np.float32)
    w = rng.standard_normal(weights.shape).astype(np.float32)
    expected = np.einsum("nijc,ijco->no", x.astype(np.float64), w.astype(np.float64))
    np.testing.assert_allclose(tp.jit(pixel)(x, w), expected, rtol=2e-6, atol=1e-5)


def test_float_products_and_complex_extremes_take_their_terms_in_order():
    big = np.ones((1024, 1024))
    full = _only(CpuTarget, ReduceKernel, lambda x: tnp.prod(x), big)
    rows = _only(CpuTarget, ReduceKernel, lambda x: tnp.prod(x, axis=1), big)
    assert (full.layout, full.threads) == ("in_order", "none")
    assert (rows.layout, rows.threads) == ("in_order", "loop")     # outputs still split
    complex_max = _only(CpuTarget, ReduceKernel, lambda x: (x + 1j).max(axis=1), np.ones((4, 5)))
    assert complex_max.layout == "in_order"
    assert _only(CpuTarget, ReduceKernel, lambda x: tnp.prod(x, axis=1),
                 np.ones((4, 5), np.int64)).layout == "nest"


def test_arg_reductions_never_split_their_reduced_loop():
    assert _only(CpuTarget, ReduceKernel, lambda x: x.argmax(), np.ones(1 << 21)).threads == "none"
    assert _only(CpuTarget, ReduceKernel, lambda x: x.argmax(axis=1),
                 np.ones((1024, 1024))).threads == "loop"


def test_products_inline_below_the_small_product_size():
    small = _only(CpuTarget, MatmulKernel, lambda a: a @ a, np.ones((16, 16)))
    large = _only(CpuTarget, MatmulKernel, lambda a: a @ a, np.ones((64, 64)))
    assert (small.layout, large.layout) == ("gemm_small", "gemm")


# -- CPU: shared parallel regions ---------------------------------------------------------------

def test_consecutive_parallel_kernels_share_one_region():
    big = np.ones((1024, 1024))
    program, plans = _plans(CpuTarget, lambda x: (tnp.exp(x) * 2, tnp.sin(x) + 1), big)
    assert [p.shared_region for p in plans.values()] == [True, True]
    _, alone = _plans(CpuTarget, lambda x: tnp.exp(x) * 2, big)
    assert [p.shared_region for p in alone.values()] == [False]


def test_a_reduction_clause_or_a_serial_kernel_ends_a_shared_run():
    big = np.ones((1024, 1024))
    program, plans = _plans(CpuTarget, lambda x: (tnp.exp(x) * 2, x.sum(), tnp.sin(x) + 1), big)
    threads = [plans[c.kernel].threads for c in program.body]
    assert sorted(threads) == ["loop", "loop", "reduction"]
    assert not any(p.shared_region for p in plans.values())


def test_shared_regions_inside_loop_bodies():
    def body(i, c):
        a, b = c
        return tnp.exp(a) * 0.5 + b.T, tnp.sin(b) + a
    program, plans = _plans(CpuTarget, lambda x: lax.fori_loop(0, 3, body, (x, x * 2)),
                            np.ones((1024, 1024)))
    loop = program.body[-1]
    inside = [plans[c.kernel].shared_region for c in loop.body]
    assert inside == [True, True]


# -- CUDA ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("fun, shape, layout", [
    (lambda x: x.sum(), (1 << 16,), "full"),
    (lambda x: x.sum(axis=1), (256, 512), "warp_per_row"),
    (lambda x: x.sum(axis=1), (16, 4096), "block_per_row"),
    (lambda x: x.sum(axis=0), (256, 512), "thread_per_output"),     # strided axis
    (lambda x: x.sum(axis=1), (4096, 8), "thread_per_output"),      # short rows
    (lambda x: tnp.prod(x, axis=1), (256, 512), "thread_per_output"),   # in order
    (lambda x: x.argmax(axis=1), (256, 512), "warp_per_row"),
])
def test_cuda_reduction_layouts(fun, shape, layout):
    assert _only(CudaTarget, ReduceKernel, fun, np.ones(shape)).layout == layout


def test_cuda_items_threads_and_blocks():
    assert _only(CudaTarget, SortKernel, lambda x: tnp.sort(x, axis=1),
                 np.ones((4, 512))).layout == "block_per_item"
    assert _only(CudaTarget, SortKernel, lambda x: tnp.sort(x, axis=1),
                 np.ones((4, 16))).layout == "thread_per_item"
    assert _only(CudaTarget, HelperKernel, lambda x, i: x.at[i].add(1.0),
                 np.ones(8), np.array([1, 1])).layout == "one_thread"
    assert _only(CudaTarget, HelperKernel, tnp.linalg.inv if hasattr(tnp.linalg, "inv") else
                 tnp.linalg.cholesky, np.eye(4)).layout == "thread_per_item"
    program, plans = _plans(CudaTarget, lambda x: (tnp.exp(x) * 2, tnp.sin(x) + 1),
                            np.ones((1024, 1024)))
    assert {p.layout for p in plans.values()} == {"grid_stride"}
    assert not any(p.shared_region for p in plans.values())     # no OpenMP regions on CUDA


def test_cuda_plans_say_what_each_launch_covers():
    """The grid is the schedule's: `items` work items, each run by a `unit`."""
    plan = _only(CudaTarget, LoopKernel, lambda x: x * 2.0, np.ones((30, 40)))
    assert (plan.items, plan.unit) == ((1200,), "thread")
    plan = _only(CudaTarget, ReduceKernel, lambda x: x.sum(axis=1), np.ones((256, 512)))
    assert (plan.layout, plan.items, plan.unit) == ("warp_per_row", (256,), "warp")
    plan = _only(CudaTarget, ReduceKernel, lambda x: x.sum(), np.ones(1 << 16))
    assert (plan.layout, plan.items, plan.unit) == ("full", (1 << 16,), "thread")
    plan = _only(CudaTarget, MatmulKernel, lambda a, b: a @ b, np.ones((3, 40, 17)),
                 np.ones((3, 17, 33)))
    assert (plan.layout, plan.items, plan.unit) == ("tiles", (3, 3, 3), "tile")
    plan = _only(CudaTarget, SortKernel, lambda x: tnp.sort(x, axis=1), np.ones((4, 512)))
    assert (plan.items, plan.unit) == ((4,), "block")


def test_cuda_runs_nothing_over_zero_elements():
    program, plans = _plans(CudaTarget, lambda x: (x * 2.0, x.sum(axis=1), x.sum(axis=0)),
                            np.ones((0, 3)))
    assert [plans[i].layout for i in range(len(program.kernels))] == \
        ["none", "none", "thread_per_output"]    # an empty sum is its identity: stored
    source = tp.jit(lambda x: (x * 2.0, x.sum(axis=1)), backend="cuda").lower(
        np.ones((0, 3))).source
    assert "TP_LAUNCH" not in source and source.count("zero elements, not run") == 2


# -- the renderers spell the plans ----------------------------------------------------------------

@pytest.mark.parametrize("renderer, layouts", [(CRenderer, CPU_LAYOUTS),
                                               (CudaRenderer, CUDA_LAYOUTS)])
def test_each_dialect_spells_every_layout_of_its_target(renderer, layouts):
    tables = [renderer.element_layouts, renderer.reduction_layouts, renderer.product_layouts,
              renderer.helper_layouts, renderer.print_layouts]
    spelled = {layout for table in tables for layout in table} | {"none"}
    assert set(layouts) <= spelled, set(layouts) - spelled
    assert all(hasattr(renderer, method) for table in tables for method in table.values())


def test_the_cuda_dialect_overrides_only_spelling():
    """CUDA differs from C in attributes, its layouts' own methods, and these few methods
    (what a definition starts with, a launch, device memory, bounds read once): how a
    kernel is laid out is the schedule's, never an override of the C renderer's walk."""
    overridden = {name for name, value in vars(CudaRenderer).items()
                  if isinstance(value, (types.FunctionType, staticmethod, classmethod))
                  and hasattr(CRenderer, name) and not name.startswith("__")}
    assert overridden == {"_qualifier", "_call_lines", "_allocate_temps", "_free_temps",
                          "_loop_bounds"}


class _EverythingParallel(CpuTarget):
    parallel_min_elements = 1
    copy_parallel_min_elements = 1


class _Counting(CRenderer):
    target = _EverythingParallel

    def render_kernel(self, kernel, index):
        self.rendered = getattr(self, "rendered", []) + [index]
        return super().render_kernel(kernel, index)


def test_the_c_renderer_spells_the_schedule_and_renders_each_kernel_once():
    program = _program(lambda x: (tnp.exp(x) * 2, tnp.sin(x) + 1), np.ones((8, 8)))
    default = CRenderer()
    assert "omp parallel" not in default.render_program(program, "")
    renderer = _Counting()
    source = renderer.render_program(program, "")
    assert all(p.shared_region for p in renderer.plans.values())
    assert source.count("#pragma omp parallel  /* one region") == 1
    assert source.count("#pragma omp for simd") == 2
    assert renderer.rendered == [0, 1]


# -- scalars in registers -------------------------------------------------------------------------

def test_zero_dimensional_temporaries_live_in_registers_on_the_cpu():
    """0-d temporaries (a full reduction, a loop's index, a while flag) are C locals of the
    entry, not memory; except a carry whose pointer the loop swaps. CUDA keeps them in device
    memory."""
    def f(x):
        total = x.sum()
        y = lax.fori_loop(0, 3, lambda i, c: c * 0.5 + i, x / total)
        n = lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0 + total, total)
        return y, n
    program = _program(f, np.ones((8, 8)))
    scalars = {b.name for b in program.temps if b.shape == ()}
    registers = CpuTarget.registers(program)
    assert registers and registers <= scalars
    assert {n.rstrip("0123456789") for n in registers} >= {"sum", "flag"}
    assert not CudaTarget.registers(program)
    swapped = {b.name for st in program.body for s in getattr(st, "swaps", ())
               for b in (s.current, s.spare)}
    assert not registers & swapped


def test_kernels_read_register_scalars_by_value():
    source = tp.jit(lambda x: x / x.sum()).lower(np.ones((8, 8)))._prepared.source
    assert "double sum0 = 0.0;" in source                  # a local of the entry
    assert "const double sum0, double *restrict out0" in source      # read by value
    assert "lambda_sum0(x, &sum0);" in source and "lambda_out0(x, sum0, out0);" in source
    assert "malloc" not in source and "space" not in source
    x = np.arange(64.0).reshape(8, 8)
    np.testing.assert_allclose(np.asarray(tp.jit(lambda v: v / v.sum())(x)), x / x.sum())
