"""Running a lowered program without its C module: the first call, while the module builds.

A function's first call used to wait for the C compiler (30-100 ms for a small module; gcc's
floor alone is about 25 ms), where JAX's whole first call of a small program is 20-60 ms.
But the lowered program (codegen/kernel_ir.Program) already says everything the module will
do: which kernels, in which order, on which buffers. This runs it directly: elementwise and
reduction kernels as NumPy array operations (numpy_kernels.py), products through the very
runtime-library GEMM the module calls, with the same arguments. Nothing is approximated:
each kernel either computes the module's bits (IEEE operations in the same order, the
module's own definitions where NumPy's differ) or the program is not run here at all
(`executor_problem` says why) and its first call waits for the compiler, as before.

What runs here: straight-line programs (no loops, conds or prints) of elementwise kernels
and reductions over bool, integer and float32/float64 values (float sums and products in
the order the module takes them: its "lanes" and in-order layouts; transcendental
functions through the runtime library's maps, the module's own helpers compiled there), and
products that call the runtime's GEMM. See numpy_kernels.py.
"""
from __future__ import annotations

import math

import numpy as np

from ..codegen.c_ops import TAG
from ..codegen.kernel_ir import Call, LoopKernel, MatmulKernel, Program, ReduceKernel, walk
from ..codegen.loop_nest import group_extents, row_major
from ..codegen.loop_schedule import CpuTarget
from ..eager_array import EagerArray
from ..output_pool import output_factory
from ..runtime import runtime_calls
from . import numpy_kernels
from .compiled_backend import distinct_outputs


def executor_problem(program: Program) -> str | None:
    """Why `program` cannot run on the executor with the module's exact results, or None."""
    if program.effects:
        return "it prints"
    if any(view.offset is not None for view in program.views):
        return "a loop's per-step view"
    for statement in program.body:
        if type(statement) is not Call or statement.scalars:
            return f"a {type(statement).__name__} statement"
    for buf in (*program.inputs, *program.outputs, *program.temps):
        if np.dtype(buf.dtype) not in numpy_kernels.DTYPES:
            return f"a {buf.dtype} buffer"
    plans = CpuTarget.schedule(program)
    for i, kernel in enumerate(program.kernels):
        problem = _kernel_problem(kernel, plans[i])
        if problem is not None:
            return problem
    return None


def _kernel_problem(kernel, plan) -> str | None:
    out = getattr(kernel, "out", None)
    if out is not None and out.root.role in ("input", "const"):
        return "a kernel writing into an argument"
    if isinstance(kernel, LoopKernel):
        store = kernel.store
        if store.dyn or any(c < 0 or (c == 0 and n > 1)
                            for c, n in zip(store.coeffs, kernel.shape)):
            return "a store at run-time, reversed or repeated positions"
        if np.dtype(kernel.value.dtype) != np.dtype(kernel.out.dtype):
            return "a store converting its value"      # C's conversion, not NumPy's cast
        problem = numpy_kernels.unsupported(kernel.value)
        if problem is None and _reads_other_elements_of(kernel):
            problem = "an in-place update reading other elements"
        return problem
    if isinstance(kernel, ReduceKernel):
        return (numpy_kernels.reduction_problem(kernel.combiner, kernel.body.dtype,
                                                kernel.out.dtype, plan)
                or numpy_kernels.unsupported(kernel.body))
    if isinstance(kernel, MatmulKernel):
        if kernel.limits is not None:
            return "a product bounded by a loop index"
        if plan.layout != "gemm":
            return "a small product the module inlines"
        if np.dtype(kernel.out.dtype).kind not in "fiu":
            return f"a {kernel.out.dtype} product"
        return None
    return f"a {type(kernel).__name__}"


def needs_runtime_library(program: Program) -> bool:
    """Does running `program` here call into the runtime library (products, maps)?"""
    return any(isinstance(k, MatmulKernel) or numpy_kernels.uses_runtime_maps(
        k.value if isinstance(k, LoopKernel) else k.body) for k in program.kernels)


def _reads_other_elements_of(kernel: LoopKernel) -> bool:
    """Does the kernel read its own output buffer anywhere but the element it writes? The
    module's loop would see elements already overwritten; a whole-array evaluation would
    not."""
    root = kernel.out.root
    return any(e.kind == "load" and e.args[0].root is root and e.args[1] != kernel.store
               for e in walk(kernel.value))


class ProgramExecutor:
    """Calls a lowered program on NumPy arrays: the same outputs, bit for bit, as its
    module's entry would give (`executor_problem(program)` must be None)."""
    compiled = False

    def __init__(self, program: Program, consts, runtime_handle=None):
        self._program = program
        self._consts = [np.ascontiguousarray(c) for c in consts]
        self._runtime = runtime_handle          # the loaded runtime library (products)
        self._sources = distinct_outputs(program.output_sources)
        self._plans = CpuTarget.schedule(program)     # the module's: its sums' orders

    def __call__(self, arrays):
        program = self._program
        inputs = [*self._consts, *arrays]
        memory = _Memory()
        for buf, array in zip(program.inputs, inputs):
            memory.arrays[buf.name] = np.ascontiguousarray(array, dtype=buf.dtype).reshape(-1)
        with np.errstate(all="ignore"):       # wrapping, inf and NaN are the results
            for statement in program.body:
                self._run(statement.kernel, memory)
        outs = [memory.flat(b).reshape(b.shape).view(EagerArray) for b in program.outputs]
        return [self._output(kind, value, outs, inputs) for kind, value in self._sources]

    @staticmethod
    def _output(kind, value, outs, inputs):
        if kind == "buffer":
            return outs[value]
        if kind == "copy":
            return np.array(outs[value]).view(EagerArray)
        if kind == "input":                     # a copy: callers own their results
            return np.array(inputs[value]).view(EagerArray)
        return value.copy().view(EagerArray)    # a literal's 0-d array

    def _run(self, index: int, memory) -> None:
        kernel = self._program.kernels[index]
        if isinstance(kernel, LoopKernel):
            if 0 in kernel.shape:
                return
            for start, shape in _blocks(kernel.shape, len(kernel.shape)):
                value = numpy_kernels.evaluate(kernel.value, shape, memory.flat,
                                               self._runtime, start)
                memory.store(kernel.out, shape, numpy_kernels.from_row(kernel.store, start),
                             value)
        elif isinstance(kernel, ReduceKernel):
            self._reduce(kernel, self._plans[index], memory)
        else:
            self._product(kernel, memory.flat)

    def _reduce(self, kernel: ReduceKernel, plan, memory) -> None:
        if 0 in kernel.out_shape:
            return
        n_out = len(kernel.out_shape)
        for start, shape in _blocks(kernel.out_shape + kernel.reduce_shape, n_out):
            values = numpy_kernels.evaluate(kernel.body, shape, memory.flat, self._runtime,
                                            start)
            result = numpy_kernels.reduce(kernel.combiner, values, n_out, kernel.out.dtype,
                                          plan, group_extents(shape, plan.groups))
            out_shape = shape[:n_out]
            memory.store(kernel.out, out_shape,
                         numpy_kernels.from_row(row_major(kernel.out_shape, n_out), start),
                         np.reshape(result, out_shape))

    def _product(self, k: MatmulKernel, flat_of) -> None:
        """The module's tp_gemm calls (c_render._gemm_call): the innermost batch group per
        call, the outer groups as loops, every offset in elements."""
        if k.m * k.n == 0:
            return
        gemm = runtime_calls.gemm(self._runtime, TAG[k.out.dtype])
        item = np.dtype(k.out.dtype).itemsize
        groups = k.batch_groups()
        *outer, (inner_size, inner_strides) = groups or [(1, (0, 0, 0))]
        bases = [runtime_calls.address(flat_of(b)) for b in (k.lhs.buffer, k.rhs.buffer, k.out)]
        (lb, lr, lc), (rb, rr, rc) = ((inner_strides[i],) + o.strides[-2:]
                                      for i, o in enumerate((k.lhs, k.rhs)))
        for position in np.ndindex(*(size for size, _ in outer)):
            offsets = [k.lhs.offset, k.rhs.offset, 0]
            for p, (_, strides) in zip(position, outer):
                offsets = [o + p * s for o, s in zip(offsets, strides)]
            a, b, c = (base + o * item for base, o in zip(bases, offsets))
            gemm(inner_size, k.m, k.n, k.k, a, lb, lr, lc, b, rb, rr, rc, c,
                 inner_strides[2], k.n)


# Elements of a loop nest evaluated at once: a kernel runs in blocks of its outermost loop's
# rows, so that its intermediate arrays stay in cache and their memory is reused (whole-array
# intermediates of a 2000x2000 int64 expression were 32 MB each, and on a first call every
# fresh page faults: NPBench's compute took 181 ms that way, 45 ms once the pages existed).
BLOCK_ELEMENTS = 1 << 16


def _blocks(shape: tuple, splittable: int):
    """(first row, block shape) covering `shape` in blocks of its outermost loop's rows, when
    that loop is one of the first `splittable` (a reduction splits its outputs only)."""
    if not splittable or not shape:
        yield 0, shape
        return
    row = math.prod(shape[1:])
    step = max(1, BLOCK_ELEMENTS // max(row, 1))
    for start in range(0, shape[0], step):
        yield start, (min(step, shape[0] - start),) + shape[1:]


class _Memory:
    """The program's buffers during one call, as flat arrays, allocated when first used. A
    kernel that writes a whole buffer in order hands over the array it computed instead of
    copying it in (on a first call every fresh page costs a fault: softmax's two 16 MB
    copies into fresh buffers were a third of its executor time)."""

    def __init__(self):
        self.arrays = {}

    def flat(self, buf) -> np.ndarray:
        root = buf.root
        array = self.arrays.get(root.name)
        if array is None:
            # results as the module's are made: a large one reuses a freed result's memory
            # (output_pool.py), whose pages need no faulting in again
            array = (output_factory(root.shape, root.dtype)(root.shape, root.dtype)
                     if root.role == "output" else np.empty(root.shape, root.dtype))
            array = self.arrays[root.name] = array.reshape(-1)
        return array

    def store(self, buf, shape, index, value) -> None:
        """buf[index(i)] = value[i] for every i in `shape`."""
        root = buf.root
        whole = buf is root and index == row_major(shape, len(shape)) and \
            math.prod(shape) == root.size
        if whole and type(value) is np.ndarray and value.flags.owndata and \
                value.flags.c_contiguous and value.dtype == root.dtype and value.shape == shape:
            self.arrays[root.name] = value.reshape(-1)      # computed here: nobody else has it
            return
        target = numpy_kernels.strided_view(self.flat(buf), shape, index)
        np.copyto(target, value, casting="unsafe")
