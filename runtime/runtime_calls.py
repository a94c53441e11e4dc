"""The runtime library's kernels called from Python (cffi's ABI level, no C parser).

A generated module calls tp_gemm_f64 and friends through the dynamic linker; the first-call
executor (transpile/backends/program_executor.py) calls the same functions in the same
loaded library with the same arguments, so a product it computes has the module's bits.
Pointers travel as `char *` so that element offsets are byte arithmetic on the cdata.
"""
from __future__ import annotations

import functools

import _cffi_backend as backend

CHAR_P = backend.new_pointer_type(backend.new_primitive_type("char"))
_INT64 = backend.new_primitive_type("int64_t")
_VOID = backend.new_void_type()

# tp_runtime.h's TP_DECLARE_GEMM: (batch, m, n, k, a, a_batch, a_row, a_col, b, b_batch,
# b_row, b_col, c, c_batch, c_row), strides in elements.
_GEMM = backend.new_function_type(
    (_INT64,) * 4 + (CHAR_P,) + (_INT64,) * 3 + (CHAR_P,) + (_INT64,) * 3 + (CHAR_P,)
    + (_INT64,) * 2, _VOID, False)


@functools.lru_cache(maxsize=None)
def _gemm(handle, tag: str):
    return handle.load_function(_GEMM, f"tp_gemm_{tag}")


def gemm(handle, tag: str):
    """tp_gemm_<tag> of the loaded runtime library `handle` (RuntimeLibrary.handle)."""
    return _gemm(handle, tag)


def address(array) -> object:
    """A `char *` to an array's first element (the array must outlive the call)."""
    return backend.cast(CHAR_P, array.ctypes.data)
