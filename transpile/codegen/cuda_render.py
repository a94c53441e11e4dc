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
"""
from __future__ import annotations

import math

from .. import dtypes
from .c_comment import c_comment
from .c_expr import Lines, LoopSpace, _short_source, counter
from .c_ops import C_TYPE, HELPER_HEADERS, unsigned_work_type
from .c_reductions import accumulator_result, accumulator_type, reduction_init, reduction_update
from .c_render import CRenderer
from .kernel_ir import IteratedKernel, LoopKernel, MatmulKernel, ReduceKernel
from .loop_nest import collect_affines, row_major
from .loop_schedule import CudaTarget

# Run-time helpers written for the host only (OpenMP, plans allocated and cached with malloc),
# with no device form yet: what uses them, and the way out.
_HOST_ONLY_HELPERS = {"tp_fft.h": "jnp.fft", "tp_conv.h": "lax.conv_general_dilated"}


class CudaRenderer(CRenderer):
    kernel_qualifier = "__global__ void __launch_bounds__(TP_THREADS)"
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

    def render_program(self, program, header: str) -> str:
        self._scratch: list[tuple[str, str]] = []  # (name, element type): reduction partials
        return super().render_program(program, header)

    # -- thread mapping -----------------------------------------------------------------------
    @staticmethod
    def _grid_stride(lines: Lines, var: str, count, first="(int64_t)blockIdx.x * blockDim.x "
                     "+ threadIdx.x", step="(int64_t)gridDim.x * blockDim.x"):
        return lines.block(f"for (int64_t {var} = {first}; {var} < {count}; {var} += {step})")

    @staticmethod
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

    @staticmethod
    def _used_loops(space: LoopSpace, affines) -> set:
        return {k for k, g in enumerate(space.groups)
                if any(a.coeffs and a.coeffs[g[-1]] for a in affines)}

    @staticmethod
    def _launch(name: str, grid: str, block: str, args) -> list[str]:
        """A kernel launch and the check of its status after it (a bad launch configuration
        shows at once; a fault in the kernel, at the next synchronising call)."""
        return [f"TP_LAUNCH({name}, {grid}, {block}, {', '.join(args)});",
                "if ((status = tp_launched(status)) != 0) goto cleanup;"]

    def _launch_1d(self, name: str, blocks: str):
        return lambda args: self._launch(name, blocks, "TP_THREADS", args)

    # -- elementwise kernels ------------------------------------------------------------------
    def _loop_kernel(self, k: LoopKernel, index: int) -> str:
        affines = collect_affines(k.value, [k.store])
        space = LoopSpace(k.shape, self._plan.groups)
        total = math.prod(k.shape)
        lines = Lines()
        # A store at a run-time offset (an update in place) reads that offset's buffers too.
        exprs = [k.value] + [e for e, _ in k.store.dyn]
        self._kernel_header(lines, index, exprs, k.out, k.comment)
        lines.depth += 1
        self._launches[index] = self._launch_1d(f"kernel_{index}",
                                                f"tp_blocks({total}, TP_THREADS)")
        if total == 0:
            return self._empty_kernel(lines, index)
        with self._grid_stride(lines, "flat", total):
            self._decompose(lines, space, 0, len(space.names), "flat",
                            self._used_loops(space, affines))
            render = self._expressions(lines, space, counter())
            value = render(k.value)
            lines.add(f"{k.out.name}[{space.render(k.store, render)}] = {value};")
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _empty_kernel(self, lines: Lines, index: int) -> str:
        """A kernel over zero elements: nothing to compute, nothing launched."""
        self._launches[index] = lambda args: [f"(void)({a});  /* kernel_{index}: zero elements, "
                                              "not launched */" for a in args]
        lines.add("/* zero elements: never launched */")
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _iterated_kernel(self, k: IteratedKernel, index: int) -> str:
        lines, space, stores, affines = self._iterated_header(k, index)
        total = math.prod(k.shape)
        if total == 0:
            return self._empty_kernel(lines, index)
        with self._grid_stride(lines, "flat", total):
            self._decompose(lines, space, 0, len(space.names), "flat",
                            self._used_loops(space, affines))
            self._iterated_element(lines, space, k, stores, counter())
        lines.depth -= 1
        lines.add("}")
        self._launches[index] = self._launch_1d(f"kernel_{index}",
                                                f"tp_blocks({total}, TP_THREADS)")
        return lines.text() + "\n"

    # -- reductions ---------------------------------------------------------------------------
    def _reduce_kernel(self, k: ReduceKernel, index: int) -> str:
        extents = k.out_shape + k.reduce_shape
        store = row_major(k.out_shape, len(extents))
        affines = collect_affines(k.body, [store])
        space = LoopSpace(extents, self._plan.groups)
        red = _Reduction(self, k, index, space, self._plan.out_loops, store, affines)
        if red.rows == 0:
            lines = Lines()
            self._kernel_header(lines, index, [k.body], k.out, k.comment)
            lines.depth += 1
            return self._empty_kernel(lines, index)
        return {"full": red.full, "warp_per_row": red.warp_per_row,
                "block_per_row": red.block_per_row,
                "thread_per_output": red.thread_per_output}[self._plan.layout]()

    # -- matmul ---------------------------------------------------------------------------------
    def _matmul_kernel(self, k: MatmulKernel, index: int) -> str:
        """A block per 16x16 output tile, grid z along the batch; operands read in place by
        strides. Grid y and z stop at TP_GRID_YZ_MAX (CUDA's 65535): blocks loop over the
        tiles and matrices beyond it, so any batch and any row count runs."""
        t = C_TYPE[k.out.dtype]
        w = t if k.out.dtype.kind in "fc" else unsigned_work_type(k.out.dtype)
        reads = list({o.buffer.name: o.buffer for o in (k.lhs, k.rhs)}.values())
        limit_reads = [k.limits.index] if k.limits is not None else []
        self._kernel_args[index] = reads + limit_reads + [k.out]
        tiles_m, tiles_n = -(-k.m // 16), -(-k.n // 16)
        grid = (f"dim3(tp_grid_dim({tiles_n}, INT32_MAX), tp_grid_dim({tiles_m}, "
                f"TP_GRID_YZ_MAX), tp_grid_dim({k.batch}, TP_GRID_YZ_MAX))")
        self._launches[index] = lambda args: self._launch(f"kernel_{index}", grid,
                                                          "dim3(TP_TILE, TP_TILE)", args)
        r = self.restrict
        params = [f"const {t} *{b.name}" for b in reads]
        params += [f"const {C_TYPE[b.dtype]} *{b.name}" for b in limit_reads]
        params.append(f"{t} *{r} {k.out.name}")
        lines = Lines()
        lines.add(f"/* {k.comment}: {k.batch} x ([{k.m}x{k.k}] @ [{k.k}x{k.n}]), lhs strides "
                  f"{k.lhs.strides}, rhs strides {k.rhs.strides}; tiles of 16x16 */")
        lines.add(f"__global__ void __launch_bounds__(TP_TILE * TP_TILE) kernel_{index}("
                  f"{', '.join(params)}) {{")
        lines.depth += 1
        first, rows, depth = self._matmul_limits(lines, k)
        if rows != str(k.m):
            tiles_m = f"({rows} + TP_TILE - 1) / TP_TILE"
        # Loop bounds depend on the block only: every thread reaches the tile's barriers.
        loops = [("matrix", k.batch, "z"), ("tile_row", tiles_m, "y"), ("tile_col", tiles_n, "x")]
        for var, count, axis in loops:
            lines.add(f"for (int64_t {var} = blockIdx.{axis}; {var} < {count}; "
                      f"{var} += gridDim.{axis}) {{")
            lines.depth += 1
        pointers = []
        for name, operand in (("a", k.lhs), ("b", k.rhs)):
            terms = [operand.buffer.name] + ([str(operand.offset)] if operand.offset else [])
            if first and operand is k.lhs:
                terms.append(f"{first} * {operand.strides[-2]}")
            stride = 1
            for d in range(len(k.batch_shape) - 1, -1, -1):
                size, step = k.batch_shape[d], operand.strides[d]
                if step and size > 1:
                    index_d = "matrix" if stride == 1 else f"(matrix / {stride})"
                    terms.append(f"({index_d} % {size}) * {step}")
                stride *= size
            pointers.append(f"{' + '.join(terms)}, {operand.strides[-2]}, {operand.strides[-1]}")
        out = f"{k.out.name} + matrix * {k.m * k.n}" + (f" + {first} * {k.n}" if first else "")
        lines.add(f"tp_matmul_tile<{t}, {w}>({pointers[0]}, {pointers[1]}, {out}, {rows}, "
                  f"{depth}, {k.n}, tile_row, tile_col);")
        for _ in loops:
            lines.depth -= 1
            lines.add("}")
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    @staticmethod
    def _matmul_limits(lines: Lines, k: MatmulKernel):
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

    # -- runtime helpers: sorts, factorizations, scatters; debug prints ----------------------
    def _helper_kernel(self, k, index: int) -> str:
        header = HELPER_HEADERS[k.operation]
        if header in _HOST_ONLY_HELPERS:
            raise NotImplementedError(f"{_HOST_ONLY_HELPERS[header]} has no CUDA kernel yet "
                                      f"(runtime/include/{header} is host code); "
                                      "use backend='cpu'")
        return super()._helper_kernel(k, index)

    def _helper_body(self, index, function, args, items) -> list[str]:
        """One device thread per item (a row to sort, a matrix to factor) running the same
        helper the C backend runs, or a block per item where the helper has a block form;
        a serial helper (a scatter, whose duplicates make the order matter) runs on a single
        thread. No atomics: the CPU's answer, every run."""
        joined = ", ".join(args)
        if items is None:
            self._launches[index] = lambda a: self._launch(f"kernel_{index}", "1", "1", a)
            return [f"    {function}({joined});  /* one thread: in order */"]
        lines = Lines()
        lines.depth = 1
        if self._plan.layout == "block_per_item":
            self._launches[index] = self._launch_1d(f"kernel_{index}", f"tp_blocks({items}, 1)")
            with self._grid_stride(lines, "item", items, "(int64_t)blockIdx.x",
                                   "(int64_t)gridDim.x"):
                lines.add(f"{function}_block({joined}, item);  /* a block per item */")
            return lines.lines
        self._launches[index] = self._launch_1d(f"kernel_{index}",
                                                f"tp_blocks({items}, TP_THREADS)")
        with self._grid_stride(lines, "item", items):
            lines.add(f"{function}_item({joined}, item);")
        return lines.lines

    def _debug_kernel(self, k, index: int) -> str:
        """A host function: each value copied to host memory (the copy waits for the kernels
        before it), handed to the Python hook, freed. Returns a cudaError_t."""
        copies = ", ".join(
            "(void *)0" if b is None else
            f"tp_host_copy({b.name}, sizeof({C_TYPE[b.dtype]}) * {b.size}, &status)"
            for b in k.values) or "(void *)0"
        self._launches[index] = lambda a: [f"if ((status = kernel_{index}({', '.join(a)})) "
                                           "!= 0) goto cleanup;"]
        return "\n".join([
            c_comment(k.comment),
            f"static int kernel_{index}({self._debug_params(k, index)}) {{",
            "    if (!tp_debug_hook) return 0;",
            "    int status = 0;",
            f"    void *values[] = {{{copies}}};",
            f"    if (status == 0) tp_debug_hook({k.effect}, values);",
            "    for (void *value : values) free(value);",
            "    return status;",
            "}", ""])

    # -- the host entry -----------------------------------------------------------------------
    def _allocate_temps(self, lines: Lines, temps) -> str:
        lines.add("int status = 0;")
        allocations = [(b.name, C_TYPE[b.dtype], max(b.size, 1)) for b in temps]
        allocations += [(name, t, "TP_MAX_BLOCKS") for name, t in self._scratch]
        for name, t, _ in allocations:
            lines.add(f"{t} *{name} = NULL;")
        for name, t, count in allocations:
            lines.add(f"if (status == 0) status = (int)cudaMallocAsync((void **)&{name}, "
                      f"sizeof({t}) * {count}, 0);")
        lines.add("if (status != 0) goto cleanup;")
        return "status"

    def _free_temps(self, temps) -> list[str]:
        names = [b.name for b in temps] + [name for name, _ in self._scratch]
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



class _Reduction:
    """One ReduceKernel rendered in the layout its memory access calls for."""

    def __init__(self, renderer: CudaRenderer, k: ReduceKernel, index, space, n_out_loops,
                 store, affines):
        self.r, self.k, self.index, self.space = renderer, k, index, space
        self.n_out, self.store, self.affines = n_out_loops, store, affines
        self.rows, self.length = math.prod(k.out_shape), math.prod(k.reduce_shape)
        self.used = renderer._used_loops(space, affines)
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
    def _open(self, lines: Lines, params: str, comment: str):
        lines.add(f"/* {self.k.comment}; {comment} */")
        lines.add(f"__global__ void __launch_bounds__(TP_THREADS) {params} {{")
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

    def _signature(self, name: str, extra: list[str]) -> str:
        reads = self.r._reads([self.k.body])
        params = [f"const {C_TYPE[b.dtype]} *__restrict__ {b.name}" for b in reads] + extra
        self.r._kernel_args[self.index] = reads + [self.k.out]
        return f"{name}({', '.join(params)})"

    def _out_param(self) -> str:
        return f"{C_TYPE[self.k.out.dtype]} *__restrict__ {self.k.out.name}"

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
        with self.r._grid_stride(lines, "r", self.length, first, step):
            self.r._decompose(lines, self.space, self.n_out, len(self.space.names), "r",
                              self.used)
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
        block = self.r._grid_stride(lines, "row", self.rows, first, step)
        return _Opened(block, lambda: self.r._decompose(
            lines, self.space, 0, self.n_out, "row", self.used))

    # -- layouts --------------------------------------------------------------------------------
    def full(self) -> str:
        """Two passes: each block's partial (grid-stride over all elements), then one block."""
        name, out = f"kernel_{self.index}", self.k.out.name
        scratch = f"scratch_{self.index}"
        self.r._scratch.append((scratch, self.acc_t))
        lines = Lines()
        self._open(lines, self._signature(name, [f"{self.acc_t} *__restrict__ partial"]),
                   "full reduction, pass 1: one partial per block")
        body_used = self.r._used_loops(self.space, collect_affines(self.k.body, []))
        self.r._decompose(lines, self.space, 0, self.n_out, "0", body_used)
        self._reduced_loop(lines, "(int64_t)blockIdx.x * blockDim.x + threadIdx.x",
                           "(int64_t)gridDim.x * blockDim.x")
        lines.add("acc = tp_block_reduce(acc, identity, combine);")
        lines.add("if (threadIdx.x == 0) partial[blockIdx.x] = acc;")
        first = self._close(lines)
        lines = Lines()
        self._open(lines, f"{name}_final(const {self.acc_t} *__restrict__ partial, "
                          f"int64_t count, {self._out_param()})",
                   "full reduction, pass 2: the partials in block order")
        lines.add(f"{self.acc_t} acc = identity;")
        with lines.block("for (int64_t p = threadIdx.x; p < count; p += blockDim.x)"):
            lines.add("acc = combine(acc, partial[p]);")
        lines.add("acc = tp_block_reduce(acc, identity, combine);")
        lines.add(f"if (threadIdx.x == 0) {out}[0] = {self._result('acc')};")
        second = self._close(lines)
        blocks = f"tp_blocks({self.length}, TP_THREADS)"
        self.r._launches[self.index] = lambda args: [
            *self.r._launch(name, blocks, "TP_THREADS", args[:-1] + [scratch]),
            *self.r._launch(f"{name}_final", "1", "TP_THREADS",
                            [scratch, f"(int64_t){blocks}", args[-1]])]
        return first + "\n" + second

    def warp_per_row(self) -> str:
        name = f"kernel_{self.index}"
        lines = Lines()
        self._open(lines, self._signature(name, [self._out_param()]),
                   "inner reduction: one warp per row, lanes along the contiguous axis")
        lines.add("const int64_t lane = threadIdx.x % 32;")
        with self._rows(lines, "((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32",
                        "(int64_t)gridDim.x * (blockDim.x / 32)"):
            self._reduced_loop(lines, "lane", "32")
            lines.add("acc = tp_warp_reduce(acc, combine);")
            with lines.block("if (lane == 0)"):
                self._store(lines)
        self.r._launches[self.index] = self.r._launch_1d(
            name, f"tp_blocks({self.rows}, TP_WARPS)")
        return self._close(lines)

    def block_per_row(self) -> str:
        name = f"kernel_{self.index}"
        lines = Lines()
        self._open(lines, self._signature(name, [self._out_param()]),
                   "inner reduction: one block per row, threads along the contiguous axis")
        with self._rows(lines, "(int64_t)blockIdx.x", "(int64_t)gridDim.x"):
            self._reduced_loop(lines, "(int64_t)threadIdx.x", "(int64_t)blockDim.x")
            lines.add("acc = tp_block_reduce(acc, identity, combine);")
            with lines.block("if (threadIdx.x == 0)"):
                self._store(lines)
        self.r._launches[self.index] = self.r._launch_1d(name, f"tp_blocks({self.rows}, 1)")
        return self._close(lines)

    def thread_per_output(self) -> str:
        name = f"kernel_{self.index}"
        lines = Lines()
        self._open(lines, self._signature(name, [self._out_param()]),
                   "outer reduction: one thread per output, in order along the reduced axes")
        with self._rows(lines, "(int64_t)blockIdx.x * blockDim.x + threadIdx.x",
                        "(int64_t)gridDim.x * blockDim.x"):
            self._reduced_loop(lines, "0", "1")
            self._store(lines)
        self.r._launches[self.index] = self.r._launch_1d(
            name, f"tp_blocks({self.rows}, TP_THREADS)")
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
