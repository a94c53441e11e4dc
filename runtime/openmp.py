"""The OpenMP runtime under compiled modules: kept loaded for good, and made fork-safe.

- Compiled modules are unloaded when no call can reach them (see `loader`). The OpenMP
  runtime they link must never be: its idle worker threads are parked in its code, and
  unmapping it under them is a crash. So the first time a module brings it in (found in
  /proc/self/maps right after the module is loaded), it is opened once more with
  RTLD_NODELETE and that handle is kept.
- OpenMP thread pools do not survive `fork`: the child inherits the pool's bookkeeping but
  not its threads, and its next parallel region waits for them forever. A fork handler
  sets the child's OpenMP thread count to 1 (through the runtime's own
  `omp_set_num_threads`), so a forked child computes serially and correctly. Processes
  started with `spawn` or `forkserver` start clean and use all threads.
"""
from __future__ import annotations

import os

import _cffi_backend as backend

_RUNTIME_NAMES = ("libgomp", "libomp", "libiomp")
_pinned: dict[str, object] = {}        # path -> library handle, never closed
_set_num_threads = None
_fork_handler_registered = False


_MAPS = "/proc/self/maps"


def can_pin() -> bool:
    """Whether this process can see which libraries it has mapped (Linux)."""
    return os.path.exists(_MAPS)


def pin_runtime() -> bool:
    """Find an OpenMP runtime mapped in this process and keep it loaded; True when done."""
    global _set_num_threads
    if _pinned:
        return True
    for path in _mapped_openmp_runtimes():
        lib = backend.load_library(path, backend.RTLD_NOW | backend.RTLD_NODELETE)
        _pinned[path] = lib
        if _set_num_threads is None:
            int_type = backend.new_primitive_type("int")
            fn_type = backend.new_function_type((int_type,), backend.new_void_type(), False)
            try:
                _set_num_threads = lib.load_function(fn_type, "omp_set_num_threads")
            except (AttributeError, KeyError, OSError):
                pass
    _register_fork_handler()
    return bool(_pinned)


def _mapped_openmp_runtimes() -> list[str]:
    try:
        with open(_MAPS) as f:
            paths = {line.split()[-1] for line in f if "/lib" in line and ".so" in line}
    except OSError:
        return []
    return sorted(p for p in paths if os.path.basename(p).startswith(_RUNTIME_NAMES))


def _register_fork_handler() -> None:
    global _fork_handler_registered
    if not _fork_handler_registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_serial_in_forked_child)
        _fork_handler_registered = True


def _serial_in_forked_child() -> None:
    if _set_num_threads is not None:
        _set_num_threads(1)
