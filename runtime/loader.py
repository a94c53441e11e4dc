"""Loading a compiled module with cffi (ABI mode) and calling its entry point.

The entry point always has the signature `int entry(void *, ..., void *)`, so its
cffi function type is built directly with cffi's backend (`_cffi_backend`) rather than
by parsing a `cdef` string: the C parser cffi would otherwise import costs tens of
milliseconds, most of the budget of a fresh process's first (cache-hit) call.

A module stays loaded while its `Module` object lives (the memory cache's entry, and any
call running it, hold it); cffi closes the library when the object is collected. That is
safe because the OpenMP runtime the modules share is pinned as soon as a module brings it
in (see `openmp`); a module without OpenMP code does not link it and can go at any time.
Where the mapped libraries cannot be inspected, modules are loaded with RTLD_NODELETE and
kept for the process's life instead.
"""
from __future__ import annotations

import functools

import _cffi_backend as backend

from . import openmp


class LoadError(RuntimeError):
    pass


_VOID_P = backend.new_pointer_type(backend.new_void_type())
_INT = backend.new_primitive_type("int")
_CHAR_ARRAY = backend.new_array_type(backend.new_pointer_type(backend.new_primitive_type("char")),
                                     None)
_NODELETE = getattr(backend, "RTLD_NODELETE", 0)


# from_buffer(array): a `char[]` cdata over a C-contiguous array's memory (no copy), passable
# as `void *`; ValueError for an array that is not C-contiguous. A partial, not a def: it runs
# once per argument of every call, and a Python-level wrapper would cost a frame each time.
from_buffer = functools.partial(backend.from_buffer, _CHAR_ARRAY)


class Module:
    """A loaded library and its entry function; the library closes when this is collected."""
    __slots__ = ("library", "function", "__weakref__")

    def __init__(self, library, function):
        self.library, self.function = library, function


def load_entry(so_path: str, entry: str, n_pointers: int) -> Module:
    """The C function `int entry(void *, ...)` in `so_path`, callable as `.function`."""
    # Without a way to see which libraries are mapped, modules are never unloaded.
    flags = backend.RTLD_NOW | (0 if openmp.can_pin() else _NODELETE)
    try:
        lib = backend.load_library(so_path, flags)
    except OSError as err:
        hint = ""
        if "failed to map segment" in str(err) or "operation not permitted" in str(err).lower():
            hint = (" The cache directory may be on a filesystem mounted noexec; set "
                    "TRANSPILE_CACHE_DIR to a directory that allows executing code.")
        raise LoadError(f"could not load compiled module {so_path}: {err}.{hint}") from err
    # The module may just have brought the OpenMP runtime in: pin it before anything runs.
    openmp.pin_runtime()
    function_type = backend.new_function_type((_VOID_P,) * n_pointers, _INT, False)
    try:
        function = lib.load_function(function_type, entry)
    except (AttributeError, KeyError) as err:
        raise LoadError(f"compiled module {so_path} has no entry point {entry!r}") from err
    return Module(lib, function)
