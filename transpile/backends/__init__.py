"""Backends: how a traced IR becomes something callable.

- `interpret` runs the IR on NumPy (the test suite's reference).
- `cpu` emits C with OpenMP, compiles it with the system C compiler and loads it with cffi.

A CUDA backend (CUDA C through nvcc) is designed for but not built yet; asking for it is a
clear error rather than a silent fallback.
"""
from __future__ import annotations

import os

NAMES = ("cpu", "interpret")


def resolve_name(name: str | None) -> str:
    name = name or os.environ.get("TRANSPILE_BACKEND") or "cpu"
    if name == "cuda":
        raise ValueError("backend 'cuda' is not available in this version of transpile; "
                         "use backend='cpu' (C + OpenMP) or 'interpret'")
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
    raise ValueError(f"unknown backend {name!r}")
