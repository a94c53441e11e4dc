"""The dozen CUDA runtime (cudart) calls transpile makes from Python, through cffi.

Memory (malloc/free/memcpy), synchronisation, errors and device queries. Function types
are built with cffi's backend directly (no C parser, no new dependency). Every failure is
a `CudaError` carrying cudart's own name and message: no GPU, no driver, or a kernel fault
that surfaced at a synchronising call. Never a crash and never a silent CPU fallback.

With TRANSPILE_CUDA_EMULATE=1 the same calls go to a small host library built from
include/tp_cuda_emulate.h (device memory is host memory), which generated modules
compiled for emulation share.
"""
from __future__ import annotations

import ctypes.util
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading

import _cffi_backend as backend

from . import INCLUDE_DIR
from .disk_cache import cache_root
from .nvcc import cuda_library_dirs, find_nvcc


class CudaError(RuntimeError):
    """A CUDA runtime error (no device, no driver, out of memory, a faulting kernel)."""


def emulated() -> bool:
    return os.environ.get("TRANSPILE_CUDA_EMULATE", "") not in ("", "0")


_INT = backend.new_primitive_type("int")
_FLOAT = backend.new_primitive_type("float")
_SIZE = backend.new_primitive_type("size_t")
_VOID_P = backend.new_pointer_type(backend.new_void_type())
_VOID_PP = backend.new_pointer_type(_VOID_P)
_INT_P = backend.new_pointer_type(_INT)
_FLOAT_P = backend.new_pointer_type(_FLOAT)
_CHAR_P = backend.new_pointer_type(backend.new_primitive_type("char"))
_CHAR_ARRAY = backend.new_array_type(_CHAR_P, None)
_U64_P = backend.new_pointer_type(backend.new_primitive_type("uint64_t"))

_SIGNATURES = {
    "cudaMalloc": ((_VOID_PP, _SIZE), _INT),
    "cudaFree": ((_VOID_P,), _INT),
    "cudaMallocAsync": ((_VOID_PP, _SIZE, _VOID_P), _INT),
    "cudaDeviceGetDefaultMemPool": ((_VOID_PP, _INT), _INT),
    "cudaMemPoolSetAttribute": ((_VOID_P, _INT, _VOID_P), _INT),
    "cudaMemPoolTrimTo": ((_VOID_P, _SIZE), _INT),
    "cudaFreeAsync": ((_VOID_P, _VOID_P), _INT),
    "cudaMemcpy": ((_VOID_P, _VOID_P, _SIZE, _INT), _INT),
    "cudaDeviceSynchronize": ((), _INT),
    "cudaGetLastError": ((), _INT),
    "cudaGetErrorString": ((_INT,), _CHAR_P),
    "cudaGetErrorName": ((_INT,), _CHAR_P),
    "cudaGetDeviceCount": ((_INT_P,), _INT),
    "cudaGetDevice": ((_INT_P,), _INT),
    "cudaDeviceGetAttribute": ((_INT_P, _INT, _INT), _INT),
    "cudaRuntimeGetVersion": ((_INT_P,), _INT),
    "cudaDriverGetVersion": ((_INT_P,), _INT),
    # events, for benchmarks' device-side timing (a real GPU only)
    "cudaEventCreate": ((_VOID_PP,), _INT),
    "cudaEventRecord": ((_VOID_P, _VOID_P), _INT),
    "cudaEventSynchronize": ((_VOID_P,), _INT),
    "cudaEventElapsedTime": ((_FLOAT_P, _VOID_P, _VOID_P), _INT),
    "cudaEventDestroy": ((_VOID_P,), _INT),
}
HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE = 1, 2, 3
_NULL = backend.cast(_VOID_P, 0)       # the legacy default stream
_ATTR_MAJOR, _ATTR_MINOR, _ATTR_SM_COUNT = 75, 76, 16


class Runtime:
    """cudart, loaded from `path`; the first device is used."""

    def __init__(self, path: str, is_emulated: bool):
        self.path, self.emulated = path, is_emulated
        try:
            self._lib = backend.load_library(path, backend.RTLD_NOW | backend.RTLD_GLOBAL)
        except OSError as err:
            raise CudaError(f"could not load the CUDA runtime library {path}: {err}") from err
        self._functions: dict = {}
        count = backend.newp(_INT_P, 0)
        err = self._call("cudaGetDeviceCount", count)
        if err:
            raise CudaError(f"no usable CUDA device: {self.describe(err)} (cudart: {path}). "
                            "Use backend='cpu', or TRANSPILE_CUDA_EMULATE=1 to emulate a GPU "
                            "for testing")
        if count[0] == 0:
            raise CudaError("no CUDA device found (cudaGetDeviceCount returned 0)")
        self._pool = None if is_emulated else self._keep_freed_memory()

    # cudaMemPoolAttrReleaseThreshold, and cudaErrorMemoryAllocation.
    _RELEASE_THRESHOLD, _OUT_OF_MEMORY = 4, 2

    def _keep_freed_memory(self):
        """The device's default pool, told to keep what is freed. Its release threshold is 0
        by default: each synchronisation hands freed memory back to the driver, and the next
        cudaMallocAsync maps it again (on an H200, x*2+1 over 1e8 float32 took 0.74-0.93 ms
        per call, 22-27 % of copy bandwidth). CuPy's and JAX's pools keep it too."""
        pool = backend.newp(_VOID_PP, None)
        if self._call("cudaDeviceGetDefaultMemPool", pool, 0):
            self._call("cudaGetLastError")
            return None
        keep_all = backend.newp(_U64_P, 2**64 - 1)
        if self._call("cudaMemPoolSetAttribute", pool[0], self._RELEASE_THRESHOLD,
                      backend.cast(_VOID_P, keep_all)):
            self._call("cudaGetLastError")
        return pool[0]

    def _call(self, name, *args):
        fn = self._functions.get(name)
        if fn is None:
            params, result = _SIGNATURES[name]
            fn = self._lib.load_function(backend.new_function_type(params, result, False), name)
            self._functions[name] = fn
        return fn(*args)

    def describe(self, err: int) -> str:
        name = backend.string(self._call("cudaGetErrorName", err)).decode()
        text = backend.string(self._call("cudaGetErrorString", err)).decode()
        return f"{name} ({err}): {text}"

    def check(self, err: int, what: str) -> None:
        if err:
            raise CudaError(f"{what} failed: {self.describe(err)}")

    # -- memory -----------------------------------------------------------------------------
    # Stream-ordered allocation on the default stream (where every kernel runs): unlike
    # cudaMalloc/cudaFree it neither synchronises the device nor stalls the next launch.
    def malloc(self, nbytes: int) -> int:
        out = backend.newp(_VOID_PP, None)
        err = self._call("cudaMallocAsync", out, max(int(nbytes), 1), _NULL)
        if err == self._OUT_OF_MEMORY and self._pool is not None:
            # What the pool keeps may be what is missing: hand it back, then try once more.
            self._call("cudaGetLastError")
            self._call("cudaDeviceSynchronize")
            self._call("cudaMemPoolTrimTo", self._pool, 0)
            err = self._call("cudaMallocAsync", out, max(int(nbytes), 1), _NULL)
        self.check(err, f"cudaMallocAsync of {nbytes} bytes")
        return int(backend.cast(_SIZE, out[0]))

    def free(self, ptr: int) -> int:
        """Returns cudart's status instead of raising: frees run from finalizers."""
        return self._call("cudaFreeAsync", backend.cast(_VOID_P, ptr), _NULL)

    def copy_to_device(self, dst: int, array) -> None:
        src = backend.from_buffer(_CHAR_ARRAY, array, False)
        self.check(self._call("cudaMemcpy", backend.cast(_VOID_P, dst), src, array.nbytes,
                              HOST_TO_DEVICE), "copy to the device (cudaMemcpy)")

    def copy_to_host(self, array, src: int) -> None:
        dst = backend.from_buffer(_CHAR_ARRAY, array, False)
        self.check(self._call("cudaMemcpy", dst, backend.cast(_VOID_P, src), array.nbytes,
                              DEVICE_TO_HOST),
                   "copy to the host (cudaMemcpy; a fault in an earlier kernel shows here)")

    def copy_on_device(self, dst: int, src: int, nbytes: int) -> None:
        self.check(self._call("cudaMemcpy", backend.cast(_VOID_P, dst),
                              backend.cast(_VOID_P, src), nbytes, DEVICE_TO_DEVICE),
                   "device-to-device copy (cudaMemcpy)")

    def synchronize(self) -> None:
        self.check(self._call("cudaDeviceSynchronize"),
                   "cudaDeviceSynchronize (a fault in an earlier kernel shows here)")

    # -- queries ----------------------------------------------------------------------------
    def _attribute(self, attribute: int) -> int:
        value, device = backend.newp(_INT_P, 0), backend.newp(_INT_P, 0)
        self.check(self._call("cudaGetDevice", device), "cudaGetDevice")
        self.check(self._call("cudaDeviceGetAttribute", value, attribute, device[0]),
                   "cudaDeviceGetAttribute")
        return value[0]

    def compute_capability(self) -> tuple[int, int]:
        return self._attribute(_ATTR_MAJOR), self._attribute(_ATTR_MINOR)

    def multiprocessors(self) -> int:
        return self._attribute(_ATTR_SM_COUNT)

    def call(self, name: str, *args):
        """Any function of the table above (benchmarks use the event functions)."""
        return self._call(name, *args)


_runtime: Runtime | None = None
_emulation_loaded = False
_lock = threading.Lock()


def runtime() -> Runtime:
    """The process's CUDA runtime (real, or emulated under TRANSPILE_CUDA_EMULATE=1)."""
    global _runtime, _emulation_loaded
    with _lock:
        if _runtime is None or _runtime.emulated != emulated():
            if emulated():
                _runtime, _emulation_loaded = Runtime(emulated_library(), True), True
            else:
                real = Runtime(find_cudart(), False)
                _refuse_after_emulation()
                _runtime = real
        return _runtime


def _refuse_after_emulation() -> None:
    """The emulated cudart is loaded RTLD_GLOBAL (emulated modules find it by name), so its
    cudaMalloc, cudaMemcpy... shadow libcudart's for every module loaded after it: a real
    kernel would be handed host memory (seen on an H200 as cudaErrorIllegalAddress in every
    test a pytest worker ran after an emulation test)."""
    if _emulation_loaded:
        raise CudaError("this process has used TRANSPILE_CUDA_EMULATE=1, whose emulated CUDA "
                        "runtime now shadows the real one: use the GPU from another process "
                        "(emulation is for machines without one)")


def find_cudart() -> str:
    explicit = os.environ.get("TRANSPILE_CUDART")
    if explicit:
        return explicit
    for directory in cuda_library_dirs(find_nvcc()):
        for name in sorted(os.listdir(directory)):
            if name.startswith("libcudart.so"):
                return os.path.join(directory, name)
    found = ctypes.util.find_library("cudart")
    if found:
        return found
    raise CudaError("the CUDA runtime library (libcudart.so) was not found: install the CUDA "
                    "toolkit, or set TRANSPILE_CUDART to its path (or TRANSPILE_CUDA_EMULATE=1 "
                    "to emulate a GPU on the CPU for testing)")


def emulated_library() -> str:
    """Build (once per header version, cached) and return the emulated cudart library."""
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "cudart_emulate.cpp")
    digest = hashlib.sha256()
    for path in (source, os.path.join(INCLUDE_DIR, "tp_cuda_emulate.h")):
        with open(path, "rb") as f:
            digest.update(f.read())
    directory = os.path.join(cache_root(), "cudart-emulated")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    target = os.path.join(directory, f"libcudart-{digest.hexdigest()[:16]}.so")
    if os.path.exists(target):
        return target
    cxx = os.environ.get("TRANSPILE_CXX") or shutil.which("g++") or shutil.which("c++")
    if not cxx:
        raise CudaError("TRANSPILE_CUDA_EMULATE=1 needs a C++ compiler (g++); set TRANSPILE_CXX")
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=directory)
    os.close(fd)
    cmd = [cxx, "-x", "c++", "-std=c++17", "-O2", "-fPIC", "-shared", "-I", INCLUDE_DIR,
           "-o", tmp, source]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        os.unlink(tmp)
        raise CudaError(f"building the emulated CUDA runtime failed:\n{' '.join(cmd)}\n"
                        f"{proc.stderr}")
    os.replace(tmp, target)
    return target
