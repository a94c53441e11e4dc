"""The CUDA backend: the CPU backend's pipeline with the CUDA renderer, nvcc and device arrays.

Trace, simplification, lowering, the disk cache and the loader are the CPU backend's; what
differs is the renderer (`CudaRenderer`), the compiler (nvcc for the device's arch, or host
C++ against the emulation header under TRANSPILE_CUDA_EMULATE=1) and the executable, which
takes and returns `tp.Array` device arrays. `f.lower(x).source` needs no GPU; compiling and
running do, and without one they raise a `CudaError` naming cudart's reason.
"""
from __future__ import annotations

import os

import numpy as np

from .. import logs
from ..codegen.c_render import DEBUG_HOOK_SUFFIX
from ..codegen.cuda_render import CudaRenderer
from ..device_array import Array, device_put
from ..runtime import cudart
from ..runtime.compiler import CompileError
from ..runtime.loader import load_entry
from ..runtime.nvcc import EmulatedCudaCompiler, NvccCompiler, find_nvcc, normalise_arch
from .cpu import ENTRY, CPUBackend, Prepared
from .debug_hook import install_printer

import _cffi_backend as _ffi

_VOID_P = _ffi.new_pointer_type(_ffi.new_void_type())


class CudaExecutable:
    compiled = True
    device_inputs = True        # tp.Array arguments are used in place, without a copy
    source_name = "module.cu"
    language = "CUDA"

    def __init__(self, prepared: Prepared, so_path: str, load_from: str | None = None):
        program = prepared.program
        self._runtime = cudart.runtime()
        # The module stays loaded as long as this executable: a call in flight holds it.
        self._module = load_entry(load_from or so_path, ENTRY,
                                  len(program.inputs) + len(program.outputs))
        self._fn = self._module.function
        self.so_path = so_path
        self.source_path = os.path.join(os.path.dirname(so_path), self.source_name)
        # uploaded once
        self._consts = [device_put(np.asarray(c), backend="cuda") for c in prepared.consts]
        self._in_dtypes = [b.dtype for b in program.inputs[len(self._consts):]]
        self._out_specs = [(b.shape, b.dtype) for b in program.outputs]
        self._sources = program.output_sources
        self._printer = None
        if program.effects:        # the entry copies printed values to the host for it
            self._printer = install_printer(self._module, ENTRY + DEBUG_HOOK_SUFFIX, so_path,
                                            program.effects)

    def __call__(self, arrays):
        inputs = self._consts + [_on_device(a, dt) for a, dt in zip(arrays, self._in_dtypes)]
        outs = [Array.empty(shape, dtype) for shape, dtype in self._out_specs]
        status = self._fn(*[_ffi.cast(_VOID_P, a.ptr) for a in inputs + outs])
        if self._printer is not None:
            self._printer.raise_pending()
        if status:
            raise cudart.CudaError(f"the compiled CUDA function failed: "
                                   f"{self._runtime.describe(status)}")
        return [self._output(spec, outs, inputs) for spec in self._sources]

    @staticmethod
    def _output(spec, outs, inputs):
        kind, value = spec
        if kind == "buffer":
            return outs[value]
        if kind == "input":
            return inputs[value].copy()          # callers own their results, as on the CPU
        return device_put(np.asarray(value), backend="cuda")


def _on_device(x, dtype) -> Array:
    if isinstance(x, Array) and x.dtype == dtype:
        return x
    host = np.asarray(x)
    return device_put(np.array(host, dtype=dtype, order="C"), backend="cuda")


class CudaBackend(CPUBackend):
    name = "cuda"
    executable_class = CudaExecutable

    def __init__(self):
        self.renderer_class = CudaRenderer
        self._compiler = None

    @property
    def compiler(self):
        """Chosen on first compile, not on lower(): `.source` needs no GPU and no nvcc."""
        if self._compiler is None:
            self._compiler = _compiler_from_environment()
        return self._compiler

    def compile(self, prepared: Prepared):
        cudart.runtime()           # no device or driver: a CudaError before building anything
        return super().compile(prepared)


def _compiler_from_environment():
    if cudart.emulated():
        compiler = EmulatedCudaCompiler.from_environment()
        if compiler is None:
            raise CompileError("TRANSPILE_CUDA_EMULATE=1 needs a C++ compiler (g++); "
                               "set TRANSPILE_CXX")
        return compiler
    nvcc = find_nvcc()
    if nvcc is None:
        raise CompileError("backend='cuda' needs nvcc (the CUDA toolkit); set TRANSPILE_NVCC "
                           "to its path")
    arch = os.environ.get("TRANSPILE_CUDA_ARCH")
    if arch:
        arch = normalise_arch(arch)
    else:
        major, minor = cudart.runtime().compute_capability()
        arch = f"sm_{major}{minor}"
    logs.compiles(f"CUDA backend: {nvcc} for {arch}")
    return NvccCompiler(nvcc, arch)


_backends: dict = {}


def backend() -> CudaBackend:
    """One backend per mode (a GPU, or emulation), so tests may switch TRANSPILE_CUDA_EMULATE."""
    key = cudart.emulated()
    if key not in _backends:
        _backends[key] = CudaBackend()
    return _backends[key]
