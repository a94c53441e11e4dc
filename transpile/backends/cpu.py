"""The CPU backend: the compiled-backend pipeline with C + OpenMP, the system C compiler and
NumPy arrays in and out (`compiled_backend` holds everything the CUDA backend shares)."""
from __future__ import annotations

import numpy as np

from .. import logs
from ..codegen.c_render import RUNTIME_DECLARATIONS, CRenderer
from ..eager_array import EagerArray
from ..output_pool import output_factory
from ..runtime import runtime_library
from ..runtime.compiler import CCompiler, compiler_problem
from ..runtime.loader import from_buffer
from . import interpret, overlapped_build
from .cached_build import load_if_cached
from .overlapped_build import OverlappedBuild
from .program_executor import ProgramExecutor, executor_problem, needs_runtime_library
from .compiled_backend import ENTRY, CompiledBackend, CompiledExecutable, Prepared, \
    prepare_source, source_header

__all__ = ["ENTRY", "CPUBackend", "Executable", "Prepared", "backend", "prepare_c",
           "source_header"]


class Executable(CompiledExecutable):
    """Arguments arrive as NumPy arrays and are passed by pointer; outputs are EagerArrays."""

    def __init__(self, prepared: Prepared, so_path: str, load_from: str | None = None):
        super().__init__(prepared, so_path, load_from)
        # (maker, shape, dtype) per output: EagerArray, or the pool's for a large one
        self._out_makers = [(output_factory(shape, dtype), shape, dtype)
                            for shape, dtype in self._out_specs]
        self._const_pointers = [from_buffer(c) for c in self._consts]

    def _const(self, value):
        return np.ascontiguousarray(value)

    def _arguments(self, arrays):
        return arrays

    def _empty(self, shape, dtype):
        return output_factory(shape, dtype)(shape, dtype)

    def _enter(self, arrays, outs):
        return self._fn(*self._const_pointers, *map(from_buffer, arrays),
                        *map(from_buffer, outs))

    def _copy(self, array):
        return np.array(array).view(EagerArray)

    def _literal(self, value):
        return value.copy().view(EagerArray)

    def _failure(self, status):
        return _allocation_failed()

    def plain_runner(self, single: bool = False, convert=None):
        """`run(args) -> outputs or None`, for the dispatch fast path: every decision made
        here once instead of per call. The caller guarantees the arguments' types, shapes and
        dtypes; `convert` (the input dtypes) is given when some are Python numbers, which
        become 0-d arrays. None comes back, before anything ran, when an array is not
        C-contiguous (from_buffer refuses it) or a number does not fit its dtype: the caller
        then takes the general path. With `single` (one output, wanted bare) the output
        itself is returned, not a list. None instead of a runner if outputs need a plan.
        Each runner holds the module (a default argument: no per-call cost), so a call in
        flight keeps its library loaded even if the memory cache lets the entry go meanwhile."""
        if not self._plain:
            return None
        fn, consts, specs, module = self._fn, tuple(self._const_pointers), self._out_makers, \
            self._module
        if single and len(specs) == 1 and not consts and convert is None:
            (new_output, shape, dtype), = specs      # the common case, spelled out

            def run_arrays(arrays, _module=module):
                try:
                    inputs = list(map(from_buffer, arrays))
                except ValueError:
                    return None
                out = new_output(shape, dtype)
                if fn(*inputs, from_buffer(out)):
                    raise _allocation_failed()
                return out
            return run_arrays

        def run(args, _module=module):
            try:
                arrays = args if convert is None else map(np.asarray, args, convert)
                inputs = [*consts, *map(from_buffer, arrays)]
            except (ValueError, OverflowError):
                return None
            outs = [make(shape, dtype) for make, shape, dtype in specs]
            if fn(*inputs, *map(from_buffer, outs)):
                raise _allocation_failed()
            return outs[0] if single else outs
        return run


def _allocation_failed() -> MemoryError:
    return MemoryError("transpile: the compiled function could not allocate its temporary "
                       "buffers")


def prepare_c(ir, consts, origin: str, signature: str, entry: str = ENTRY,
              renderer_class=CRenderer, arg_names=(), function: str = "") -> Prepared:
    """The C source of one specialisation (`Lowered.export` renders it under another entry)."""
    return prepare_source(ir, consts, origin, signature, renderer_class, entry, arg_names,
                          function)


class CPUBackend(CompiledBackend):
    name = "cpu"
    executable_class = Executable
    renderer_class = CRenderer

    def __init__(self, compiler: CCompiler):
        self.compiler = compiler

    def compile(self, prepared: Prepared, first_call: bool = False):
        """As CompiledBackend.compile; a first call not found on disk runs on the program
        executor while the module builds, where the executor computes the module's bits
        (overlapped_build.py, program_executor.py)."""
        if not (first_call and overlapped_build.enabled()):
            return super().compile(prepared)
        problem = executor_problem(prepared.program)
        if problem is not None:
            logs.compiles(f"the first call waits for the compiler: the executor cannot run "
                          f"{problem}")
            return super().compile(prepared)
        self._before_compile(prepared)
        found = load_if_cached(self, prepared)
        if found is not None:
            return found, True
        handle = (runtime_library.ensure(self.compiler, log=logs.log).handle
                  if needs_runtime_library(prepared.program) else None)
        executor = ProgramExecutor(prepared.program, prepared.consts, handle)
        return OverlappedBuild(executor, lambda: super(CPUBackend, self).compile(prepared),
                               prepared.program.name), False

    def _before_compile(self, prepared: Prepared) -> None:
        # A module calling the runtime library's kernels needs it loaded first (and built,
        # once per machine, by whichever process gets here first).
        self._link_libraries(prepared)

    def _link_libraries(self, prepared: Prepared) -> tuple[str, ...]:
        """The runtime library to link the module against: (its path,), or () when the source
        calls none of its kernels. Loads it into this process first."""
        if RUNTIME_DECLARATIONS not in prepared.headers:
            return ()
        return (runtime_library.ensure(self.compiler, log=logs.log).path,)

    def _compile_options(self) -> dict:
        # The runtime's headers precompiled once (runtime_library.prelude): parsing them was
        # a third of the compiler's time on a small module. Same code either way.
        header = runtime_library.prelude(self.compiler)
        return {"prelude": header} if header else {}


_backend = None


def backend():
    """The CPU backend, or the interpreter (with one loud warning) when there is no C compiler."""
    global _backend
    if _backend is None:
        compiler = CCompiler.from_environment()
        if compiler is None:
            logs.warn_once("no-cc", f"transpile: {compiler_problem()}; falling back to the "
                           "slow 'interpret' backend")
            _backend = interpret.BACKEND
        else:
            _backend = CPUBackend(compiler)
    return _backend
