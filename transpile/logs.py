"""TRANSPILE_LOG=compiles,cache,source: what the JIT is doing, on stderr."""
from __future__ import annotations

import os
import sys

CHANNELS = ("compiles", "cache", "source")


def _enabled() -> set[str]:
    value = os.environ.get("TRANSPILE_LOG", "")
    names = {v.strip() for v in value.replace(";", ",").split(",") if v.strip()}
    return set(CHANNELS) if "all" in names else names


def log(channel: str, message: str) -> None:
    if channel in _enabled():
        print(f"transpile[{channel}]: {message}", file=sys.stderr, flush=True)


def compiles(message: str) -> None:
    log("compiles", message)


def cache(message: str) -> None:
    log("cache", message)


def source(message: str) -> None:
    log("source", message)


_warned: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """A loud, once-per-process warning (e.g. falling back to the interpreter)."""
    if key not in _warned:
        _warned.add(key)
        import warnings
        warnings.warn(message, RuntimeWarning, stacklevel=3)
