"""Backends: how a traced IR becomes something callable.

- `interpret` runs the IR on NumPy (the test suite's reference).
- `cpu` emits C with OpenMP, compiles it with the system C compiler and loads it with cffi.
- `cuda` emits CUDA C, builds it with nvcc (or emulates it on the CPU for testing) and
  returns device arrays; without a GPU it raises, never falling back to the CPU.
"""
from __future__ import annotations

import os

NAMES = ("cpu", "cuda", "interpret")


def resolve_name(name: str | None) -> str:
    name = name or os.environ.get("TRANSPILE_BACKEND") or "cpu"
    if name not in NAMES:
        raise ValueError(f"backend {name!r} is not one of {', '.join(NAMES)}")
    return name


def get(name: str):
    if name == "interpret":
        from . import interpret
        return interpret.BACKEND
    if name == "cpu":
        from . import cpu
        return cpu.backend()
    if name == "cuda":
        from . import cuda
        return cuda.backend()
    raise ValueError(f"unknown backend {name!r}")
