"""Render a Program as C with OpenMP: one static function per kernel and an entry point.

The renderer asks `c_expr.ExprRenderer` for each kernel's scalar body and `c_ops` for each
operation's C text. Dialect differences (qualifiers, parallel pragmas) are attributes, so
a CUDA renderer can override only those.
"""
from __future__ import annotations

import contextlib

from .. import dtypes
from . import kernel_sharing
from .c_comment import c_comment
from .c_expr import INDENT, ExprRenderer, Lines, LoopSpace, _short_source, buffers_of
from .c_expr import counter as _counter
from .c_ops import C_TYPE, HELPER_HEADERS, TAG, helper_function, render_literal
from .c_reductions import (NAN_SEEN, SUM_LANES, accumulator_result, accumulator_type,
                           declared_reduction, extreme_update, lane_tree,
                           omp_reduction_clause, reduction_init, reduction_update,
                           uses_builtin_extreme)
from .kernel_ir import (KERNEL_CONSTANT_DTYPE, Call, DebugKernel, EntryScalar, For,
                        HelperKernel, IteratedKernel, LoopKernel, MatmulKernel, Program,
                        ReduceKernel, SortKernel, Switch, While, swapped_buffers, walk)
from .loop_nest import collect_affines, row_major
from .loop_schedule import CpuTarget
from .workspace_layout import workspace_layout

DEBUG_HOOK_SUFFIX = "_set_debug_hook"
# Headers of whole-buffer kernels that the runtime library compiles once (see
# runtime/runtime_library.py): a module calling them includes their declarations,
# RUNTIME_DECLARATIONS, and is linked against the library, instead of compiling them itself.
RUNTIME_LIBRARY_HEADERS = frozenset({"tp_gemm.h", "tp_sort.h", "tp_linalg.h", "tp_spectral.h",
                                     "tp_scatter.h", "tp_fft.h", "tp_conv.h"})
RUNTIME_DECLARATIONS = "tp_runtime.h"


# -- the renderer ----------------------------------------------------------------------------

LONG_ENTRY_LINES = 500       # see CRenderer.long_entry_attribute


class CRenderer:
    """C + OpenMP. Subclasses change the dialect attributes below."""
    # Kernels are never inlined into the entry: gcc 12 at -O3 has been seen to reorder
    # memory accesses across inlined kernels whose parameters are `restrict` (wrong results
    # that -O2, -fno-inline or dropping restrict all avoid). Out of line, each kernel's
    # restrict promise is the plain, well-tested function-parameter one. A call per kernel
    # costs nothing next to its loop nest.
    kernel_qualifier = "static __attribute__((noinline)) void"
    entry_qualifier = ""
    restrict = "restrict"
    # The schedule pass of this dialect's target (loop_schedule.py): how each kernel's loops
    # map to the machine, decided on the IR before anything is spelled.
    target = CpuTarget
    runtime_header = "transpile.h"       # the dialect's prelude (helpers every kernel uses)
    # gcc's time grows linearly with a kernel's length: expressions fuse however deep.
    max_fused_height = None
    # Call the runtime library's kernels (declarations only) rather than compile them in.
    # False where the module must hold them: CUDA (device code) and exports (self-contained).
    uses_runtime_library = True
    entry_returns = "Returns 0, or 1 if a temporary could not be allocated."
    # How the entry reads and writes the one element of a scalar buffer (CUDA: a copy from or
    # to the device, its failure recorded in `status`).
    read_element = "{name}[0]"
    write_element = "{name}[0] = {value};"
    # May the entry's declarations carry initializers? C++ (CUDA) forbids a `goto cleanup`
    # past an initialized declaration: there they are declared, then assigned.
    initialised_declarations = True
    # Temporaries live in one block kept between calls, up to this many bytes (see
    # _workspace_declarations). A dialect that allocates otherwise (CUDA) turns it off.
    kept_workspace_max_bytes = 64 << 20
    # Kernels equal up to integer constants become one function (kernel_sharing.py: an
    # unrolled Python loop's iterations). A dialect whose kernels are launched otherwise
    # than by a plain call (CUDA) turns it off.
    shares_kernels = True
    # Put before an entry of more than LONG_ENTRY_LINES statements: gcc's second
    # instruction-scheduling pass is quadratic in a block's length, and an unrolled Python
    # loop's entry is one block of thousands of calls (NPBench's durbin at N=400: 4.5 of its
    # 6.3 s of cc1 time; at N=1000 minutes). Calls in sequence gain nothing from it.
    long_entry_attribute = ("#if defined(__GNUC__) && !defined(__clang__)\n"
                            "__attribute__((optimize(\"no-schedule-insns2\")))\n#endif")
    # The method that spells each layout the schedule may choose (loop_schedule.py's
    # KernelPlan.layout), per kind of kernel: a dialect lists the methods of its own layouts.
    # A layout missing here fails with its name (`_spelling`).
    element_layouts = {"nest": "_nest_elements"}
    reduction_layouts = {"nest": "_nest_reduction", "in_order": "_nest_reduction",
                         "lanes": "_nest_reduction", "rows_outside": "_column_reduction"}
    product_layouts = {"gemm": "_gemm_call", "gemm_small": "_gemm_call"}
    helper_layouts = {"helper": "_whole_call"}
    print_layouts = {"helper": "_print_hook_kernel"}

    def __init__(self):
        self.declared_reductions: set[str] = set()
        self.includes: set[str] = set()       # extra runtime headers the kernels call into

    def render(self, program: Program, header: str) -> str:
        self._sharing = kernel_sharing.share(program.kernels, self.plans, self._describe_buffer) \
            if self.shares_kernels else kernel_sharing.Sharing()
        kernels = [self._render_or_share(k, i) for i, k in enumerate(program.kernels)]
        kernels = [text for text in kernels if text is not None]
        self._map_shared_arguments()
        if any(dtypes.is_complex(b.dtype) for b in self._buffers.values()):
            self.includes.add("tp_complex.h")      # the entry declares complex pointers
        if any(dtypes.is_half(b.dtype) for b in self._buffers.values()):
            self.includes.add("tp_half.h")         # ... or 16-bit float ones
        if self.uses_runtime_library and self.includes & RUNTIME_LIBRARY_HEADERS:
            self.includes = (self.includes - RUNTIME_LIBRARY_HEADERS) | {RUNTIME_DECLARATIONS}
        # What the source includes, kept as structure: the runtime library link and the
        # headers an export copies are decided from it, never by reading the text.
        self.included = (self.runtime_header, *sorted(self.includes))
        parts = [header, *(f'#include "{name}"' for name in self.included), ""]
        parts.extend(sorted(self.declared_reductions))
        if self.declared_reductions:
            parts.append("")
        if program.effects:
            parts.append(self.debug_hook(program.name))
        if self._keeps_workspace(self._memory_temps):
            parts.append(self._workspace_declarations())
        parts.extend(kernels)
        parts.append(self.render_entry(program))
        return "\n".join(parts) + "\n"

    # -- kernels ----------------------------------------------------------------------------
    def _describe_buffer(self, buf) -> tuple:
        """What a kernel's spelling depends on of a buffer besides its name."""
        return buf.dtype, buf.name in self.registers, buf.name in self._swapped

    def _render_or_share(self, kernel, index: int) -> str | None:
        """Kernel `index` spelled, in its shared form where it is a group's function; None
        where it calls another kernel's function."""
        call = self._sharing.calls.get(index)
        if call is not None and call.function != index:
            return None
        function = self._sharing.functions.get(index)
        self._lifted = function
        try:
            return self.render_kernel(kernel if function is None else function.kernel, index)
        finally:
            self._lifted = None

    def _map_shared_arguments(self) -> None:
        """A kernel calling a shared function passes its own buffers where the function's
        kernel has its own: matched by their positions in the structural key."""
        for index, call in self._sharing.calls.items():
            if call.function == index:
                continue
            position = {b.name: p for p, b in
                        enumerate(self._sharing.positions[call.function])}
            mine = self._sharing.positions[index]
            self._kernel_args[index] = [mine[position[b.name]]
                                        for b in self._kernel_args[call.function]]
            self._by_value[index] = frozenset(
                mine[position[name]].name for name in self._by_value.get(call.function, ()))

    def _loop_space(self, extents, groups) -> LoopSpace:
        """The loop variables of the kernel being spelled; a shared function's lifted
        extents are spelled as its parameters."""
        lifted = self._lifted.extents if self._lifted is not None else {}
        return LoopSpace(extents, groups, {k: c.name for k, c in lifted.items()})

    def render_kernel(self, kernel, index: int) -> str:
        self._current_kernel = index
        self._plan = self.plans[index]
        if self._plan.layout == "none":
            self._kernel_args[index] = []
            return f"/* {self.kernel_names[index]}: zero elements, nothing to run */\n"
        method = _KERNEL_METHODS.get(type(kernel))
        if method is None:
            raise NotImplementedError(type(kernel).__name__)
        return getattr(self, method)(kernel, index)

    def _spelling(self, table: dict, kind: str):
        """The method of this dialect that spells the current plan's layout of a `kind`."""
        method = table.get(self._plan.layout)
        if method is None:
            raise NotImplementedError(f"{type(self).__name__} has no spelling of a {kind} "
                                      f"laid out as {self._plan.layout!r}")
        return getattr(self, method)

    def _qualifier(self, index: int) -> str:
        """What a kernel's definition starts with (its return type included)."""
        return self.kernel_qualifier

    def _definition(self, index: int, params) -> str:
        """The line that opens kernel `index`'s definition."""
        if self._lifted is not None:       # a shared function's constants come last
            params = [*params, *(f"const int64_t {c.name}" for c in self._lifted.constants)]
        return (f"{self._qualifier(index)} {self.kernel_names[index]}"
                f"({', '.join(params) or 'void'}) {{")


    def _read_params(self, index, reads) -> list[str]:
        """A loop kernel's read parameters: a scalar in a register (CpuTarget.registers) by
        value, every other buffer by pointer."""
        by_value = frozenset(b.name for b in reads if b.name in self.registers)
        self._by_value[index] = by_value
        return [f"const {C_TYPE[b.dtype]} {b.name}" if b.name in by_value
                else self.pointer_param(b, const=True) for b in reads]

    def pointer_param(self, buf, const: bool) -> str:
        """A kernel's pointer parameter. Buffers whose pointers a loop swaps are never
        `restrict`: gcc -O3 inlined two iterations' kernels into one unrolled loop and
        moved the second iteration's loads of the (restrict) spare buffer above the first
        iteration's stores to it, i.e. it read the old carry (tests/test_buffers.py)."""
        restrict = "" if buf.name in self._swapped else f"{self.restrict} "
        return f"{'const ' if const else ''}{C_TYPE[buf.dtype]} *{restrict}{buf.name}"

    @staticmethod
    def _reads(exprs, out=None):
        """Buffers the expressions load from, except `out` (an update in place reads the
        buffer it writes: one parameter, written through)."""
        found = set()
        for e in exprs:
            buffers_of(e, found)
        found.discard(out)
        return sorted(found, key=_buffer_order)

    def _loop_kernel(self, k: LoopKernel, index: int) -> str:
        space = self._loop_space(k.shape, self._plan.groups)
        lines = Lines()
        # A store at a run-time offset (an update in place) reads that offset's buffers too.
        exprs = [k.value] + [e for e, _ in k.store.dyn]
        self._kernel_header(lines, index, exprs, k.out, k.comment)
        lines.depth += 1
        elements = self._spelling(self.element_layouts, "loop nest")
        with elements(lines, space, collect_affines(k.value, [k.store]), simd=True):
            render = self._expressions(lines, space, _counter())
            value = render(k.value)
            lines.add(f"{k.out.name}[{space.render(k.store, render)}] = {value};")
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    @contextlib.contextmanager
    def _nest_elements(self, lines, space, affines, simd: bool):
        """Layout "nest": one loop per (merged) dimension, the outermost split across threads
        where the plan says so, the innermost a simd loop (`simd`: unless its body holds a
        loop of its own, which OpenMP forbids in a simd loop)."""
        self._open_loops(lines, space, 0, len(space.names), self._plan.threads == "loop",
                         innermost_pragma="simd" if simd else "", simd_body=True)
        yield
        self._close_loops(lines, len(space.names))

    def _iterated_header(self, k: IteratedKernel, index: int):
        """(lines with the open kernel, loop space, carry stores, affines) of an
        interchanged loop, in every dialect."""
        exprs = [e for _, init, update, _ in k.carries for e in (init, update)]
        stores = [row_major(k.shape, len(k.shape)) for _ in k.carries]
        affines = stores + [a for e in exprs for a in collect_affines(e, [])]
        space = self._loop_space(k.shape, self._plan.groups)
        outs = [buf for *_, buf in k.carries]
        # A loop that runs in its starting array's buffer reads its initial carry from the
        # buffer it writes: that pointer is a parameter once, writable.
        written = {b.name for b in outs}
        reads = [b for b in self._reads(exprs) if b.name not in written]
        params = self._read_params(index, reads)
        params += [self.pointer_param(b, const=False) for b in outs]
        params += ["int64_t step_from", "int64_t step_to"]
        self._kernel_args[index] = reads + outs
        lines = Lines()
        lines.add(c_comment(k.comment))
        lines.add(self._definition(index, params))
        lines.depth += 1
        return lines, space, stores, affines

    def _iterated_kernel(self, k: IteratedKernel, index: int) -> str:
        lines, space, stores, affines = self._iterated_header(k, index)
        counter = _counter()
        if self._plan.lanes > 1:
            self._iterated_lanes(lines, space, k, stores, counter)
        else:
            elements = self._spelling(self.element_layouts, "loop nest")
            with elements(lines, space, affines, simd=False):
                self._iterated_element(lines, space, k, stores, counter)
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _iterated_lanes(self, lines, space, k: IteratedKernel, stores, counter):
        """An interchanged loop run on `plan.lanes` elements side by side: their carries in
        small arrays, each iteration a simd loop over the lanes. One element at a time, an
        iteration waits for the previous one's result (mandelbrot's |z|, z*z + c: a divide,
        a square root and two fmas in a row); lanes overlap those latencies."""
        n, lanes = len(space.names), self._plan.lanes
        parallel = self._plan.threads == "loop"
        self._open_loops(lines, space, 0, n - 1, parallel, innermost_pragma="",
                         simd_body=False)
        var, extent = space.names[-1], space.extents[-1]
        if n == 1 and parallel:
            lines.add(self._parallel_pragma("parallel for"))
        lines.add(f"for (int64_t {var}_lane0 = 0; {var}_lane0 < {extent}; "
                  f"{var}_lane0 += {lanes}) {{")
        lines.depth += 1
        lines.add(f"const int64_t lanes = {extent} - {var}_lane0 < {lanes} ? "
                  f"{extent} - {var}_lane0 : {lanes};")
        for name, _, _, buf in k.carries:
            lines.add(f"{C_TYPE[buf.dtype]} {name}_lanes[{lanes}];")

        def lane_loop():
            lines.add("#pragma omp simd")
            block = lines.block("for (int64_t lane = 0; lane < lanes; lane++)")
            block.__enter__()
            # (void): an iteration may read nothing at the element's own position.
            lines.add(f"const int64_t {var} = {var}_lane0 + lane;")
            lines.add(f"(void){var};")
            return block

        block = lane_loop()
        outer = self._expressions(lines, space, counter)
        for name, init, _, _ in k.carries:
            lines.add(f"{name}_lanes[lane] = {outer(init)};")
        block.__exit__()
        with lines.block("for (int64_t step = step_from; step < step_to; step++)"):
            if any(e.kind == "var" and e.args[0] == k.index_name
                   for _, _, update, _ in k.carries for e in walk(update)):
                lines.add(f"const {C_TYPE[k.index_dtype]} {k.index_name} = "
                          f"({C_TYPE[k.index_dtype]})step;")
            block = lane_loop()
            read = {e.args[0] for _, _, update, _ in k.carries for e in walk(update)
                    if e.kind == "var"}
            for name, _, _, buf in k.carries:
                if name in read:       # (a carry each iteration replaces is never read)
                    lines.add(f"const {C_TYPE[buf.dtype]} {name} = {name}_lanes[lane];")
            inner = self._expressions(lines, space, counter)
            updated = [inner(update) for _, _, update, _ in k.carries]
            for (name, *_), value in zip(k.carries, updated):
                lines.add(f"{name}_lanes[lane] = {value};")
            block.__exit__()
        block = lane_loop()
        for (name, _, _, buf), store in zip(k.carries, stores):
            lines.add(f"{buf.name}[{space.render(store)}] = {name}_lanes[lane];")
        block.__exit__()
        lines.depth -= 1
        lines.add("}")
        self._close_loops(lines, n - 1)

    def _iterated_element(self, lines, space, k: IteratedKernel, stores, counter):
        """One element of an interchanged loop (every dialect): load the carries into
        scalars, run the iterations on them, store them once."""
        outer = self._expressions(lines, space, counter)
        for name, init, _, buf in k.carries:
            lines.add(f"{C_TYPE[buf.dtype]} {name} = {outer(init)};")
        with lines.block("for (int64_t step = step_from; step < step_to; step++)"):
            if any(e.kind == "var" and e.args[0] == k.index_name
                   for _, _, update, _ in k.carries for e in walk(update)):
                lines.add(f"const {C_TYPE[k.index_dtype]} {k.index_name} = "
                          f"({C_TYPE[k.index_dtype]})step;")
            inner = self._expressions(lines, space, counter)
            updated = [inner(update) for _, _, update, _ in k.carries]
            for (name, *_), value in zip(k.carries, updated):
                lines.add(f"{name} = {value};")
        for (name, _, _, buf), store in zip(k.carries, stores):
            lines.add(f"{buf.name}[{space.render(store)}] = {name};")

    def _expressions(self, lines, space, counter) -> ExprRenderer:
        """Renders scalar expressions into `lines`; the headers they call into are included."""
        return ExprRenderer(lines, space, counter, self.includes,
                            self._by_value.get(self._current_kernel, frozenset()))

    def _kernel_header(self, lines, index, exprs, out, comment):
        reads = self._reads(exprs, out)
        lines.add(c_comment(comment))
        params = self._read_params(index, reads) + [self.pointer_param(out, const=False)]
        lines.add(self._definition(index, params))
        self._kernel_args[index] = reads + [out]

    def _open_loops(self, lines, space, start, stop, parallel, innermost_pragma="simd",
                    reduction="", simd_body=None):
        """Open loops start..stop-1. `simd_body`: may the innermost opened loop be a simd
        loop? Not when its body holds another simd loop (OpenMP forbids nesting them)."""
        simd_body = bool(innermost_pragma) if simd_body is None else simd_body
        for k in range(start, stop):
            innermost = k == stop - 1
            pragma = None
            if k == start and parallel and space.extents[k] > 1:
                pragma = "parallel for simd" if innermost and simd_body else "parallel for"
            elif innermost and innermost_pragma:
                pragma = innermost_pragma
            if pragma and pragma.startswith("parallel"):
                # Every worksharing or simd loop over reduced elements reduces (a parallel
                # for without the clause would race on the shared accumulator).
                lines.add(self._parallel_pragma(pragma, reduction))
            elif pragma:
                lines.add(f"#pragma omp {pragma}{reduction}")
            lines.add(f"for (int64_t {space.names[k]} = 0; {space.names[k]} < "
                      f"{space.extent_text(k)}; {space.names[k]}++) {{")
            lines.depth += 1

    def _parallel_pragma(self, pragma: str, clause: str = "") -> str:
        """A kernel's parallel loop: `parallel for...`, or the orphaned `for...` when the
        schedule runs the kernel inside a region shared with its neighbours."""
        if self._plan.shared_region:
            pragma = pragma.replace("parallel ", "", 1)
        return f"#pragma omp {pragma}{clause}"

    @staticmethod
    def _close_loops(lines, count):
        for _ in range(count):
            lines.depth -= 1
            lines.add("}")

    def _reduce_kernel(self, k: ReduceKernel, index: int) -> str:
        extents = k.out_shape + k.reduce_shape
        store = row_major(k.out_shape, len(extents))
        space = self._loop_space(extents, self._plan.groups)
        return self._spelling(self.reduction_layouts, "reduction")(k, index, space, store)

    def _nest_reduction(self, k: ReduceKernel, index: int, space, store) -> str:
        """Layouts "nest", "lanes" and "in_order": the output loops outside (split across threads
        where the plan says so), an accumulator per output, the reduced loops inside (under a
        reduction clause, or strictly in order)."""
        plan = self._plan
        n_out_loops = plan.out_loops
        lines = Lines()
        self._kernel_header(lines, index, [k.body], k.out, k.comment)
        lines.depth += 1
        self._open_loops(lines, space, 0, n_out_loops, plan.threads == "loop",
                         innermost_pragma="")
        dt = k.body.dtype
        if k.combiner in ("argmax", "argmin"):
            self._arg_reduce_body(lines, space, k, n_out_loops)
        else:
            acc_t = accumulator_type(k.combiner, dt)
            lines.add(f"{acc_t} acc = {reduction_init(k.combiner, dt)};")
            builtin = plan.layout != "in_order" and uses_builtin_extreme(k.combiner, dt)
            if plan.layout == "lanes":
                self._lane_sum(lines, space, k, n_out_loops, acc_t)
            else:
                self._accumulate(lines, space, k, n_out_loops, builtin)
            if builtin:
                self._in_order_pass(lines, space, k, n_out_loops)
            elif k.combiner in ("max", "min") and dtypes.is_float(dt):
                self._zero_sign_pass(lines, space, k, n_out_loops)
            lines.add(f"{k.out.name}[{space.render(store)}] = "
                      f"{accumulator_result(k.combiner, k.out.dtype, 'acc')};")
        self._close_loops(lines, n_out_loops)
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _accumulate(self, lines, space, k: ReduceKernel, n_out_loops: int, builtin: bool):
        """The reduced loops updating `acc`: strictly in order, or under a reduction clause
        (which combines simd lanes and threads in the compiler's order)."""
        plan, dt = self._plan, k.body.dtype
        if plan.layout == "in_order":
            self._open_loops(lines, space, n_out_loops, len(space.names), False,
                             innermost_pragma="")
        else:
            clause = omp_reduction_clause(k.combiner, dt)
            if clause.startswith("tp_"):
                self.declared_reductions.add(declared_reduction(clause, k.combiner, dt))
            reduction = f" reduction({clause}:acc)"
            if builtin:
                lines.add(f"int {NAN_SEEN} = 0;")
                reduction += f" reduction(|:{NAN_SEEN})"
            self._open_loops(lines, space, n_out_loops, len(space.names),
                             plan.threads == "reduction", reduction=reduction)
        v = self._expressions(lines, space, _counter())(k.body)
        where = f"  /* {_short_source(k.source)} */" if k.source is not None else ""
        update = (extreme_update(k.combiner, "acc", v) if builtin
                  else reduction_update(k.combiner, dt, "acc", v))
        lines.add(update + where)
        self._close_loops(lines, len(space.names) - n_out_loops)

    def _lane_sum(self, lines, space, k: ReduceKernel, n_out_loops: int, acc_t: str):
        """A float sum in the order c_reductions.SUM_LANES defines, whatever the compiler
        and the CPU: the outer reduced loops in order; along the innermost, lane l sums the
        terms at positions l, l + L, l + 2L... in order (a simd loop of L lanes, then the
        last n % L terms into lanes 0...), and the lanes' fixed tree is added to `acc`. The
        first-call executor reproduces this order (backends/numpy_kernels.py)."""
        inner = len(space.names) - 1
        var, extent = space.names[inner], space.extent_text(inner)
        self._open_loops(lines, space, n_out_loops, inner, False, innermost_pragma="")
        where = f"  /* {_short_source(k.source)} */" if k.source is not None else ""
        with lines.block(""):
            lines.add(f"{acc_t} part[{SUM_LANES}] = {{0}};")
            lines.add(f"const int64_t full = {extent} - {extent} % {SUM_LANES};")
            with lines.block(f"for (int64_t block = 0; block < full; block += {SUM_LANES})"):
                lines.add("#pragma omp simd")
                with lines.block(f"for (int64_t {var} = block; {var} < block + {SUM_LANES}; "
                                 f"{var}++)"):
                    v = self._expressions(lines, space, _counter())(k.body)
                    lines.add(reduction_update(k.combiner, k.body.dtype,
                                               f"part[{var} - block]", v) + where)
            with lines.block(f"for (int64_t {var} = full; {var} < {extent}; {var}++)"):
                v = self._expressions(lines, space, _counter())(k.body)
                lines.add(reduction_update(k.combiner, k.body.dtype, f"part[{var} - full]", v))
            lines.add(f"acc += {lane_tree('part')};" + where)
        self._close_loops(lines, inner - n_out_loops)

    def _column_reduction(self, k: ReduceKernel, index: int, space, store) -> str:
        """Outer output loops outside (the outermost in parallel when the plan splits it);
        inside, blocks of the innermost output loop (in parallel when the plan splits them
        instead); per block, every row of the reduced loops updates the block's outputs in
        place (a simd loop). Each output still sees its terms in order, as the row-walking
        serial loop would."""
        block = self.target.column_block
        n_out_loops = self._plan.out_loops
        split = self._plan.threads == "loop"
        o = space.names[n_out_loops - 1]
        n_out = space.extents[n_out_loops - 1]
        target = f"{k.out.name}[{space.render(store)}]"
        acc_t = accumulator_type(k.combiner, k.body.dtype)
        own_accumulators = acc_t != C_TYPE[k.out.dtype]
        lines = Lines()
        self._kernel_header(lines, index, [k.body], k.out, k.comment + " (rows outside)")
        lines.depth += 1
        self._open_loops(lines, space, 0, n_out_loops - 1, split, innermost_pragma="")
        if n_out <= block:
            # One block: constant bounds, so the simd loop's trip count is known.
            acc = f"acc[{o}]" if own_accumulators else target
            self._reduce_rows(lines, k, space, acc, target, acc_t if own_accumulators else None,
                              o, "0", str(n_out), n_out)
        else:
            if split and n_out_loops == 1:
                lines.add(self._parallel_pragma("parallel for"))
            with lines.block(f"for (int64_t block = 0; block < {n_out}; block += {block})"):
                lines.add(f"const int64_t end = block + {block} < {n_out} ? block + {block} : "
                          f"{n_out};")
                acc = f"acc[{o} - block]" if own_accumulators else target
                self._reduce_rows(lines, k, space, acc, target,
                                  acc_t if own_accumulators else None, o, "block", "end", block)
        self._close_loops(lines, n_out_loops - 1)
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _reduce_rows(self, lines, k: ReduceKernel, space, acc, target, acc_t, o, lo, hi, size):
        """One block of outputs `o` in [lo, hi): initialise, let every row of the reduced
        loops update it (a simd loop), store. `acc_t`: the type of a block of `size`
        accumulators of their own (None: the outputs accumulate in place)."""
        dt, n_out_loops = k.body.dtype, self._plan.out_loops
        if acc_t is not None:
            lines.add(f"{acc_t} acc[{size}];")
        with lines.block(f"for (int64_t {o} = {lo}; {o} < {hi}; {o}++)"):
            lines.add(f"{acc} = {reduction_init(k.combiner, dt)};")
        self._open_loops(lines, space, n_out_loops, len(space.names), False, innermost_pragma="")
        lines.add("#pragma omp simd")
        with lines.block(f"for (int64_t {o} = {lo}; {o} < {hi}; {o}++)"):
            v = self._expressions(lines, space, _counter())(k.body)
            where = f"  /* {_short_source(k.source)} */" if k.source is not None else ""
            lines.add(reduction_update(k.combiner, dt, acc, v) + where)
        self._close_loops(lines, len(space.names) - n_out_loops)
        if acc_t is not None:
            with lines.block(f"for (int64_t {o} = {lo}; {o} < {hi}; {o}++)"):
                lines.add(f"{target} = {accumulator_result(k.combiner, k.out.dtype, acc)};")

    def _in_order_pass(self, lines, space, k, n_out_loops):
        """After a built-in max/min clause (c_reductions.NAN_SEEN), which may drop a NaN and
        pick either zero: a row that held a NaN, or whose extreme is a zero, is folded again
        in order with tp_max/tp_min (the first NaN wins, a zero takes the last zero's sign,
        as NumPy's in-order maximum gives). One serial pass, for rare rows."""
        dt = k.body.dtype
        with lines.block(f"if ({NAN_SEEN} || acc == 0)"):
            lines.add(f"acc = {reduction_init(k.combiner, dt)};")
            self._open_loops(lines, space, n_out_loops, len(space.names), False,
                             innermost_pragma="")
            v = self._expressions(lines, space, _counter())(k.body)
            lines.add(reduction_update(k.combiner, dt, "acc", v))
            self._close_loops(lines, len(space.names) - n_out_loops)

    def _zero_sign_pass(self, lines, space, k, n_out_loops):
        """A zero max/min takes the sign of the last zero, as NumPy's in-order maximum (which
        returns its second operand on ties) gives; parallel and simd partial results combine
        out of order, so a zero result is redone by one serial pass (rare, and cheap)."""
        with lines.block("if (acc == 0)"):
            self._open_loops(lines, space, n_out_loops, len(space.names), False,
                             innermost_pragma="")
            v = self._expressions(lines, space, _counter())(k.body)
            lines.add(f"if ({v} == 0) acc = {v};")
            self._close_loops(lines, len(space.names) - n_out_loops)

    def _arg_reduce_body(self, lines, space, k, n_out_loops):
        dt = k.body.dtype
        store = row_major(k.out_shape, len(k.out_shape) + len(k.reduce_shape))
        lines.add(f"{C_TYPE[dt]} best = {render_literal(0, dt)};")
        lines.add("int64_t best_index = -1;")
        self._open_loops(lines, space, n_out_loops, len(space.names), False, innermost_pragma="")
        v = self._expressions(lines, space, _counter())(k.body)
        position = space.names[-1]
        # The first NaN wins, as in NumPy; otherwise the first extreme value.
        lines.add(f"if (best_index < 0 || {self._replaces_best(k.combiner, dt, v)}) "
                  f"{{ best = {v}; best_index = {position}; }}")
        self._close_loops(lines, len(space.names) - n_out_loops)
        lines.add(f"{k.out.name}[{space.render(store)}] = ({C_TYPE[k.out.dtype]})best_index;")

    @staticmethod
    def _replaces_best(combiner: str, dt, v: str) -> str:
        """C condition: does value `v` replace `best` in argmax/argmin (NumPy's rules)?"""
        if dtypes.is_complex(dt):       # lexicographic; a NaN in either part is a NaN
            tag, order = TAG[dt], "gt" if combiner == "argmax" else "lt"
            return (f"(!tp_isnan_{tag}(best) && (tp_isnan_{tag}({v}) || "
                    f"tp_{order}_{tag}({v}, best)))")
        better = ">" if combiner == "argmax" else "<"
        # Booleans compare as 0/1 ints (gcc warns on ordering a bool with a constant).
        lhs, rhs = (f"(int){v}", "(int)best") if dt == dtypes.bool_ else (v, "best")
        nan_check = f" || ({v} != {v} && best == best)" if dtypes.is_float(dt) else ""
        return f"{lhs} {better} {rhs}{nan_check}"

    def _matmul_kernel(self, k: MatmulKernel, index: int) -> str:
        return self._spelling(self.product_layouts, "product")(k, index)

    def _gemm_call(self, k: MatmulKernel, index: int) -> str:
        """Layouts "gemm" and "gemm_small": one call of the runtime's tp_gemm (or the inlined
        tp_gemm_small) per batch group the strides cannot merge."""
        small = self._plan.layout == "gemm_small"
        self.includes.add("tp_gemm_small.h" if small else "tp_gemm.h")
        function = "tp_gemm_small" if small else "tp_gemm"
        reads = list({o.buffer.name: o.buffer for o in (k.lhs, k.rhs)}.values())
        if k.limits is not None:
            reads.append(k.limits.index)
        self._kernel_args[index] = reads + [k.out]
        lines = Lines()
        lines.add(c_comment(f"{k.comment}: {k.batch} x ([{k.m}x{k.k}] @ [{k.k}x{k.n}]), "
                            f"lhs strides {k.lhs.strides}, rhs strides {k.rhs.strides}"))
        params = [self.pointer_param(b, const=True) for b in reads]
        lines.add(self._definition(index, params + [self.pointer_param(k.out, const=False)]))
        lines.depth += 1
        groups = k.batch_groups()
        *outer, (inner_size, inner_strides) = groups or [(1, (0, 0, 0))]
        terms = [[str(o.offset)] if o.offset else [] for o in (k.lhs, k.rhs)] + [[]]
        for depth, (size, strides) in enumerate(outer):
            lines.add(f"for (int64_t b{depth} = 0; b{depth} < {size}; b{depth}++)")
            lines.depth += 1
            for t, stride in zip(terms, strides):
                if stride:
                    t.append(f"b{depth} * {stride}")
        (lb, lr, lc), (rb, rr, rc) = ((inner_strides[i],) + o.strides[-2:]
                                      for i, o in enumerate((k.lhs, k.rhs)))
        m, depth = str(k.m), str(k.k)
        if k.limits is not None:
            m, depth = self._matmul_limits(lines, k, terms, lr)
        a, b, c = (" + ".join([name] + t) for name, t in
                   zip((k.lhs.buffer.name, k.rhs.buffer.name, k.out.name), terms))
        lines.add(f"{function}_{TAG[k.out.dtype]}({inner_size}, {m}, {k.n}, {depth}, "
                  f"{a}, {lb}, {lr}, {lc}, {b}, {rb}, {rr}, {rc}, {c}, {inner_strides[2]}, "
                  f"{k.n});")
        lines.depth = 0
        lines.add("}")
        lines.add("")
        return lines.text()

    @staticmethod
    def _matmul_limits(lines, k: MatmulKernel, terms, lhs_row_stride) -> tuple[str, str]:
        """(rows, depth) of a product bounded by a loop index (see loop_ranges.py), after
        the lines that read the index and zero the rows it skips."""
        lim = k.limits
        lines.add(f"const int64_t at = (int64_t){lim.index.name}[0];")
        rows, depth = str(k.m), str(k.k)
        if lim.short_k:
            lines.add(c_comment("the operands are zero from the loop index on along k: "
                                "the rest of the sum adds exact zeros"))
            lines.add(f"const int64_t depth = at < 0 ? 0 : (at < {k.k} ? at : {k.k});")
            depth = "depth"
        if lim.rows_from_index:
            lines.add(c_comment("rows above the loop index are never read: zeros, not "
                                "products"))
            lines.add(f"const int64_t first = at < 0 ? 0 : (at < {k.m} ? at : {k.m});")
            lines.add(f"for (int64_t i = 0; i < first * {k.n}; i++) {k.out.name}[i] = 0;")
            terms[0].append(f"first * {lhs_row_stride}")
            terms[2].append(f"first * {k.n}")
            rows = f"{k.m} - first"
        return rows, depth

    def _sort_kernel(self, k: SortKernel, index: int) -> str:
        self.includes.add("tp_sort.h")
        values, indices = ("NULL", k.out.name) if k.indices else (k.out.name, "NULL")
        args = [k.operand.name, values, indices, k.scratch.name, str(k.rows), str(k.n)]
        return self._helper_call_kernel(
            index, f"{k.comment}: {k.rows} rows of {k.n}, stable, NaN last", [k.operand],
            [k.out, k.scratch], f"tp_sort_{TAG[k.operand.dtype]}", args, k.rows)

    def debug_hook(self, entry: str) -> str:
        """The hook debug prints call (set by the Python loader; without one, as in an
        exported library, prints do nothing)."""
        return "\n".join([
            "/* debug.print: the values of print number `effect`, handed to Python. */",
            "static void (*tp_debug_hook)(int64_t effect, void **values) = 0;",
            f"{self.entry_qualifier}__attribute__((unused)) void {entry}{DEBUG_HOOK_SUFFIX}("
            "void (*hook)(int64_t, void **)) { tp_debug_hook = hook; }", ""])

    def _debug_kernel(self, k: DebugKernel, index: int) -> str:
        return self._spelling(self.print_layouts, "debug print")(k, index)

    def _print_hook_kernel(self, k: DebugKernel, index: int) -> str:
        """Layout "helper": the values' pointers handed to the hook as they are."""
        values = ", ".join("(void *)0" if b is None else f"(void *){b.name}"
                           for b in k.values) or "0"
        return "\n".join([
            c_comment(k.comment),
            self._definition(index, self._debug_params(k, index)),
            f"{INDENT}void *values[] = {{{values}}};",
            f"{INDENT}if (tp_debug_hook) tp_debug_hook({k.effect}, values);",
            "}", ""])

    def _debug_params(self, k: DebugKernel, index: int) -> list[str]:
        """The parameters of a debug print's function: its non-empty values' buffers."""
        read = [b for b in k.values if b is not None]
        self._kernel_args[index] = read
        return [f"const {C_TYPE[b.dtype]} *{b.name}" for b in read]

    def _helper_kernel(self, k: HelperKernel, index: int) -> str:
        self.includes.add(HELPER_HEADERS[k.operation])
        reads = list({b.name: b for b in k.reads}.values())   # solve(a, a) reads a once
        args = [b.name for b in k.reads + k.writes] + [str(int(s)) for s in k.scalars]
        return self._helper_call_kernel(index, k.comment, reads, k.writes,
                                        helper_function(k.operation, k.dtype), args, k.items)

    def _helper_call_kernel(self, index, comment, reads, writes, function, args, items) -> str:
        """A kernel that hands whole buffers to a runtime helper (sorts, scatters,
        factorizations). `items`: how many independent problems the helper runs (rows,
        matrices), each alone as `{function}_item(args..., item)`; None for one serial one."""
        self._kernel_args[index] = reads + writes
        params = [self.pointer_param(b, const=True) for b in reads]
        params += [self.pointer_param(b, const=False) for b in writes]
        call = self._spelling(self.helper_layouts, "helper call")
        return "\n".join([
            c_comment(comment),
            self._definition(index, params),
            *call(function, args, items),
            "}", ""])

    @staticmethod
    def _whole_call(function, args, items) -> list[str]:
        """Layout "helper": the helper runs every item itself (in parallel with OpenMP when
        worth it)."""
        return [f"{INDENT}{function}({', '.join(args)});"]

    # -- entry point ------------------------------------------------------------------------
    def render_entry(self, program: Program) -> str:
        lines = Lines()
        params = [f"void *{b.name}_ptr" for b in program.inputs + program.outputs]
        lines.add(f"/* Entry point: inputs ({', '.join(b.name for b in program.inputs) or 'none'})"
                  f", outputs ({', '.join(b.name for b in program.outputs) or 'none'}). "
                  f"{self.entry_returns} */")
        lines.add(f"{self.entry_qualifier}int {program.name}({', '.join(params) or 'void'}) {{")
        lines.depth += 1
        # Loop bounds, switch indices and kernel scalar arguments read inputs too: the
        # statements record each buffer they read (`_entry_scalar`) as they are spelled.
        self._entry_reads: set[str] = set()
        body = Lines()
        body.depth = lines.depth
        self._render_statements(body, program.body)
        used = {b.name for args in self._kernel_args.values() for b in args}
        used |= {view.root.name for view in program.views} | self._entry_reads
        for b in program.inputs:
            if b.name in used:
                lines.add(f"const {C_TYPE[b.dtype]} *{b.name} = (const {C_TYPE[b.dtype]} *)"
                          f"{b.name}_ptr;")
            else:
                lines.add(f"(void){b.name}_ptr;  /* read by no kernel (an output may return "
                          "it as is) */")
        for b in program.outputs:
            if b.name in used:
                lines.add(f"{C_TYPE[b.dtype]} *{b.name} = ({C_TYPE[b.dtype]} *){b.name}_ptr;")
            else:
                lines.add(f"(void){b.name}_ptr;  /* empty: no kernel runs on it */")
        self._entry_reads = used
        for b in program.temps:
            if b.name in self.registers and b.name in used:
                lines.add(f"{C_TYPE[b.dtype]} {b.name} = {_entry_literal(0, b.dtype)};  "
                          "/* a scalar: a local */")
        status = self._allocate_temps(lines, self._memory_temps)
        if self.long_entry_attribute and len(body.lines) > LONG_ENTRY_LINES:
            signature = 1                   # the line after the entry's comment
            lines.lines[signature:signature] = self.long_entry_attribute.splitlines()
        lines.lines.extend(body.lines)
        if status != "0":
            lines.depth -= 1
            lines.add("cleanup:")
            lines.depth += 1
            for line in self._free_temps(self._memory_temps):
                lines.add(line)
        lines.add(f"return {status};")
        lines.depth -= 1
        lines.add("}")
        return lines.text()

    # -- entry hooks: temporaries, and one-element buffers the entry reads or writes -------
    def _workspace_layout(self, temps) -> tuple[dict[str, int], int]:
        """Byte offsets of the non-empty temporaries in one block (each on a cache line of
        its own, those never live together sharing memory: workspace_layout.py), and the
        block's size."""
        key = tuple(b.name for b in temps)
        if self._layout_of.get("key") != key:
            self._layout_of = {"key": key, "layout": workspace_layout(self._program, temps)}
        return self._layout_of["layout"]

    def _keeps_workspace(self, temps) -> bool:
        total = self._workspace_layout(temps)[1]
        return 0 < total <= self.kept_workspace_max_bytes

    @staticmethod
    def _workspace_declarations() -> str:
        return (
            "/* Temporaries: one block, kept between calls. Freed, megabytes of them go back to\n"
            " * the system, and the next call's first writes fault every page in again (an RNN's\n"
            " * scan residuals: 566 page faults a call, more time than its elementwise kernels).\n"
            " * A call that finds the block taken (another thread is inside this function)\n"
            " * allocates its own. */\n"
            "#include <stdatomic.h>\n"
            "static char *tp_workspace;\n"
            "static atomic_flag tp_workspace_taken = ATOMIC_FLAG_INIT;\n"
            "static __attribute__((destructor, unused)) void tp_workspace_release(void) {\n"
            "    free(tp_workspace);\n"
            "}\n")

    def _allocate_temps(self, lines: Lines, temps) -> str:
        """Declare and allocate the temporaries; return the C expression of the status."""
        if self._keeps_workspace(temps):
            return self._allocate_in_workspace(lines, temps)
        for b in temps:
            t = C_TYPE[b.dtype]
            # An empty temporary is never written (its kernels' loops run zero times), and gcc
            # warns when such memory is handed to a kernel that reads it: give it one zeroed
            # element instead of an uninitialised one.
            if b.size == 0:
                lines.add(f"{t} *{b.name} = ({t} *)calloc(1, sizeof({t}));  /* empty */")
            else:
                lines.add(f"{t} *{b.name} = ({t} *)malloc(sizeof({t}) * {b.size});")
        if not temps:
            return "0"
        check = " || ".join(f"!{b.name}" for b in temps)
        lines.add("int status = 0;")
        with lines.block(f"if ({check})"):
            lines.add("status = 1;")
            lines.add("goto cleanup;")
        return "status"

    def _allocate_in_workspace(self, lines: Lines, temps) -> str:
        """Temporaries as pointers into the kept block (empty ones: one zeroed element each,
        as _allocate_temps gives them, allocated first so that cleanup may free them)."""
        offsets, total = self._workspace_layout(temps)
        empty = [b for b in temps if not b.size]
        for b in empty:
            t = C_TYPE[b.dtype]
            lines.add(f"{t} *{b.name} = ({t} *)calloc(1, sizeof({t}));  /* empty */")
        lines.add("int status = 0;")
        lines.add("const bool shared_space = !atomic_flag_test_and_set_explicit("
                  "&tp_workspace_taken, memory_order_acquire);")
        lines.add("char *space = shared_space ? tp_workspace : NULL;")
        with lines.block("if (!space)"):
            lines.add(f"space = (char *)aligned_alloc(64, {total});")
            lines.add("if (shared_space) tp_workspace = space;")
        with lines.block(f"if ({' || '.join(['!space'] + [f'!{b.name}' for b in empty])})"):
            lines.add("status = 1;")
            lines.add("goto cleanup;")
        for b in temps:
            if b.size and b.name in self._entry_reads:     # (a pointer no call takes: none)
                t = C_TYPE[b.dtype]
                lines.add(f"{t} *{b.name} = ({t} *)(space + {offsets[b.name]});")
        return "status"

    def _free_temps(self, temps) -> list[str]:
        if not self._keeps_workspace(temps):
            return [f"free({b.name});" for b in temps]
        return [f"free({b.name});" for b in temps if not b.size] + [
            "if (shared_space) atomic_flag_clear_explicit(&tp_workspace_taken, "
            "memory_order_release);",
            "else free(space);"]

    def _entry_scalar(self, scalar: EntryScalar) -> str:
        """A loop bound, flag, switch index or kernel scalar argument as the entry reads it;
        a buffer it reads is recorded, so the entry declares that buffer's pointer."""
        if scalar.buffer is None:
            return _entry_literal(scalar.value, scalar.dtype)
        buf = scalar.buffer
        # A view (a scan's slice of its xs) has no C variable of its own: the entry reads
        # through its pointer, and declares the buffer it views.
        root = buf
        while root.of is not None:
            root = root.of
        self._entry_reads.add(root.name)
        return self._read_one_element(buf)

    def _read_one_element(self, buf) -> str:
        """The entry's read of a one-element buffer (`t3[0]` in C; a local: its name)."""
        return buf.name if buf.name in self.registers else \
            self.read_element.format(name=self._pointer(buf))

    def _store_loop_index(self, lines: Lines, index, var: str) -> None:
        value = f"({C_TYPE[index.dtype]}){var}"
        lines.add(f"{index.name} = {value};" if index.name in self.registers else
                  self.write_element.format(name=index.name, value=value))

    def _argument(self, kernel: int, buf) -> str:
        """What the entry hands a kernel for `buf`: a pointer, or for a scalar held in a
        local, its value (a kernel reading it by value) or its address (any other)."""
        if buf.name in self.registers:
            return buf.name if buf.name in self._by_value.get(kernel, ()) else f"&{buf.name}"
        return self._pointer(buf)

    def _render_call(self, lines: Lines, st: Call) -> None:
        if self.plans[st.kernel].layout == "none":
            lines.add(f"/* {self.kernel_names[st.kernel]}: zero elements, not run */")
            return
        args = [self._argument(st.kernel, b) for b in self._kernel_args[st.kernel]]
        args += [self._entry_scalar(s) for s in st.scalars]
        function, call = st.kernel, self._sharing.calls.get(st.kernel)
        if call is not None:             # a shared function: its constants' values last
            function = call.function
            args += [render_literal(v, KERNEL_CONSTANT_DTYPE) for v in call.values]
        for line in self._call_lines(function, args):
            lines.add(line)

    def _call_lines(self, index: int, args: list[str]) -> list[str]:
        """The entry's call of kernel `index` (a plain call in C; a launch on a GPU)."""
        return [f"{self.kernel_names[index]}({', '.join(args)});"]

    def _render_statements(self, lines: Lines, stmts) -> None:
        position = 0
        while position < len(stmts):
            st = stmts[position]
            position += 1
            if isinstance(st, Call) and self.plans[st.kernel].shared_region:
                run = [st]
                while position < len(stmts) and isinstance(stmts[position], Call) and \
                        self.plans[stmts[position].kernel].shared_region:
                    run.append(stmts[position])
                    position += 1
                lines.add("#pragma omp parallel  /* one region for these kernels */")
                lines.add("{")
                lines.depth += 1
                for call in run:
                    self._render_call(lines, call)
                lines.depth -= 1
                lines.add("}")
            elif isinstance(st, Call):
                self._render_call(lines, st)
            elif isinstance(st, For):
                self._parity_flag(lines, st)
                lower, upper = self._loop_bounds(lines, st)
                with lines.block(f"for (int64_t {st.var} = {lower}; {st.var} < {upper}; "
                                 f"{st.var}++)"):
                    if st.index is not None and st.index_read:
                        self._store_loop_index(lines, st.index, st.var)
                    self._render_statements(lines, st.body)
                    self._swap_pointers(lines, st)
                self._restore_swapped(lines, st)
            elif isinstance(st, While):
                self._parity_flag(lines, st)
                with lines.block("for (;;)"):
                    self._render_statements(lines, st.cond)
                    lines.add(f"if (!{self._entry_scalar(EntryScalar.read(st.flag))}) break;")
                    self._render_statements(lines, st.body)
                    self._swap_pointers(lines, st)
                self._restore_swapped(lines, st)
            elif isinstance(st, Switch):
                last = len(st.cases) - 1
                index = f"(int64_t){self._entry_scalar(st.index)}"
                with lines.block(f"switch ({index} < 0 ? 0 : {index} > {last} ? {last} : "
                                 f"{index})"):
                    for k, case in enumerate(st.cases):
                        lines.add(f"case {k}: {{" if k < last else "default: {")
                        lines.depth += 1
                        self._render_statements(lines, case)
                        lines.add("break;")
                        lines.depth -= 1
                        lines.add("}")
            else:
                raise NotImplementedError(type(st).__name__)

    def _loop_bounds(self, lines, loop) -> tuple[str, str]:
        """A fori_loop's bounds as the entry's `for` reads them."""
        return self._entry_scalar(loop.lower), self._entry_scalar(loop.upper)

    @staticmethod
    def _restores(loop) -> bool:
        """Does the loop copy carries home after an odd number of swaps? (Not when its trip
        count is known to be even: Swap.restore is None.)"""
        return any(swap.restore is not None for swap in loop.swaps)

    def _parity_flag(self, lines, loop) -> None:
        if not self._restores(loop):
            return
        if self.initialised_declarations:
            lines.add(f"bool {loop.parity} = false;  /* odd number of carry pointer swaps? */")
        else:
            lines.add(f"bool {loop.parity};  /* odd number of carry pointer swaps? */")
            lines.add(f"{loop.parity} = false;")

    @staticmethod
    def _exchange(lines, swap) -> None:
        t = C_TYPE[swap.current.dtype]
        a, b = swap.current.name, swap.spare.name
        lines.add(f"{{ {t} *swap = {a}; {a} = {b}; {b} = swap; }}")

    def _swap_pointers(self, lines, loop) -> None:
        """The next carry (in the spare buffer) becomes the current one: no copy."""
        for swap in loop.swaps:
            self._exchange(lines, swap)
        if self._restores(loop):
            lines.add(f"{loop.parity} = !{loop.parity};")

    def _restore_swapped(self, lines, loop) -> None:
        if not self._restores(loop):
            return
        with lines.block(f"if ({loop.parity})"):
            for swap in loop.swaps:
                self._render_statements(lines, [swap.restore])
                self._exchange(lines, swap)

    def _pointer(self, buf) -> str:
        """The address a kernel is handed for `buf`: a view is its base's plus its offset."""
        if buf.of is None:
            return buf.name
        if buf.offset is None:           # the whole base, in another shape
            return self._pointer(buf.of)
        step = buf.offset
        position = step.var if step.reverse_length is None else \
            f"({step.reverse_length - 1} - {step.var})"
        return f"({self._pointer(buf.of)} + {position} * {step.stride})"

    def render_program(self, program: Program, header: str) -> str:
        self._buffers = {b.name: b for b in
                         program.inputs + program.outputs + program.temps + program.views}
        self._kernel_args: dict[int, list] = {}   # kernel -> the Buffers it takes
        self._swapped = swapped_buffers(program.body)
        self.plans = self.target.schedule(program)
        self.registers = self.target.registers(program)
        self._memory_temps = [b for b in program.temps if b.name not in self.registers]
        self._program, self._layout_of = program, {}
        self._by_value: dict[int, frozenset] = {}    # kernel -> scalars it takes by value
        if len(program.kernel_names) != len(program.kernels):
            raise ValueError("the Program names none or only some of its kernels: lower() "
                             "names them (names.kernel_names)")
        self.kernel_names = list(program.kernel_names)
        self._lifted = None                 # the shared function being spelled
        self._sharing = kernel_sharing.Sharing()
        # Device memory a layout asks the entry to allocate beside the temporaries, as
        # (name, element type, count): a CUDA full reduction's block partials.
        self._scratch: list[tuple[str, str, str]] = []
        self.declared_reductions = set()
        self.includes = set()
        return self.render(program, header)


# The method that spells each kind of kernel: a dialect overrides methods, never this table.
_KERNEL_METHODS = {LoopKernel: "_loop_kernel", ReduceKernel: "_reduce_kernel",
                   MatmulKernel: "_matmul_kernel", IteratedKernel: "_iterated_kernel",
                   SortKernel: "_sort_kernel", DebugKernel: "_debug_kernel",
                   HelperKernel: "_helper_kernel"}


def _entry_literal(value, dt) -> str:
    """A literal loop bound, flag or switch index as the user wrote it (`10`): nothing is
    computed on it, and a plain decimal constant takes a C type wide enough for its value,
    so the 64-bit spelling expressions need (`INT64_C(10)`) would only add noise."""
    if dtypes.is_int(dt) and -2**63 < int(value) < 2**63:
        v = int(value)
        return str(v) if v >= 0 else f"({v})"
    return render_literal(value, dt)


_ROLE_ORDER = {"const": 0, "input": 1, "temp": 2, "view": 3, "output": 4}


def _buffer_order(buf):
    """Kernel parameters in a stable order: constants, inputs, temporaries, views, outputs,
    each in the order lowering made them."""
    return _ROLE_ORDER[buf.role], buf.order, buf.name
