"""Large results of compiled calls reuse the memory of earlier results that were freed.

A fresh array of megabytes is mapped from the system (malloc maps anything over 32 MB, and
often less) and the kernel zeroes each page on its first write; then the compiled code writes
it again. For vmap(grad)'s per-example gradients (128 x 784 x 128 float32, 51 MB a call) the
kernel's zeroing was 55% of the call's CPU time (perf: clear_page_erms), the kernel that
computes them 5%. XLA's allocator keeps such blocks too.

Here every large result is a view of a block (a uint8 array) that this pool keeps a reference
to. A block is free again exactly when nothing but the pool references it: every view of a
result, however derived (slices, reshapes, memoryviews, cffi buffers), holds its block as
NumPy's base, so `sys.getrefcount` tells. The next result of the same size takes a free block
instead of a new one. The pool holds at most POOL_MAX_BYTES (in use or free); beyond that,
results are ordinary arrays. Small results never come here: for them malloc already reuses
memory, and a microsecond shows on their calls.
"""
from __future__ import annotations

import os
import sys
import threading

import numpy as np

from .eager_array import EagerArray

POOLED_MIN_BYTES = 4 << 20        # smaller results: plain EagerArray(shape, dtype)
POOL_MAX_BYTES = 256 << 20        # memory the pool may hold, its blocks in use or free
BLOCKS_PER_SIZE = 2               # a result, and the next one computed while it is alive

_lock = threading.Lock()          # taking a block and viewing it must be one step
_blocks: dict[int, list[np.ndarray]] = {}
_held = [0]                       # bytes in _blocks


def _references_to_a_free_block() -> int:
    """getrefcount of a block only the pool holds, seen as pooled_array sees it (the list,
    the loop variable, getrefcount's argument: measured, as CPython versions differ)."""
    for block in [np.empty(0)]:
        return sys.getrefcount(block)


_FREE_REFS = _references_to_a_free_block()


def _new_lock_in_child() -> None:
    """A fork while another thread held the lock would leave the child's copy locked."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock_in_child)


def output_factory(shape: tuple, dtype):
    """What makes a result of this shape and dtype: EagerArray itself for a small one (the
    per-call path stays as it was), the pooled allocator for a large one."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    return pooled_array if nbytes >= POOLED_MIN_BYTES else EagerArray


def pooled_array(shape: tuple, dtype) -> EagerArray:
    """An uninitialised EagerArray, on a free pooled block of its size when there is one."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    with _lock:
        same_size = _blocks.setdefault(nbytes, [])
        for block in same_size:
            if sys.getrefcount(block) <= _FREE_REFS:
                return EagerArray(shape, dtype, buffer=block)
        if len(same_size) >= BLOCKS_PER_SIZE or _held[0] + nbytes > POOL_MAX_BYTES:
            return EagerArray(shape, dtype)
        block = np.empty(nbytes, np.uint8)
        same_size.append(block)
        _held[0] += nbytes
        return EagerArray(shape, dtype, buffer=block)
