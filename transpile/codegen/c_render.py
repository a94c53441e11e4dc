"""Render a Program as C with OpenMP: one static function per kernel and an entry point.

The renderer asks `c_expr.ExprRenderer` for each kernel's scalar body and `c_ops` for each
operation's C text. Dialect differences (qualifiers, parallel pragmas) are attributes, so
a CUDA renderer can override only those.
"""
from __future__ import annotations

import math
import re

from .. import dtypes
from .c_comment import c_comment
from .c_expr import (INDENT, ExprRenderer, Lines, LoopSpace, _short_source, buffers_of,
                     collect_affines, counter as _counter, merge_groups, walk)
from .c_ops import C_TYPE, TAG
from .c_reductions import (accumulator_type, omp_reduction_clause, reduction_init,
                           reduction_update)
from .kernel_ir import (Affine, Call, For, HelperKernel, IteratedKernel, LoopKernel, MatmulKernel, Program,
                        ReduceKernel, SortKernel, Switch, While)


# -- the renderer ----------------------------------------------------------------------------

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
    parallel_min_elements = 1 << 15      # below this, thread start-up costs more than it saves

    def __init__(self):
        self.declared_reductions: set[str] = set()
        self.includes: set[str] = set()       # extra runtime headers the kernels call into

    def render(self, program: Program, header: str) -> str:
        kernels = [self.render_kernel(k, i) for i, k in enumerate(program.kernels)]
        parts = [header, '#include "transpile.h"']
        parts += [f'#include "{name}"' for name in sorted(self.includes)] + [""]
        parts.extend(sorted(self.declared_reductions))
        if self.declared_reductions:
            parts.append("")
        parts.extend(kernels)
        parts.append(self.render_entry(program))
        return "\n".join(parts) + "\n"

    # -- kernels ----------------------------------------------------------------------------
    def render_kernel(self, kernel, index: int) -> str:
        if isinstance(kernel, LoopKernel):
            return self._loop_kernel(kernel, index)
        if isinstance(kernel, ReduceKernel):
            return self._reduce_kernel(kernel, index)
        if isinstance(kernel, MatmulKernel):
            return self._matmul_kernel(kernel, index)
        if isinstance(kernel, IteratedKernel):
            return self._iterated_kernel(kernel, index)
        if isinstance(kernel, SortKernel):
            return self._sort_kernel(kernel, index)
        if isinstance(kernel, HelperKernel):
            return self._helper_kernel(kernel, index)
        raise NotImplementedError(type(kernel).__name__)

    def kernel_signature(self, index, reads, out) -> str:
        params = [f"const {C_TYPE[b.dtype]} *{self.restrict} {b.name}" for b in reads]
        params.append(f"{C_TYPE[out.dtype]} *{self.restrict} {out.name}")
        return f"{self.kernel_qualifier} kernel_{index}({', '.join(params)})"

    def _reads(self, exprs, buffers_by_name):
        names = set()
        for e in exprs:
            buffers_of(e, names)
        return [buffers_by_name[n] for n in sorted(names, key=_buffer_order)]

    def _loop_kernel(self, k: LoopKernel, index: int) -> str:
        affines = collect_affines(k.value, [k.store])
        space = LoopSpace(k.shape, merge_groups(k.shape, affines, 0, len(k.shape)))
        lines = Lines()
        self._kernel_header(lines, index, [k.value], k.out, k.comment)
        lines.depth += 1
        parallel = math.prod(k.shape) >= self.parallel_min_elements
        self._open_loops(lines, space, 0, len(space.names), parallel)
        render = ExprRenderer(lines, space, _counter())
        value = render(k.value)
        lines.add(f"{k.out.name}[{space.render(k.store, render)}] = {value};")
        self._close_loops(lines, len(space.names))
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _iterated_kernel(self, k: IteratedKernel, index: int) -> str:
        exprs = [e for _, init, update, _ in k.carries for e in (init, update)]
        stores = [_row_major(k.shape, len(k.shape)) for _ in k.carries]
        affines = stores + [a for e in exprs for a in collect_affines(e, [])]
        space = LoopSpace(k.shape, merge_groups(k.shape, affines, 0, len(k.shape)))
        reads = self._reads(exprs, self._buffers)
        outs = [buf for *_, buf in k.carries]
        params = [f"const {C_TYPE[b.dtype]} *{self.restrict} {b.name}" for b in reads]
        params += [f"{C_TYPE[b.dtype]} *{self.restrict} {b.name}" for b in outs]
        params += ["int64_t lower", "int64_t upper"]
        self._kernel_args[index] = [b.name for b in reads] + [b.name for b in outs]
        lines = Lines()
        lines.add(c_comment(k.comment))
        lines.add(f"{self.kernel_qualifier} kernel_{index}({', '.join(params)}) {{")
        lines.depth += 1
        counter = _counter()
        self._open_loops(lines, space, 0, len(space.names),
                         math.prod(k.shape) >= self.parallel_min_elements // 64,
                         innermost_pragma="", simd_body=True)
        outer = ExprRenderer(lines, space, counter)
        for name, init, _, buf in k.carries:
            lines.add(f"{C_TYPE[buf.dtype]} {name} = {outer(init)};")
        with lines.block("for (int64_t step = lower; step < upper; step++)"):
            if any(e.kind == "var" and e.args[0] == k.index_name
                   for _, _, update, _ in k.carries for e in walk(update)):
                lines.add(f"const {C_TYPE[k.index_dtype]} {k.index_name} = "
                          f"({C_TYPE[k.index_dtype]})step;")
            inner = ExprRenderer(lines, space, counter)
            updated = [inner(update) for _, _, update, _ in k.carries]
            for (name, *_), value in zip(k.carries, updated):
                lines.add(f"{name} = {value};")
        for (name, _, _, buf), store in zip(k.carries, stores):
            lines.add(f"{buf.name}[{space.render(store)}] = {name};")
        self._close_loops(lines, len(space.names))
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _kernel_header(self, lines, index, exprs, out, comment):
        reads = self._reads(exprs, self._buffers)
        lines.add(c_comment(comment))
        lines.add(self.kernel_signature(index, reads, out) + " {")
        self._kernel_args[index] = [b.name for b in reads] + [out.name]

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
            if pragma:
                # Every worksharing or simd loop over reduced elements reduces (a parallel
                # for without the clause would race on the shared accumulator).
                lines.add(f"#pragma omp {pragma}{reduction}")
            lines.add(f"for (int64_t {space.names[k]} = 0; {space.names[k]} < "
                      f"{space.extents[k]}; {space.names[k]}++) {{")
            lines.depth += 1

    @staticmethod
    def _close_loops(lines, count):
        for _ in range(count):
            lines.depth -= 1
            lines.add("}")

    def _reduce_kernel(self, k: ReduceKernel, index: int) -> str:
        n_out, n_red = len(k.out_shape), len(k.reduce_shape)
        extents = k.out_shape + k.reduce_shape
        store = _row_major(k.out_shape, n_out + n_red)
        affines = collect_affines(k.body, [store])
        groups = merge_groups(extents, affines, 0, n_out) + \
            merge_groups(extents, affines, n_out, n_out + n_red)
        space = LoopSpace(extents, groups)
        n_out_loops = len(merge_groups(extents, affines, 0, n_out))
        lines = Lines()
        self._kernel_header(lines, index, [k.body], k.out, k.comment)
        lines.depth += 1
        total = math.prod(extents)
        out_size = math.prod(k.out_shape)
        big = total >= self.parallel_min_elements
        self._open_loops(lines, space, 0, n_out_loops, big and out_size > 1, innermost_pragma="")
        dt = k.body.dtype
        if k.combiner in ("argmax", "argmin"):
            self._arg_reduce_body(lines, space, k, n_out_loops)
        else:
            acc_t = accumulator_type(k.combiner, dt)
            lines.add(f"{acc_t} acc = {reduction_init(k.combiner, dt)};")
            clause = omp_reduction_clause(k.combiner, dt)
            if clause.startswith("tp_"):
                self._declare_reduction(clause, dt)
            red = f" reduction({clause}:acc)"
            self._open_loops(lines, space, n_out_loops, len(space.names),
                             big and out_size == 1, reduction=red)
            v = ExprRenderer(lines, space, _counter())(k.body)
            where = f"  /* {_short_source(k.source)} */" if k.source is not None else ""
            lines.add(reduction_update(k.combiner, dt, "acc", v) + where)
            self._close_loops(lines, len(space.names) - n_out_loops)
            if k.combiner in ("max", "min") and dtypes.is_float(dt):
                self._zero_sign_pass(lines, space, k, n_out_loops)
            lines.add(f"{k.out.name}[{space.render(store)}] = ({C_TYPE[k.out.dtype]})acc;")
        self._close_loops(lines, n_out_loops)
        lines.depth -= 1
        lines.add("}")
        return lines.text() + "\n"

    def _zero_sign_pass(self, lines, space, k, n_out_loops):
        """A zero max/min takes the sign of the last zero, as NumPy's in-order maximum (which
        returns its second operand on ties) gives; parallel and simd partial results combine
        out of order, so a zero result is redone by one serial pass (rare, and cheap)."""
        with lines.block("if (acc == 0)"):
            self._open_loops(lines, space, n_out_loops, len(space.names), False,
                             innermost_pragma="")
            v = ExprRenderer(lines, space, _counter())(k.body)
            lines.add(f"if ({v} == 0) acc = {v};")
            self._close_loops(lines, len(space.names) - n_out_loops)

    def _arg_reduce_body(self, lines, space, k, n_out_loops):
        dt = k.body.dtype
        store = _row_major(k.out_shape, len(k.out_shape) + len(k.reduce_shape))
        better = ">" if k.combiner == "argmax" else "<"
        lines.add(f"{C_TYPE[dt]} best = 0;")
        lines.add("int64_t best_index = -1;")
        self._open_loops(lines, space, n_out_loops, len(space.names), False, innermost_pragma="")
        v = ExprRenderer(lines, space, _counter())(k.body)
        position = space.names[-1]
        nan_check = f" || ({v} != {v} && best == best)" if dtypes.is_float(dt) else ""
        # The first NaN wins, as in NumPy; otherwise the first extreme value.
        lines.add(f"if (best_index < 0 || {v} {better} best{nan_check}) {{ best = {v}; "
                  f"best_index = {position}; }}")
        self._close_loops(lines, len(space.names) - n_out_loops)
        lines.add(f"{k.out.name}[{space.render(store)}] = ({C_TYPE[k.out.dtype]})best_index;")

    def _declare_reduction(self, name: str, dt):
        init = "-INFINITY" if "max" in name else "INFINITY"
        t = C_TYPE[dt]
        self.declared_reductions.add(
            f"#pragma omp declare reduction({name} : {t} : omp_out = {name}(omp_out, omp_in)) "
            f"initializer(omp_priv = {init})")

    def _matmul_kernel(self, k: MatmulKernel, index: int) -> str:
        """One call of the runtime's tp_gemm per batch group the strides cannot merge."""
        self.includes.add("tp_gemm.h")
        reads = list({o.buffer.name: o.buffer for o in (k.lhs, k.rhs)}.values())
        self._kernel_args[index] = [b.name for b in reads] + [k.out.name]
        lines = Lines()
        lines.add(c_comment(f"{k.comment}: {k.batch} x ([{k.m}x{k.k}] @ [{k.k}x{k.n}]), "
                            f"lhs strides {k.lhs.strides}, rhs strides {k.rhs.strides}"))
        lines.add(self.kernel_signature(index, reads, k.out) + " {")
        lines.depth += 1
        groups = _batch_groups(k)
        *outer, (inner_size, inner_strides) = groups or [(1, (0, 0, 0))]
        terms = [[str(o.offset)] if o.offset else [] for o in (k.lhs, k.rhs)] + [[]]
        for depth, (size, strides) in enumerate(outer):
            lines.add(f"for (int64_t b{depth} = 0; b{depth} < {size}; b{depth}++)")
            lines.depth += 1
            for t, stride in zip(terms, strides):
                if stride:
                    t.append(f"b{depth} * {stride}")
        a, b, c = (" + ".join([name] + t) for name, t in
                   zip((k.lhs.buffer.name, k.rhs.buffer.name, k.out.name), terms))
        (lb, lr, lc), (rb, rr, rc) = ((inner_strides[i],) + o.strides[-2:]
                                      for i, o in enumerate((k.lhs, k.rhs)))
        lines.add(f"tp_gemm_{TAG[k.out.dtype]}({inner_size}, {k.m}, {k.n}, {k.k}, "
                  f"{a}, {lb}, {lr}, {lc}, {b}, {rb}, {rr}, {rc}, {c}, {inner_strides[2]}, "
                  f"{k.n});")
        lines.depth = 0
        lines.add("}")
        lines.add("")
        return lines.text()

    def _sort_kernel(self, k: SortKernel, index: int) -> str:
        t = C_TYPE[k.operand.dtype]
        self.includes.add("tp_sort.h")
        self._kernel_args[index] = [k.operand.name, k.out.name, k.scratch.name]
        out_t = "int64_t" if k.indices else t
        values, indices = ("NULL", k.out.name) if k.indices else (k.out.name, "NULL")
        return "\n".join([
            f"/* {k.comment}: {k.rows} rows of {k.n}, stable, NaN last */",
            f"{self.kernel_qualifier} kernel_{index}(const {t} *{self.restrict} "
            f"{k.operand.name}, {out_t} *{self.restrict} {k.out.name}, "
            f"int64_t *{self.restrict} {k.scratch.name}) {{",
            f"{INDENT}tp_sort_{TAG[k.operand.dtype]}({k.operand.name}, {values}, {indices}, "
            f"{k.scratch.name}, {k.rows}, {k.n});",
            "}", ""])

    def _helper_kernel(self, k: HelperKernel, index: int) -> str:
        self.includes.add(k.header)
        reads = list({b.name: b for b in k.reads}.values())   # solve(a, a) reads a once
        self._kernel_args[index] = [b.name for b in reads + k.writes]
        params = [f"const {C_TYPE[b.dtype]} *{self.restrict} {b.name}" for b in reads]
        params += [f"{C_TYPE[b.dtype]} *{self.restrict} {b.name}" for b in k.writes]
        args = [b.name for b in k.reads + k.writes] + [str(int(s)) for s in k.scalars]
        return "\n".join([
            f"/* {k.comment} */",
            f"{self.kernel_qualifier} kernel_{index}({', '.join(params)}) {{",
            f"{INDENT}{k.function}({', '.join(args)});",
            "}", ""])

    # -- entry point ------------------------------------------------------------------------
    def render_entry(self, program: Program) -> str:
        lines = Lines()
        params = [f"void *{b.name}_ptr" for b in program.inputs + program.outputs]
        lines.add(f"/* Entry point: inputs ({', '.join(b.name for b in program.inputs) or 'none'})"
                  f", outputs ({', '.join(b.name for b in program.outputs) or 'none'}). "
                  "Returns 0, or 1 if a temporary could not be allocated. */")
        lines.add(f"{self.entry_qualifier}int {program.name}({', '.join(params) or 'void'}) {{")
        lines.depth += 1
        used = {name for args in self._kernel_args.values() for name in args}
        used |= {name for view in program.views
                 for name in re.findall(r"[A-Za-z_]\w*", view.pointer)}
        # Loop bounds, switch indices and kernel scalar arguments read inputs too: find them
        # in the statements' own text, whatever statement put them there.
        body = Lines()
        body.depth = lines.depth
        self._render_statements(body, program.body)
        used |= set(re.findall(r"[A-Za-z_]\w*", body.text()))
        for b in program.inputs:
            if b.name in used:
                lines.add(f"const {C_TYPE[b.dtype]} *{b.name} = (const {C_TYPE[b.dtype]} *)"
                          f"{b.name}_ptr;")
            else:
                lines.add(f"(void){b.name}_ptr;  /* not read: an output returns it as is */")
        for b in program.outputs:
            lines.add(f"{C_TYPE[b.dtype]} *{b.name} = ({C_TYPE[b.dtype]} *){b.name}_ptr;")
        for b in program.temps:
            lines.add(f"{C_TYPE[b.dtype]} *{b.name} = ({C_TYPE[b.dtype]} *)malloc("
                      f"sizeof({C_TYPE[b.dtype]}) * {max(b.size, 1)});")
        status = "0"
        if program.temps:
            check = " || ".join(f"!{b.name}" for b in program.temps)
            lines.add("int status = 0;")
            with lines.block(f"if ({check})"):
                lines.add("status = 1;")
                lines.add("goto cleanup;")
            status = "status"
        lines.lines.extend(body.lines)
        if program.temps:
            lines.depth -= 1
            lines.add("cleanup:")
            lines.depth += 1
            for b in program.temps:
                lines.add(f"free({b.name});")
        lines.add(f"return {status};")
        lines.depth -= 1
        lines.add("}")
        return lines.text()

    def _render_statements(self, lines: Lines, stmts) -> None:
        for st in stmts:
            if isinstance(st, Call):
                args = [self._pointer(name) for name in self._kernel_args[st.kernel]]
                args += list(st.scalars)
                lines.add(f"kernel_{st.kernel}({', '.join(args)});")
            elif isinstance(st, For):
                with lines.block(f"for (int64_t {st.var} = {st.lower}; {st.var} < {st.upper}; "
                                 f"{st.var}++)"):
                    if st.index is not None:
                        lines.add(f"{st.index.name}[0] = ({C_TYPE[st.index.dtype]}){st.var};")
                    self._render_statements(lines, st.body)
            elif isinstance(st, While):
                with lines.block("for (;;)"):
                    self._render_statements(lines, st.cond)
                    lines.add(f"if (!{st.flag.name}[0]) break;")
                    self._render_statements(lines, st.body)
            elif isinstance(st, Switch):
                last = len(st.cases) - 1
                index = f"(int64_t){st.index}"
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

    def _pointer(self, name: str) -> str:
        buf = self._buffers[name]
        return buf.pointer or name

    def render_program(self, program: Program, header: str) -> str:
        self._buffers = {b.name: b for b in
                         program.inputs + program.outputs + program.temps + program.views}
        self._kernel_args: dict[int, list[str]] = {}
        self.declared_reductions = set()
        self.includes = set()
        return self.render(program, header)


def _row_major(shape, nvars) -> Affine:
    coeffs, stride = [0] * nvars, 1
    for d in range(len(shape) - 1, -1, -1):
        coeffs[d] = stride
        stride *= shape[d]
    return Affine(tuple(coeffs), 0)


def _buffer_order(name: str):
    """Kernel parameters in a stable order: constants, inputs, temporaries, views, outputs."""
    prefix = name.rstrip("0123456789")
    rank = {"c": 0, "in": 1, "t": 2, "view": 3, "out": 4}.get(prefix, 5)
    return rank, int(name[len(prefix):] or 0), name


def _batch_groups(k: MatmulKernel) -> list:
    """The batch dimensions as (size, (lhs, rhs, out) strides) groups, outermost first:
    size-1 dimensions dropped, neighbours merged wherever all three operands allow it."""
    out_strides, stride = [], k.m * k.n
    for size in reversed(k.batch_shape):
        out_strides.insert(0, stride)
        stride *= size
    dims = [(size, (ls, rs, os_)) for size, ls, rs, os_ in
            zip(k.batch_shape, k.lhs.strides, k.rhs.strides, out_strides) if size != 1]
    groups = []
    for size, strides in dims:
        if groups and all(prev == s * size for prev, s in zip(groups[-1][1], strides)):
            groups[-1] = (groups[-1][0] * size, strides)
        else:
            groups.append((size, strides))
    return groups
