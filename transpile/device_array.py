"""`tp.Array`: the CUDA backend's device array, and `device_put` / `device_get` as in JAX.

An Array owns one cudaMalloc'd buffer (freed when the last Array using it goes away),
exposes it to other GPU libraries without a copy (`__cuda_array_interface__` v3 and
DLPack), and copies to the host on `np.asarray`. Work is queued on the legacy default
stream, so results are ready at the next synchronising call; a kernel fault surfaces
there as a `CudaError`.
"""
from __future__ import annotations

import ctypes
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


class Array:
    """A device array: `.shape`, `.dtype`, CAI v3, DLPack, `block_until_ready()`;
    `np.asarray(a)` copies it to the host."""
    __slots__ = ("shape", "dtype", "_buffer", "__weakref__")

    def __init__(self, buffer: _DeviceBuffer, shape, dtype):
        self._buffer, self.shape, self.dtype = buffer, tuple(shape), np.dtype(dtype)

    @staticmethod
    def empty(shape, dtype) -> "Array":
        dtype = np.dtype(dtype)
        return Array(_DeviceBuffer(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize),
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

    def copy(self) -> "Array":
        out = Array.empty(self.shape, self.dtype)
        if self.nbytes:
            cudart.runtime().copy_on_device(out.ptr, self.ptr, self.nbytes)
        return out

    def block_until_ready(self) -> "Array":
        cudart.runtime().synchronize()
        return self

    def __array__(self, dtype=None, copy=None):
        host = np.empty(self.shape, self.dtype)
        if self.nbytes:
            cudart.runtime().copy_to_host(host, self.ptr)
        return host if dtype is None else host.astype(dtype, copy=False)

    def __repr__(self):
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
            raise BufferError("transpile.Array.__dlpack__ does not copy (copy=True)")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"transpile.Array lives on {self.__dlpack_device__()}, "
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
_exported: dict[int, tuple] = {}      # manager_ctx -> (struct, shape array, Array): kept alive


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


def _dlpack_capsule(array: Array):
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


# -- JAX-style transfers -------------------------------------------------------------------------

def device_put(x, backend: str = "cuda"):
    """Copy a NumPy array (or number, or a pytree of them) to the device; Arrays stay."""
    from .pytree import tree_map
    if backend != "cuda":
        raise ValueError(f"device_put: backend {backend!r} has no device arrays; use 'cuda'")
    return tree_map(_put_leaf, x)


def _put_leaf(x):
    if isinstance(x, Array):
        return x
    host = np.ascontiguousarray(x) if np.ndim(x) else np.array(x)
    out = Array.empty(host.shape, host.dtype)
    if out.nbytes:
        cudart.runtime().copy_to_device(out.ptr, host)
    return out


def device_get(x):
    """Copy Arrays (anywhere in a pytree) to the host as NumPy arrays."""
    from .pytree import tree_map
    return tree_map(lambda a: np.asarray(a) if isinstance(a, Array) else a, x)
