"""Loading a compiled module with cffi (ABI mode) and calling its entry point.

The entry point always has the signature `int entry(void *, ..., void *)`, so its
cffi function type is built directly with cffi's backend (`_cffi_backend`) rather than
by parsing a `cdef` string: the C parser cffi would otherwise import costs tens of
milliseconds, most of the budget of a fresh process's first (cache-hit) call.
"""
from __future__ import annotations

import functools

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


# from_buffer(array): a `char[]` cdata over a C-contiguous array's memory (no copy), passable
# as `void *`; ValueError for an array that is not C-contiguous. A partial, not a def: it runs
# once per argument of every call, and a Python-level wrapper would cost a frame each time.
from_buffer = functools.partial(backend.from_buffer, _CHAR_ARRAY)


def load_entry(so_path: str, entry: str, n_pointers: int):
    """The C function `int entry(void *, ...)` in `so_path`, callable from Python."""
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
