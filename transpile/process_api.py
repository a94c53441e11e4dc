"""JAX's single-process and naming helpers, which training scripts call unconditionally:
`local_device_count()` to size per-device batches, `process_index()` to decide who logs,
`named_scope`/`named_call` to label profiles, `ensure_compile_time_eval()` around tables
computed at trace time.

transpile runs one process on one device (the CPU, or the CUDA device under
TRANSPILE_BACKEND=cuda), so these answer for that: the device lists are `devices()`'s, the
process is number 0 of 1, names label nothing (transpile's C carries source-line comments
instead), and compile-time evaluation is already what happens: values that do not depend on
a traced argument are computed eagerly while tracing, with or without the context manager.
"""
from __future__ import annotations

import contextlib

from .device_array import devices


def local_devices(process_index: int | None = None, backend: str | None = None) -> list:
    """The devices of this process (all of them: transpile runs one process)."""
    if process_index not in (None, 0):
        raise ValueError(f"local_devices: process_index={process_index!r}, but transpile "
                         "runs a single process (index 0)")
    return devices(backend)


def local_device_count(backend: str | None = None) -> int:
    return len(local_devices(backend=backend))


def process_index(backend: str | None = None) -> int:
    return 0


def process_count(backend: str | None = None) -> int:
    return 1


@contextlib.contextmanager
def named_scope(name: str):
    """Accepted for JAX's API: the name labels nothing in transpile's IR or C."""
    if not isinstance(name, str):
        raise TypeError(f"named_scope: 'name' must be a str, got {type(name).__name__}")
    yield


def named_call(fun, *, name: str | None = None):
    """`fun` itself (JAX wraps it to name its jaxpr's sub-computation)."""
    return fun


@contextlib.contextmanager
def ensure_compile_time_eval():
    """Accepted for JAX's API: transpile already evaluates, while tracing, every operation
    whose operands do not depend on a traced argument."""
    yield


__all__ = ["ensure_compile_time_eval", "local_device_count", "local_devices", "named_call",
           "named_scope", "process_count", "process_index"]
