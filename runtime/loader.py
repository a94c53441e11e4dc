"""Loading a compiled module with cffi (ABI mode) and calling its entry point.

The entry point always has the signature `int entry(void *, ..., void *)`, so its
cffi function type is built directly with cffi's backend (`_cffi_backend`) rather than
by parsing a `cdef` string: the C parser cffi would otherwise import costs tens of
milliseconds, most of the budget of a fresh process's first (cache-hit) call.
"""
from __future__ import annotations

import os

import _cffi_backend as backend


class LoadError(RuntimeError):
    pass


_VOID_P = backend.new_pointer_type(backend.new_void_type())
_INT = backend.new_primitive_type("int")
_CHAR_ARRAY = backend.new_array_type(backend.new_pointer_type(backend.new_primitive_type("char")),
                                     None)
# RTLD_NODELETE: a library is never unmapped. cffi would dlclose one when its last reference
# dies (or at interpreter shutdown); if it was the last user of libgomp, that unmaps the code
# OpenMP's idle worker threads are parked in: a crash. Compiled modules are small and one
# per specialisation, so keeping them is cheap (JAX and Numba keep compiled code too).
_FLAGS = backend.RTLD_NOW | getattr(backend, "RTLD_NODELETE", 0)
_keep_alive: list = []


def from_buffer(array):
    """A `char[]` cdata over an array's memory (no copy), passable as `void *`."""
    return backend.from_buffer(_CHAR_ARRAY, array, False)


def prefer_passive_waiting() -> None:
    """Idle OpenMP threads sleep instead of spinning, unless the user chose otherwise.

    libgomp reads its policy once, when it is loaded (with the first compiled module). Its
    default spins idle threads for a while before sleeping: on a machine whose cores are
    busy with other work, spinning threads and descheduled ones make every parallel region
    wait, and a 260k-element map took 17 ms instead of 0.07 ms (benchmarks/bench_parallel.py,
    README "Threads"). OMP_WAIT_POLICY or GOMP_SPINCOUNT set by the user win."""
    if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"


def load_entry(so_path: str, entry: str, n_pointers: int):
    """The C function `int entry(void *, ...)` in `so_path`, callable from Python."""
    if not _keep_alive:
        prefer_passive_waiting()
    try:
        lib = backend.load_library(so_path, _FLAGS)
    except OSError as err:
        hint = ""
        if "failed to map segment" in str(err) or "operation not permitted" in str(err).lower():
            hint = (" The cache directory may be on a filesystem mounted noexec; set "
                    "TRANSPILE_CACHE_DIR to a directory that allows executing code.")
        raise LoadError(f"could not load compiled module {so_path}: {err}.{hint}") from err
    function_type = backend.new_function_type((_VOID_P,) * n_pointers, _INT, False)
    function = lib.load_function(function_type, entry)
    _keep_alive.append(lib)
    return function
