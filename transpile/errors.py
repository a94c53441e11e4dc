"""User-facing errors, and finding the user's line of code that caused them."""
from __future__ import annotations

import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class ConcretizationError(TypeError):
    """A traced value was used where Python needs a concrete one (``bool``, ``int``, ...)."""


class UnexpectedTracerError(RuntimeError):
    """A tracer escaped the trace that created it and was used after it ended."""


def user_frame():
    """The innermost stack frame that belongs to user code rather than to transpile."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return frame


def user_location() -> str:
    """'file.py:12 (in fun)' for the innermost user frame, or '<unknown>'."""
    frame = user_frame()
    if frame is None:
        return "<unknown>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} (in {frame.f_code.co_name})"


def function_location(fun) -> str:
    code = getattr(fun, "__code__", None)
    if code is None:
        return getattr(fun, "__qualname__", repr(fun))
    return f"{code.co_filename}:{code.co_firstlineno}"


def describe_function(fun) -> str:
    name = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)
    return f"{name} at {function_location(fun)}"
