"""Loading a compiled module with cffi (ABI mode) and calling its entry point.

The entry point always has the signature `int entry(void *, ..., void *)`, so its
cffi function type is built directly with cffi's backend (`_cffi_backend`) rather than
by parsing a `cdef` string: the C parser cffi would otherwise import costs tens of
milliseconds, most of the budget of a fresh process's first (cache-hit) call.
"""
from __future__ import annotations

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


_INT64 = backend.new_primitive_type("int64_t")
_HOOK = backend.new_function_type((_INT64, backend.new_pointer_type(_VOID_P)),
                                  backend.new_void_type(), False)
_HOOK_SETTER = backend.new_function_type((_HOOK,), backend.new_void_type(), False)


def install_hook(so_path: str, setter_name: str, hook):
    """Give the module's `void setter(void (*)(int64_t, void **))` a Python callable as the
    hook; returns the callback object, which must stay alive as long as the module runs."""
    lib = backend.load_library(so_path, _FLAGS)     # the same handle load_entry opened
    setter = lib.load_function(_HOOK_SETTER, setter_name)
    callback = backend.callback(_HOOK, hook)
    setter(callback)
    _keep_alive.append(lib)
    return callback


def read_buffer(pointer, nbytes: int) -> bytes:
    """A copy of `nbytes` at a `void *` cdata."""
    return bytes(backend.buffer(backend.cast(_CHAR_P, pointer), nbytes)) if nbytes else b""


_CHAR_P = backend.new_pointer_type(backend.new_primitive_type("char"))
