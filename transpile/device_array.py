"""`tp.DeviceArray`: the CUDA backend's device array, and `device_put` / `device_get` as in JAX.

A DeviceArray owns one cudaMalloc'd buffer (freed when the last DeviceArray using it goes away),
exposes it to other GPU libraries without a copy (`__cuda_array_interface__` v3 and
DLPack), and copies to the host on `np.asarray`. Work is queued on the legacy default
stream, so results are ready at the next synchronising call; a kernel fault surfaces
there as a `CudaError`.
"""
from __future__ import annotations

import ctypes
import os
import weakref

import numpy as np

from .runtime import cudart

_KDL_CPU, _KDL_CUDA = 1, 2
_DL_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


class _DeviceBuffer:
    __slots__ = ("ptr", "nbytes", "__weakref__")

    def __init__(self, nbytes: int):
        rt = cudart.runtime()
        self.ptr, self.nbytes = rt.malloc(nbytes), nbytes
        weakref.finalize(self, rt.free, self.ptr)


class DeviceArray:
    """A device array: `.shape`, `.dtype`, CAI v3, DLPack, `block_until_ready()`;
    `np.asarray(a)` copies it to the host."""
    __slots__ = ("shape", "dtype", "_buffer", "__weakref__")

    def __init__(self, buffer: _DeviceBuffer, shape, dtype):
        self._buffer, self.shape, self.dtype = buffer, tuple(shape), np.dtype(dtype)

    @staticmethod
    def empty(shape, dtype) -> "DeviceArray":
        dtype = np.dtype(dtype)
        return DeviceArray(_DeviceBuffer(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize),
                     shape, dtype)

    @property
    def ptr(self) -> int:
        return self._buffer.ptr

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def copy(self) -> "DeviceArray":
        out = DeviceArray.empty(self.shape, self.dtype)
        if self.nbytes:
            cudart.runtime().copy_on_device(out.ptr, self.ptr, self.nbytes)
        return out

    def block_until_ready(self) -> "DeviceArray":
        cudart.runtime().synchronize()
        return self

    def __array__(self, dtype=None, copy=None):
        host = np.empty(self.shape, self.dtype)
        if self.nbytes:
            cudart.runtime().copy_to_host(host, self.ptr)
        return host if dtype is None else host.astype(dtype, copy=False)

    def __repr__(self):
        # Printed as JAX prints its arrays (and as before DeviceArray had its own name).
        return "Array" + repr(np.asarray(self)).removeprefix("array")

    # -- zero-copy exchange -------------------------------------------------------------------
    @property
    def __cuda_array_interface__(self) -> dict:
        # stream 1: the legacy default stream, where transpile queues its work; a consumer
        # on another stream synchronises with it before reading.
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "strides": None, "version": 3, "stream": 1}

    def __dlpack_device__(self) -> tuple[int, int]:
        # Emulated device memory is host memory, so emulation exports it as a CPU tensor.
        return (_KDL_CPU if cudart.runtime().emulated else _KDL_CUDA), 0

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("transpile.DeviceArray.__dlpack__ does not copy (copy=True)")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"transpile.DeviceArray lives on {self.__dlpack_device__()}, "
                              f"not {tuple(dl_device)}")
        if stream not in (None, -1, 1, 2):
            cudart.runtime().synchronize()     # the consumer's stream waits for our work
        return _dlpack_capsule(self)


# -- DLPack (legacy unversioned DLManagedTensor, which every consumer accepts) ----------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", _DELETER)]
_exported: dict[int, tuple] = {}   # manager_ctx -> (struct, shape, DeviceArray): kept alive


@_DELETER
def _dlpack_deleter(managed):
    _exported.pop(managed.contents.manager_ctx or 0, None)


_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_pyapi = ctypes.pythonapi
_pyapi.PyCapsule_New.restype = ctypes.py_object
_pyapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR]
_pyapi.PyCapsule_IsValid.restype = ctypes.c_int
_pyapi.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_pyapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
_pyapi.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]


@_CAPSULE_DESTRUCTOR
def _capsule_destructor(capsule):
    # A capsule still named "dltensor" was never consumed: release it ourselves.
    if _pyapi.PyCapsule_IsValid(capsule, b"dltensor"):
        pointer = _pyapi.PyCapsule_GetPointer(capsule, b"dltensor")
        _dlpack_deleter(ctypes.cast(pointer, ctypes.POINTER(_DLManagedTensor)))


def _dlpack_capsule(array: DeviceArray):
    if array.dtype.kind not in _DL_CODES:
        raise BufferError(f"DLPack export of dtype {array.dtype} is not supported")
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    managed = _DLManagedTensor()
    t = managed.dl_tensor
    t.data = array.ptr
    t.device = _DLDevice(*array.__dlpack_device__())
    t.ndim = array.ndim
    t.dtype = _DLDataType(_DL_CODES[array.dtype.kind], array.dtype.itemsize * 8, 1)
    t.shape = shape
    t.strides = None                   # C-contiguous
    t.byte_offset = 0
    key = ctypes.addressof(managed)
    managed.manager_ctx = key
    managed.deleter = _dlpack_deleter
    _exported[key] = (managed, shape, array)
    return _pyapi.PyCapsule_New(key, b"dltensor", _capsule_destructor)


# -- JAX-style devices and transfers ---------------------------------------------------------

class Device:
    """An entry of `tp.devices()`, as JAX's: `platform` ('cpu' or 'gpu'), `id`,
    `device_kind`. `jit(..., device=d)` and `device_put(x, d)` take one."""
    __slots__ = ("platform", "id", "device_kind")

    def __init__(self, platform: str, id: int = 0, device_kind: str = ""):
        self.platform, self.id, self.device_kind = platform, id, device_kind or platform

    def __eq__(self, other):
        return isinstance(other, Device) and (self.platform, self.id) == (other.platform,
                                                                           other.id)

    def __hash__(self):
        return hash((self.platform, self.id))

    def __str__(self):
        return f"{self.platform}:{self.id}"

    def __repr__(self):
        return f"{'Cpu' if self.platform == 'cpu' else 'Cuda'}Device(id={self.id})"


# Names a backend or device may be given by, and transpile's backend for each.
_PLATFORM_BACKENDS = {"cpu": "cpu", "gpu": "cuda", "cuda": "cuda"}


_usable: dict = {}      # the answer of gpu_usable, per setting of the variables it reads


def gpu_usable() -> bool:
    """Whether a CUDA device (or TRANSPILE_CUDA_EMULATE's emulation) can run work here.
    Remembered per TRANSPILE_CUDA_EMULATE/TRANSPILE_CUDART setting: without a GPU, looking
    for the runtime again costs milliseconds per device_put."""
    setting = (os.environ.get("TRANSPILE_CUDA_EMULATE"), os.environ.get("TRANSPILE_CUDART"))
    answer = _usable.get(setting)
    if answer is None:
        try:
            cudart.runtime()
            answer = True
        except cudart.CudaError:
            answer = False
        _usable[setting] = answer
    return answer


def default_backend() -> str:
    """JAX's platform name of where `jit` compiles by default: 'cpu', or 'gpu' when
    TRANSPILE_BACKEND=cuda ('interpret' runs on the CPU too)."""
    from .backends import resolve_name
    return "gpu" if resolve_name(None) == "cuda" else "cpu"


def devices(backend: str | None = None) -> list:
    """The devices of `backend` ('cpu', 'gpu'/'cuda'; default: `default_backend()`): one CPU
    device (OpenMP uses all its cores), or the CUDA device transpile runs on."""
    platform = _platform(backend or default_backend())
    if platform == "cpu":
        return [Device("cpu")]
    cudart.runtime()               # raises, saying why, where no GPU is usable
    return [Device("gpu", 0, "cuda")]


def device_count(backend: str | None = None) -> int:
    return len(devices(backend))


def _platform(name: str) -> str:
    backend = _PLATFORM_BACKENDS.get(name)
    if backend is None:
        raise ValueError(f"unknown backend or platform {name!r}: use 'cpu' or 'gpu' "
                         "(also spelt 'cuda')")
    return "cpu" if backend == "cpu" else "gpu"


def backend_of_device(device) -> str:
    """transpile's backend ('cpu' or 'cuda') for a Device or a platform name."""
    name = device.platform if isinstance(device, Device) else device
    if not isinstance(name, str) or name not in _PLATFORM_BACKENDS:
        raise ValueError(f"device {device!r} is not one of tp.devices() nor 'cpu'/'gpu'")
    return _PLATFORM_BACKENDS[name]


def device_put(x, device=None, *, backend: str | None = None):
    """Put a NumPy array (or number, or a pytree of them) on a device, as `jax.device_put`:
    on the GPU (a `tp.DeviceArray`; DeviceArrays stay) when `device`/`backend` says so, or, given
    neither, when a GPU is usable; otherwise on the CPU, where the result is an EagerArray
    copy (later writes to `x` do not change it, as JAX's copy)."""
    from .pytree import tree_map
    if device is not None and backend is not None:
        raise ValueError("device_put: pass device or backend, not both")
    chosen = device if device is not None else backend
    if chosen is None:
        target = "cuda" if gpu_usable() else "cpu"
    else:
        target = backend_of_device(chosen)
    return tree_map(_put_leaf if target == "cuda" else _host_copy, x)


def _put_leaf(x):
    if isinstance(x, DeviceArray):
        return x
    host = np.ascontiguousarray(x) if np.ndim(x) else np.array(x)
    out = DeviceArray.empty(host.shape, host.dtype)
    if out.nbytes:
        cudart.runtime().copy_to_device(out.ptr, host)
    return out


def _host_copy(x):
    from .eager_array import EagerArray
    host = np.asarray(x) if isinstance(x, DeviceArray) else np.array(x, order="C")
    return host.view(EagerArray)


def device_get(x):
    """Copy DeviceArrays (anywhere in a pytree) to the host as NumPy arrays."""
    from .pytree import tree_map
    return tree_map(lambda a: np.asarray(a) if isinstance(a, DeviceArray) else a, x)
