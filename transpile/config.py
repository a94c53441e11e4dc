"""Process-wide settings, spelled as JAX spells its own: ``transpile.config.update(name, value)``.

Two settings decide every dtype transpile picks:

- ``transpile_dtype_rules``: ``"numpy"`` (NumPy 2's promotion, NEP 50; the default) or
  ``"jax"`` (JAX's promotion lattice, weak types and defaults; see dtypes_jax.py).
- ``jax_enable_x64``: under JAX's rules, whether 64-bit dtypes exist. Off (JAX's default),
  Python floats and ints default to float32/int32 and 64-bit inputs become 32-bit, as in JAX.
  NumPy's rules always have 64-bit dtypes, so the flag changes nothing there.

Environment variables set the starting values: ``TRANSPILE_DTYPE_RULES=jax|numpy`` and
``JAX_ENABLE_X64`` or ``TRANSPILE_ENABLE_X64`` (``1``/``true``/``0``/``false``).

Both settings are read while tracing, so they belong to every compiled specialisation:
``token()`` names the current combination and is part of the jit cache keys (memory and disk).
This module sits at the bottom of the layers: it imports nothing from transpile.
"""
from __future__ import annotations

import contextlib
import os

RULES = ("numpy", "jax")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _env_flag(names) -> bool:
    for name in names:
        raw = os.environ.get(name)
        if raw is None:
            continue
        if raw.strip().lower() in _TRUE:
            return True
        if raw.strip().lower() in _FALSE:
            return False
        raise ValueError(f"environment variable {name}={raw!r} is not a boolean; use 1 or 0")
    return False


def _env_rules() -> str:
    raw = os.environ.get("TRANSPILE_DTYPE_RULES", "numpy").strip().lower()
    if raw not in RULES:
        raise ValueError(f"environment variable TRANSPILE_DTYPE_RULES={raw!r} must be one of "
                         f"{', '.join(RULES)}")
    return raw


class Config:
    """The settings object; ``transpile.config`` is its one instance."""

    def __init__(self):
        self._values = {"transpile_dtype_rules": _env_rules(),
                        "jax_enable_x64": _env_flag(("JAX_ENABLE_X64", "TRANSPILE_ENABLE_X64"))}
        self._token = self._compute_token()
        self._listeners = []

    def update(self, name: str, value) -> None:
        """Set one setting, e.g. ``config.update("jax_enable_x64", True)``."""
        if name not in self._values:
            raise AttributeError(f"unknown setting {name!r}; transpile has "
                                 + ", ".join(sorted(self._values)))
        if name == "transpile_dtype_rules":
            if value not in RULES:
                raise ValueError(f"transpile_dtype_rules must be one of {RULES}, got {value!r}")
        elif not isinstance(value, (bool, int)):
            raise TypeError(f"{name} takes a bool, got {type(value).__name__} {value!r}")
        self._values[name] = value if name == "transpile_dtype_rules" else bool(value)
        self._changed()

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"transpile.config has no setting {name!r}")

    @contextlib.contextmanager
    def settings(self, **values):
        """Set some settings for a ``with`` block, restoring them after it."""
        old = dict(self._values)
        try:
            for name, value in values.items():
                self.update(name, value)
            yield self
        finally:
            self._values = old
            self._changed()

    def on_change(self, callback) -> None:
        """Call `callback()` after every change (eager arrays switch their operators so)."""
        self._listeners.append(callback)
        callback()

    def _changed(self) -> None:
        self._token = self._compute_token()
        for callback in self._listeners:
            callback()

    def _compute_token(self) -> str:
        if self._values["transpile_dtype_rules"] == "numpy":
            return ""                 # NumPy's rules: keys exactly as before the setting existed
        return "jax-x64" if self._values["jax_enable_x64"] else "jax-x32"

    def token(self) -> str:
        """'' under NumPy's rules, 'jax-x32' or 'jax-x64' under JAX's: for cache keys."""
        return self._token

    def jax_rules(self) -> bool:
        return self._token != ""

    def x64(self) -> bool:
        """Whether 64-bit dtypes exist: always under NumPy's rules, per the flag under JAX's."""
        return self._token != "jax-x32"

    def __repr__(self):
        return "transpile.config(" + ", ".join(f"{k}={v!r}" for k, v in self._values.items()) + ")"


config = Config()
update = config.update


def __getattr__(name):
    """``transpile.config.jax_enable_x64`` reads a setting, as on JAX's config."""
    return getattr(config, name)
