"""Loading a compiled module with cffi (ABI mode) and calling its entry point."""
from __future__ import annotations

import cffi


class LoadError(RuntimeError):
    pass


# Loaded libraries are never closed. cffi would dlclose one when its last reference dies, and
# if it was the only user of libgomp, that unmaps the code OpenMP's idle worker threads are
# still running: a crash. Binaries are small and one per specialisation, so keeping them is
# cheap (JAX and Numba also keep compiled code for the life of the process).
_keep_alive: list = []


def load_entry(so_path: str, entry: str, n_pointers: int):
    """The C function `int entry(void *, ...)` from `so_path`, callable from Python."""
    ffi = cffi.FFI()
    params = ", ".join(["void *"] * n_pointers) or "void"
    ffi.cdef(f"int {entry}({params});")
    try:
        lib = ffi.dlopen(so_path)
    except OSError as err:
        hint = ""
        if "failed to map segment" in str(err) or "operation not permitted" in str(err).lower():
            hint = (" The cache directory may be on a filesystem mounted noexec; set "
                    "TRANSPILE_CACHE_DIR to a directory that allows executing code.")
        raise LoadError(f"could not load compiled module {so_path}: {err}.{hint}") from err
    _keep_alive.append((ffi, lib))
    return ffi, lib, getattr(lib, entry)
