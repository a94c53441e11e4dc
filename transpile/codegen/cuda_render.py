"""Render a Program as CUDA C: the C renderer's expressions, CUDA's thread mapping.

What differs from C + OpenMP, and nothing else, lives here:
- every loop nest is a grid-stride loop over its flattened iteration space, the loop
  variables recovered by division (so any shape runs on any grid);
- reductions are laid out by how their input sits in memory: a full reduction runs in two
  passes (block partials by warp shuffles and one shared slot per warp, then one block),
  a reduction over a contiguous axis gives each row a warp (short rows) or a block, and one
  over a strided axis gives each output a thread. Never float atomics: same answer each run.
  Where NumPy's in-order answer depends on the order, float and complex max/min combine
  (value, position) pairs and float products run a thread per output, in order;
- matmul launches the tiled shared-memory kernel from tp_cuda.h, looping over the tiles and
  matrices past CUDA's 65535 blocks along grid y and z, and honouring loop_ranges.py's
  row and depth limits as the C renderer does;
- sorts and factorizations (eigh and svd too) give each row or matrix a thread running the
  runtime's own helpers (tp_sort.h, tp_linalg.h, tp_spectral.h: device functions under this
  prelude); a scatter runs on one thread, in order; a debug print is a host function copying
  its values to the host;
- the entry function runs on the host: it allocates temporaries with stream-ordered
  cudaMallocAsync, launches the kernels, and runs control flow as host loops that read
  loop bounds (once per loop), `while` flags and `cond` indices back from the device.
Scalar expressions, casts and op rules are the C renderer's (transpile.h's helpers are
device functions too), so both backends share one semantics.

Every decision above is the schedule's (loop_schedule.CudaTarget: the layout of each kernel,
the work items its launch covers and what runs one of them); this module only spells the
layouts, the launches and the host entry's memory in CUDA.
"""
from __future__ import annotations

import contextlib
import math

from .. import dtypes
from .c_comment import c_comment
from .c_expr import INDENT, Lines, LoopSpace, _short_source, counter
from .c_ops import C_TYPE, unsigned_work_type
from .c_reductions import accumulator_result, accumulator_type, reduction_init, reduction_update
from .c_render import CRenderer
from .kernel_ir import MatmulKernel, ReduceKernel
from .loop_nest import collect_affines
from .loop_schedule import CudaTarget

# A launch's grid for `items` work items, by what runs one item (KernelPlan.unit), and the
# threads of each block.
_GRID = {"thread": "tp_blocks({items}, TP_THREADS)", "warp": "tp_blocks({items}, TP_WARPS)",
         "block": "tp_blocks({items}, 1)", "one": "1",
         "tile": "dim3(tp_grid_dim({items[0]}, INT32_MAX), tp_grid_dim({items[1]}, "
                 "TP_GRID_YZ_MAX), tp_grid_dim({items[2]}, TP_GRID_YZ_MAX))"}
_BLOCK = {"thread": "TP_THREADS", "warp": "TP_THREADS", "block": "TP_THREADS", "one": "1",
          "tile": "dim3(TP_TILE, TP_TILE)"}
_BOUNDS = {"tile": "TP_TILE * TP_TILE", "one": "1"}       # __launch_bounds__; else TP_THREADS


class CudaRenderer(CRenderer):
    kernel_qualifier = "__global__ void __launch_bounds__({threads})"
    shares_kernels = False      # kernels are launched, not called: each keeps its own
    long_entry_attribute = ""   # nvcc's host compiler is left its defaults
    entry_qualifier = 'extern "C" '
    restrict = "__restrict__"
    target = CudaTarget
    runtime_header = "tp_cuda.h"
    # nvcc's optimiser (cicc) slows down more than linearly with a kernel's length: an
    # unrolled 200-step chain of sin, as one kernel, took 9.8 s of CPU to compile and a
    # 400-step one 38 s. Kernels of at most this many operations in a row keep it linear.
    max_fused_height = 96
    # The sort, factorization and scatter helpers run on the device (a thread or a block per
    # item) and GEMM is tp_cuda.h's tiled template: device code, compiled into the module
    # (calling device code in another library would need relocatable device code and a device
    # link step per module, dearer than what it saves). The host side has no heavy helper.
    uses_runtime_library = False
    kept_workspace_max_bytes = 0          # temporaries are cudaMalloc'd (_allocate_temps)
    # The entry runs on the host: a scalar is a synchronising copy from or to the device.
    read_element = "tp_read({name}, &status)"
    write_element = "tp_write({name}, {value}, &status);"
    initialised_declarations = False
    entry_returns = ("Runs on the host and returns 0, or the cudaError_t of the first failed "
                     "call (kernels run asynchronously: their faults show at the next sync).")
    element_layouts = {"grid_stride": "_grid_stride_elements"}
    reduction_layouts = {layout: "_reduction" for layout in
                         ("full", "warp_per_row", "block_per_row", "thread_per_output")}
    product_layouts = {"tiles": "_tiled_product"}
    helper_layouts = {"one_thread": "_one_thread_call", "thread_per_item": "_item_calls",
                      "block_per_item": "_item_calls"}
    print_layouts = {"host": "_host_print"}

    # -- definitions and launches ---------------------------------------------------------------
    def _qualifier(self, index: int) -> str:
        if self.plans[index].layout == "host":
            return "static int"               # a host function returning a cudaError_t
        return self.kernel_qualifier.format(threads=_BOUNDS.get(self.plans[index].unit,
                                                                "TP_THREADS"))

    def _call_lines(self, index: int, args: list[str]) -> list[str]:
        plan, name = self.plans[index], self.kernel_names[index]
        if plan.layout == "host":
            return [f"if ((status = {name}({', '.join(args)})) != 0) goto cleanup;"]
        grid = _GRID[plan.unit].format(items=plan.items if plan.unit == "tile"
                                       else plan.items[0])
        if plan.layout != "full":
            return _launch(name, grid, _BLOCK[plan.unit], args)
        # Two passes: a partial per block into the scratch, then one block over the partials.
        partials = f"{name}_partials"
        return [*_launch(name, grid, "TP_THREADS", args[:-1] + [partials]),
                *_launch(f"{name}_final", "1", "TP_THREADS",
                         [partials, f"(int64_t){grid}", args[-1]])]

    # -- layouts: elements ----------------------------------------------------------------------
    @contextlib.contextmanager
    def _grid_stride_elements(self, lines: Lines, space: LoopSpace, affines, simd: bool):
        """Layout "grid_stride": a thread per element of the flattened iteration space, the
        loop variables recovered by division (so any shape runs on any grid)."""
        with _grid_stride(lines, "flat", self._plan.items[0]):
            _decompose(lines, space, 0, len(space.names), "flat", _used_loops(space, affines))
            yield

    # -- layouts: reductions --------------------------------------------------------------------
    def _reduction(self, k: ReduceKernel, index: int, space, store) -> str:
        """Layouts "full", "warp_per_row", "block_per_row" and "thread_per_output"."""
        red = _Reduction(self, k, index, space, self._plan.out_loops, store,
                         collect_affines(k.body, [store]))
        return getattr(red, self._plan.layout)()

    # -- layouts: products ------------------------------------------------------------------------
    def _tiled_product(self, k: MatmulKernel, index: int) -> str:
        """Layout "tiles": a block per 16x16 output tile, grid z along the batch; operands
        read in place by strides. Grid y and z stop at TP_GRID_YZ_MAX (CUDA's 65535): blocks
        loop over the tiles and matrices beyond it, so any batch and any row count runs."""
        t = C_TYPE[k.out.dtype]
        w = t if k.out.dtype.kind in "fc" else unsigned_work_type(k.out.dtype)
        reads = list({o.buffer.name: o.buffer for o in (k.lhs, k.rhs)}.values())
        limit_reads = [k.limits.index] if k.limits is not None else []
        self._kernel_args[index] = reads + limit_reads + [k.out]
        tiles_n, tiles_m, _ = self._plan.items
        params = [f"const {t} *{b.name}" for b in reads]
        params += [f"const {C_TYPE[b.dtype]} *{b.name}" for b in limit_reads]
        params.append(f"{t} *{self.restrict} {k.out.name}")
        lines = Lines()
        lines.add(f"/* {k.comment}: {k.batch} x ([{k.m}x{k.k}] @ [{k.k}x{k.n}]), lhs strides "
                  f"{k.lhs.strides}, rhs strides {k.rhs.strides}; tiles of 16x16 */")
        lines.add(self._definition(index, params))
        lines.depth += 1
        first, rows, depth = _tile_limits(lines, k)
        if rows != str(k.m):
            tiles_m = f"({rows} + TP_TILE - 1) / TP_TILE"
        # Loop bounds depend on the block only: every thread reaches the tile's barriers.
        loops = [("matrix", k.batch, "z"), ("tile_row", tiles_m, "y"), ("tile_col", tiles_n, "x")]
        for var, count, axis in loops:
            lines.add(f"for (int64_t {var} = blockIdx.{axis}; {var} < {count}; "
                      f"{var} += gridDim.{axis}) {{")
            lines.depth += 1
        pointers = [_tile_operand(operand, k, first if operand is k.lhs else None)
                    for operand in (k.lhs, k.rhs)]
        out = f"{k.out.name} + matrix * {k.m * k.n}" + (f" + {first} * {k.n}" if first else "")
        lines.add(f"tp_matmul_tile<{t}, {w}>({pointers[0]}, {pointers[1]}, {out}, {rows}, "
                  f"{depth}, {k.n}, tile_row, tile_col);")
        for _ in loops:
            lines.depth -= 1
            lines.add("}")
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    # -- layouts: run-time helpers (sorts, factorizations, scatters) and debug prints -------------
    @staticmethod
    def _one_thread_call(function, args, items) -> list[str]:
        """Layout "one_thread": a serial helper (a scatter, whose duplicates make the order
        matter) on a single thread. No atomics: the CPU's answer, every run."""
        return [f"{INDENT}{function}({', '.join(args)});  /* one thread: in order */"]

    def _item_calls(self, function, args, items) -> list[str]:
        """Layouts "thread_per_item" and "block_per_item": each item (a row to sort, a matrix
        to factor) runs the helper the C backend runs, on a thread, or on a block where the
        helper has a block form."""
        lines = Lines()
        lines.depth = 1
        joined = ", ".join(args)
        if self._plan.unit == "block":
            with _grid_stride(lines, "item", items, "(int64_t)blockIdx.x", "(int64_t)gridDim.x"):
                lines.add(f"{function}_block({joined}, item);  /* a block per item */")
        else:
            with _grid_stride(lines, "item", items):
                lines.add(f"{function}_item({joined}, item);")
        return lines.lines

    def _host_print(self, k, index: int) -> str:
        """Layout "host": a host function; each value copied to host memory (the copy waits
        for the kernels before it), handed to the Python hook, freed. Returns a cudaError_t."""
        copies = ", ".join(
            "(void *)0" if b is None else
            f"tp_host_copy({b.name}, sizeof({C_TYPE[b.dtype]}) * {b.size}, &status)"
            for b in k.values) or "(void *)0"
        return "\n".join([
            c_comment(k.comment),
            self._definition(index, self._debug_params(k, index)),
            "    if (!tp_debug_hook) return 0;",
            "    int status = 0;",
            f"    void *values[] = {{{copies}}};",
            f"    if (status == 0) tp_debug_hook({k.effect}, values);",
            "    for (void *value : values) free(value);",
            "    return status;",
            "}", ""])

    # -- the host entry: device memory, and bounds read once ------------------------------------
    def _allocate_temps(self, lines: Lines, temps) -> str:
        lines.add("int status = 0;")
        allocations = [(b.name, C_TYPE[b.dtype], max(b.size, 1)) for b in temps]
        allocations += self._scratch
        for name, t, _ in allocations:
            lines.add(f"{t} *{name} = NULL;")
        for name, t, count in allocations:
            lines.add(f"if (status == 0) status = (int)cudaMallocAsync((void **)&{name}, "
                      f"sizeof({t}) * {count}, 0);")
        lines.add("if (status != 0) goto cleanup;")
        return "status"

    def _free_temps(self, temps) -> list[str]:
        names = [b.name for b in temps] + [name for name, *_ in self._scratch]
        return [f"if ({name}) cudaFreeAsync({name}, 0);" for name in names]

    def _loop_bounds(self, lines: Lines, loop) -> tuple[str, str]:
        """Bounds held on the device are read once, before the loop: a read is a
        synchronising copy, which in the `for` condition would stall every iteration."""
        bounds = []
        for name, scalar in (("first", loop.lower), ("end", loop.upper)):
            host = self._entry_scalar(scalar)
            if scalar.buffer is None:          # a literal: nothing to read
                bounds.append(host)
                continue
            bound, t = f"{loop.var}_{name}", "int64_t"    # as the loop variable
            # Declared, then assigned: C++ forbids a `goto cleanup` past an initialization.
            lines.add(f"{t} {bound};")
            lines.add(f"{bound} = ({t}){host};")
            bounds.append(bound)
        if loop.lower.buffer is not None or loop.upper.buffer is not None:
            lines.add("if (status != 0) goto cleanup;")
        return bounds[0], bounds[1]


# -- spelling pieces ----------------------------------------------------------------------------

def _grid_stride(lines: Lines, var: str, count, first="(int64_t)blockIdx.x * blockDim.x "
                 "+ threadIdx.x", step="(int64_t)gridDim.x * blockDim.x"):
    return lines.block(f"for (int64_t {var} = {first}; {var} < {count}; {var} += {step})")


def _decompose(lines: Lines, space: LoopSpace, start: int, stop: int, flat: str, used):
    """Declare loop variables start..stop-1 (those some index uses) from a flat index."""
    for k in range(start, stop):
        if k not in used:
            continue
        stride = math.prod(space.extents[k + 1:stop])
        value = flat if stride == 1 else f"{flat} / {stride}"
        if k > start:
            value = f"({value}) % {space.extents[k]}" if stride > 1 else \
                f"{value} % {space.extents[k]}"
        lines.add(f"const int64_t {space.names[k]} = {value};")


def _used_loops(space: LoopSpace, affines) -> set:
    return {k for k, g in enumerate(space.groups)
            if any(a.coeffs and a.coeffs[g[-1]] for a in affines)}


def _launch(name: str, grid: str, block: str, args) -> list[str]:
    """A kernel launch and the check of its status after it (a bad launch configuration
    shows at once; a fault in the kernel, at the next synchronising call)."""
    return [f"TP_LAUNCH({name}, {grid}, {block}, {', '.join(args)});",
            "if ((status = tp_launched(status)) != 0) goto cleanup;"]


def _tile_operand(operand, k: MatmulKernel, first) -> str:
    """A matmul operand as tp_matmul_tile takes it: the address of this block's matrix (the
    batch index `matrix` unravelled over the batch strides), then its row and column
    strides. `first`: the first row computed, where a loop index bounds the rows."""
    terms = [operand.buffer.name] + ([str(operand.offset)] if operand.offset else [])
    if first:
        terms.append(f"{first} * {operand.strides[-2]}")
    stride = 1
    for d in range(len(k.batch_shape) - 1, -1, -1):
        size, step = k.batch_shape[d], operand.strides[d]
        if step and size > 1:
            index_d = "matrix" if stride == 1 else f"(matrix / {stride})"
            terms.append(f"({index_d} % {size}) * {step}")
        stride *= size
    return f"{' + '.join(terms)}, {operand.strides[-2]}, {operand.strides[-1]}"


def _tile_limits(lines: Lines, k: MatmulKernel):
    """(first row, rows, depth) of a product bounded by a loop index (loop_ranges.py), as
    the C renderer's: the index read on the device, the rows above it zeroed by every
    thread of the grid (no barrier in between), the contraction stopped where both
    operands are zero. (None, m, k) for an unbounded product."""
    lim = k.limits
    if lim is None:
        return None, str(k.m), str(k.k)
    lines.add(f"const int64_t at = (int64_t){lim.index.name}[0];")
    first, rows, depth = None, str(k.m), str(k.k)
    if lim.short_k:
        lines.add("/* the operands are zero from the loop index on along k: the rest of "
                  "the sum adds exact zeros */")
        lines.add(f"const int64_t depth = at < 0 ? 0 : (at < {k.k} ? at : {k.k});")
        depth = "depth"
    if lim.rows_from_index:
        lines.add("/* rows above the loop index are never read: zeros, not products */")
        lines.add(f"const int64_t first = at < 0 ? 0 : (at < {k.m} ? at : {k.m});")
        thread = ("(((int64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + "
                  "blockIdx.x) * (TP_TILE * TP_TILE) + threadIdx.y * TP_TILE + threadIdx.x")
        step = "(int64_t)gridDim.x * gridDim.y * gridDim.z * (TP_TILE * TP_TILE)"
        with lines.block(f"for (int64_t i = {thread}; i < first * {k.n}; i += {step})"):
            lines.add(f"{k.out.name}[i] = {C_TYPE[k.out.dtype]}();")
        first, rows = "first", f"{k.m} - first"
    return first, rows, depth


class _Reduction:
    """One ReduceKernel rendered in the layout its memory access calls for."""

    def __init__(self, renderer: CudaRenderer, k: ReduceKernel, index, space, n_out_loops,
                 store, affines):
        self.r, self.k, self.index, self.space = renderer, k, index, space
        self.n_out, self.store, self.affines = n_out_loops, store, affines
        self.rows, self.length = math.prod(k.out_shape), math.prod(k.reduce_shape)
        self.used = _used_loops(space, affines)
        self.name = renderer.kernel_names[index]
        dt = k.body.dtype
        self.arg = k.combiner in ("argmax", "argmin")
        # Float and complex max/min carry their element's position too: of equal values
        # that differ (signed zeros) or of NaNs, NumPy's in-order answer is a particular one.
        self.paired = self.arg or (k.combiner in ("max", "min") and dtypes.is_inexact(dt))
        self.value_t = C_TYPE[dt]
        if self.paired:
            self.acc_t = f"TpArg<{self.value_t}>"
            value = f"{self.value_t}()" if self.arg else reduction_init(k.combiner, dt)
            self.identity = f"{self.acc_t}{{{value}, -1}}"   # index -1: no element yet
        else:
            self.acc_t = accumulator_type(k.combiner, dt)
            self.identity = f"({self.acc_t})({reduction_init(k.combiner, dt)})"

    # -- pieces ---------------------------------------------------------------------------------
    def _open(self, lines: Lines, name: str, params: list[str], comment: str):
        lines.add(f"/* {self.k.comment}; {comment} */")
        lines.add(f"{self.r._qualifier(self.index)} {name}({', '.join(params)}) {{")
        lines.depth += 1
        if self.paired:
            better = "true" if self.k.combiner in ("argmax", "max") else "false"
            last = "true" if not self.arg and dtypes.is_float(self.k.body.dtype) else "false"
            lines.add(f"[[maybe_unused]] auto combine = []({self.acc_t} a, {self.acc_t} b) {{ "
                      f"return tp_arg_combine<{better}, {last}>(a, b); }};")
        else:
            update = reduction_update(self.k.combiner, self.k.body.dtype, "a", "b")
            lines.add(f"[[maybe_unused]] auto combine = []({self.acc_t} a, {self.acc_t} b) "
                      f"{{ {update} return a; }};")
        lines.add(f"[[maybe_unused]] const {self.acc_t} identity = {self.identity};")

    @staticmethod
    def _close(lines: Lines) -> str:
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _params(self, extra: list[str]) -> list[str]:
        reads = self.r._reads([self.k.body])
        self.r._kernel_args[self.index] = reads + [self.k.out]
        return [self.r.pointer_param(b, const=True) for b in reads] + extra

    def _out_param(self) -> str:
        return self.r.pointer_param(self.k.out, const=False)

    def _accumulate(self, lines: Lines, position: str) -> None:
        """acc <- combine(acc, body) at reduction position `position` (all loop vars set)."""
        value = self.r._expressions(lines, self.space, counter())(self.k.body)
        where = f"  /* {_short_source(self.k.source)} */" if self.k.source is not None else ""
        if self.paired:
            lines.add(f"acc = combine(acc, {self.acc_t}{{{value}, {position}}});{where}")
        else:
            lines.add(reduction_update(self.k.combiner, self.k.body.dtype, "acc", value) + where)

    def _reduced_loop(self, lines: Lines, first: str, step: str) -> None:
        lines.add(f"{self.acc_t} acc = identity;")
        if self.length == 0:
            return              # an empty reduction is its identity
        with _grid_stride(lines, "r", self.length, first, step):
            _decompose(lines, self.space, self.n_out, len(self.space.names), "r", self.used)
            self._accumulate(lines, "r")

    def _store(self, lines: Lines, acc: str = "acc") -> None:
        lines.add(f"{self.k.out.name}[{self.space.render(self.store)}] = {self._result(acc)};")

    def _result(self, acc: str) -> str:
        """The accumulator as the output's C value."""
        if self.arg:
            return f"({C_TYPE[self.k.out.dtype]}){acc}.index"
        if self.paired:
            return accumulator_result(self.k.combiner, self.k.out.dtype, f"{acc}.value")
        return accumulator_result(self.k.combiner, self.k.out.dtype, acc)

    def _rows(self, lines: Lines, first: str, step: str):
        block = _grid_stride(lines, "row", self.rows, first, step)
        return _Opened(block, lambda: _decompose(lines, self.space, 0, self.n_out, "row",
                                                 self.used))

    # -- layouts --------------------------------------------------------------------------------
    def full(self) -> str:
        """Two passes: each block's partial (grid-stride over all elements), then one block."""
        name, out = self.name, self.k.out.name
        # The partials' scratch (named as the renderer's launch hands it over): one per block.
        self.r._scratch.append((f"{name}_partials", self.acc_t, "TP_MAX_BLOCKS"))
        lines = Lines()
        self._open(lines, name, self._params([f"{self.acc_t} *__restrict__ partial"]),
                   "full reduction, pass 1: one partial per block")
        body_used = _used_loops(self.space, collect_affines(self.k.body, []))
        _decompose(lines, self.space, 0, self.n_out, "0", body_used)
        self._reduced_loop(lines, "(int64_t)blockIdx.x * blockDim.x + threadIdx.x",
                           "(int64_t)gridDim.x * blockDim.x")
        lines.add("acc = tp_block_reduce(acc, identity, combine);")
        lines.add("if (threadIdx.x == 0) partial[blockIdx.x] = acc;")
        first = self._close(lines)
        lines = Lines()
        self._open(lines, f"{name}_final", [f"const {self.acc_t} *__restrict__ partial",
                                             "int64_t count", self._out_param()],
                   "full reduction, pass 2: the partials in block order")
        lines.add(f"{self.acc_t} acc = identity;")
        with lines.block("for (int64_t p = threadIdx.x; p < count; p += blockDim.x)"):
            lines.add("acc = combine(acc, partial[p]);")
        lines.add("acc = tp_block_reduce(acc, identity, combine);")
        lines.add(f"if (threadIdx.x == 0) {out}[0] = {self._result('acc')};")
        second = self._close(lines)
        return first + "\n" + second

    def warp_per_row(self) -> str:
        lines = Lines()
        self._open(lines, self.name, self._params([self._out_param()]),
                   "inner reduction: one warp per row, lanes along the contiguous axis")
        lines.add("const int64_t lane = threadIdx.x % 32;")
        with self._rows(lines, "((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32",
                        "(int64_t)gridDim.x * (blockDim.x / 32)"):
            self._reduced_loop(lines, "lane", "32")
            lines.add("acc = tp_warp_reduce(acc, combine);")
            with lines.block("if (lane == 0)"):
                self._store(lines)
        return self._close(lines)

    def block_per_row(self) -> str:
        lines = Lines()
        self._open(lines, self.name, self._params([self._out_param()]),
                   "inner reduction: one block per row, threads along the contiguous axis")
        with self._rows(lines, "(int64_t)blockIdx.x", "(int64_t)gridDim.x"):
            self._reduced_loop(lines, "(int64_t)threadIdx.x", "(int64_t)blockDim.x")
            lines.add("acc = tp_block_reduce(acc, identity, combine);")
            with lines.block("if (threadIdx.x == 0)"):
                self._store(lines)
        return self._close(lines)

    def thread_per_output(self) -> str:
        lines = Lines()
        self._open(lines, self.name, self._params([self._out_param()]),
                   "outer reduction: one thread per output, in order along the reduced axes")
        with self._rows(lines, "(int64_t)blockIdx.x * blockDim.x + threadIdx.x",
                        "(int64_t)gridDim.x * blockDim.x"):
            self._reduced_loop(lines, "0", "1")
            self._store(lines)
        return self._close(lines)


class _Opened:
    """A `with` block that runs `after_open` right after its opening line."""

    def __init__(self, block, after_open):
        self.block, self.after_open = block, after_open

    def __enter__(self):
        self.block.__enter__()
        self.after_open()

    def __exit__(self, *exc):
        return self.block.__exit__(*exc)
