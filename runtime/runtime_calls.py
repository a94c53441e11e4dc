"""The runtime library's kernels called from Python (cffi's ABI level, no C parser).

A generated module calls tp_gemm_f64 and friends through the dynamic linker; the first-call
executor (transpile/backends/program_executor.py) calls the same functions in the same
loaded library with the same arguments, so a product it computes has the module's bits.
Pointers travel as `char *` so that element offsets are byte arithmetic on the cdata.
"""
from __future__ import annotations

import functools
import os

import _cffi_backend as backend

from . import INCLUDE_DIR

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


# tp_elementwise.h's maps: tp_map_<op>_<tag>(x, [z,] y, n)
_MAP_TYPES = {
    1: backend.new_function_type((CHAR_P, CHAR_P, _INT64), _VOID, False),
    2: backend.new_function_type((CHAR_P, CHAR_P, CHAR_P, _INT64), _VOID, False),
}
_MAP_LISTS = {"TP_UNARY_MAPS": 1, "TP_BINARY_MAPS": 2}


@functools.lru_cache(maxsize=None)
def map_spellings() -> dict:
    """op -> (arity, float32 spelling, float64 spelling): tp_runtime.h's lists of maps, the one
    place they are written (c_ops.py must spell each op the same way: a test checks). Each
    list is a macro whose continued lines hold `X(op, f32 call, f64 call)` entries."""
    with open(os.path.join(INCLUDE_DIR, "tp_runtime.h"), encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")          # join the macros' continued lines
    maps = {}
    for line in text.splitlines():
        words = line.split(None, 2)
        if len(words) == 3 and words[0] == "#define" and words[1].endswith("(X)") and \
                words[1][:-3] in _MAP_LISTS:
            arity = _MAP_LISTS[words[1][:-3]]
            for entry in words[2].split("X(")[1:]:
                op, f32, f64 = (part.strip() for part in entry.split(")")[0].split(","))
                maps[op] = (arity, f32, f64)
    return maps


@functools.lru_cache(maxsize=None)
def _map(handle, op: str, tag: str, arity: int):
    return handle.load_function(_MAP_TYPES[arity], f"tp_map_{op}_{tag}")


def elementwise_map(handle, op: str, tag: str):
    """tp_map_<op>_<tag> of the loaded runtime library: f(x, [z,] y, n) on char pointers."""
    return _map(handle, op, tag, map_spellings()[op][0])
