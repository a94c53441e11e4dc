"""The CUDA backend: the compiled-backend pipeline with the CUDA renderer, nvcc and device arrays.

Trace, simplification, lowering, the disk cache, the loader and the output plan are
`compiled_backend`'s, shared with the CPU backend; what differs is the renderer
(`CudaRenderer`), the compiler (nvcc for the device's arch, or host C++ against the emulation
header under TRANSPILE_CUDA_EMULATE=1) and the marshalling: the executable takes and returns
`tp.DeviceArray` device arrays. `f.lower(x).source` needs no GPU; compiling and
running do, and without one they raise a `CudaError` naming cudart's reason.
"""
from __future__ import annotations

import os

import numpy as np

from .. import logs
from ..codegen.cuda_render import CudaRenderer
from ..device_array import DeviceArray, device_put
from ..runtime import cudart
from ..runtime.compiler import CompileError
from ..runtime.nvcc import (EmulatedCudaCompiler, NvccCompiler, find_nvcc, normalise_arch,
                             nvcc_flags)
from .compiled_backend import CompiledBackend, CompiledExecutable, Prepared

import _cffi_backend as _ffi

_VOID_P = _ffi.new_pointer_type(_ffi.new_void_type())


class CudaExecutable(CompiledExecutable):
    """Arguments and results are `tp.DeviceArray` device arrays, passed by device pointer."""
    device_inputs = True        # tp.DeviceArray arguments are used in place, without a copy
    source_name = "module.cu"
    language = "CUDA"

    def __init__(self, prepared: Prepared, so_path: str, load_from: str | None = None):
        self._runtime = cudart.runtime()
        super().__init__(prepared, so_path, load_from)

    def _const(self, value):
        return device_put(value, backend="cuda")          # uploaded once

    def _arguments(self, arrays):
        return [_on_device(a, dt) for a, dt in zip(arrays, self._in_dtypes)]

    def _empty(self, shape, dtype):
        return DeviceArray.empty(shape, dtype)

    def _enter(self, arrays, outs):
        return self._fn(*[_ffi.cast(_VOID_P, a.ptr) for a in self._consts + arrays + outs])

    def _copy(self, array):
        return array.copy()                               # device to device

    def _literal(self, value):
        return device_put(value, backend="cuda")

    def _failure(self, status):
        return cudart.CudaError(f"the compiled CUDA function failed: "
                                f"{self._runtime.describe(status)}")


def _on_device(x, dtype) -> DeviceArray:
    if isinstance(x, DeviceArray) and x.dtype == dtype:
        return x
    host = np.asarray(x)
    return device_put(np.array(host, dtype=dtype, order="C"), backend="cuda")


class CudaBackend(CompiledBackend):
    name = "cuda"
    executable_class = CudaExecutable
    renderer_class = CudaRenderer

    def __init__(self):
        self._compiler = None

    @property
    def compiler(self):
        """Chosen on first compile, not on lower(): `.source` needs no GPU and no nvcc."""
        if self._compiler is None:
            self._compiler = _compiler_from_environment()
        return self._compiler

    def _before_compile(self, prepared: Prepared) -> None:
        cudart.runtime()           # no device or driver: a CudaError before building anything


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
    return NvccCompiler(nvcc, arch, nvcc_flags())


_backends: dict = {}


def backend() -> CudaBackend:
    """One backend per mode (a GPU, or emulation), so tests may switch TRANSPILE_CUDA_EMULATE."""
    key = cudart.emulated()
    if key not in _backends:
        _backends[key] = CudaBackend()
    return _backends[key]
