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
import os

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
SPIN_COUNT = "1000"        # idle OpenMP threads: spins before sleeping (prefer_brief_spinning)


def prefer_brief_spinning() -> None:
    """Idle OpenMP threads spin briefly, then sleep, unless the user chose otherwise.

    libgomp reads its policy once, when it is loaded (with the first compiled module). Its
    default spins idle threads 300,000 times before sleeping: on a machine whose cores are
    busy with other work, spinning threads and descheduled ones make every parallel region
    wait (a 260k-element map took 17 ms instead of 0.07 ms). Sleeping at once (PASSIVE)
    costs a wake-up per region instead, about 50 us on the development VM: half the speed of
    regions that follow each other. GOMP_SPINCOUNT=1000 (tens of microseconds) keeps the
    threads awake between back-to-back regions and bounds what a wait for a descheduled
    partner burns (benchmarks/bench_parallel.py, README "Threads"). OMP_WAIT_POLICY or
    GOMP_SPINCOUNT set by the user win."""
    if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
        os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT


class Module:
    """A loaded library and its entry function; the library closes when this is collected."""
    __slots__ = ("library", "function", "__weakref__")

    def __init__(self, library, function):
        self.library, self.function = library, function


def load_entry(so_path: str, entry: str, n_pointers: int) -> Module:
    """The C function `int entry(void *, ...)` in `so_path`, callable as `.function`."""
    prefer_brief_spinning()        # before the module can bring the OpenMP runtime in
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


def load_library(so_path: str):
    """Load a shared library for the rest of the process (the runtime library, which modules
    are linked against): RTLD_NODELETE, and the handle returned is never closed."""
    prefer_brief_spinning()        # the library brings the OpenMP runtime in
    try:
        lib = backend.load_library(so_path, backend.RTLD_NOW | _NODELETE)
    except OSError as err:
        raise LoadError(f"could not load {so_path}: {err}") from err
    openmp.pin_runtime()
    return lib


_INT64 = backend.new_primitive_type("int64_t")
_HOOK = backend.new_function_type((_INT64, backend.new_pointer_type(_VOID_P)),
                                  backend.new_void_type(), False)
_HOOK_SETTER = backend.new_function_type((_HOOK,), backend.new_void_type(), False)
_CHAR_P = backend.new_pointer_type(backend.new_primitive_type("char"))


def make_hook(fn):
    """A C function pointer `void (*)(int64_t, void **)` calling `fn`; it must stay alive as
    long as any module may call it."""
    return backend.callback(_HOOK, fn)


def set_hook(module: Module, setter_name: str, hook) -> None:
    """Call the module's `void setter(void (*)(int64_t, void **))` with `hook`."""
    module.library.load_function(_HOOK_SETTER, setter_name)(hook)


def read_buffer(pointer, nbytes: int) -> bytes:
    """A copy of `nbytes` at a `void *` cdata."""
    return bytes(backend.buffer(backend.cast(_CHAR_P, pointer), nbytes)) if nbytes else b""
