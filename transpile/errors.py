"""User-facing errors, and finding the user's line of code that caused them."""
from __future__ import annotations

import dis
import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class ConcretizationError(TypeError):
    """A traced value was used where Python needs a concrete one (``bool``, ``int``, ...)."""


# JAX's names for the same mistake (jax.errors.*), so that code catching them ports
# unchanged: transpile raises the one ConcretizationError for every conversion of a traced
# value (bool, int, index, array), which each of these names catches.
ConcretizationTypeError = TracerBoolConversionError = ConcretizationError
TracerIntegerConversionError = TracerArrayConversionError = ConcretizationError


class UnexpectedTracerError(RuntimeError):
    """A tracer escaped the trace that created it and was used after it ended."""


def _library_dirs() -> tuple[str, ...]:
    """transpile's directory, and NumPy's once imported: NumPy's functions call back into
    transpile (np.take(a, i) asks the traced `i` for its value), and the user's line is the
    one that called NumPy."""
    numpy = sys.modules.get("numpy")
    numpy_file = getattr(numpy, "__file__", None)
    if numpy_file is None:
        return (_PACKAGE_DIR,)
    return (_PACKAGE_DIR, os.path.dirname(os.path.abspath(numpy_file)) + os.sep)


def user_frame():
    """The innermost stack frame that belongs to user code rather than to transpile (or to
    NumPy, called by the user)."""
    skipped = _library_dirs()
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(skipped):
        frame = frame.f_back
    return frame


def user_location() -> str:
    """'file.py:12 (in fun)' for the innermost user frame, or '<unknown>'."""
    frame = user_frame()
    if frame is None:
        return "<unknown>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} (in {frame.f_code.co_name})"


# The bytecode of `a[i]` and `a[i:j]` (reads) and `a[i] = v` (writes), in Pythons 3.10 to 3.14.
_SUBSCRIPT_READS = frozenset({"BINARY_SUBSCR", "BINARY_SLICE"})
_SUBSCRIPT_WRITES = frozenset({"STORE_SUBSCR", "STORE_SLICE"})


def user_subscript() -> str | None:
    """'read' or 'write' when the innermost user frame stands at `a[i]` or `a[i] = v`, else
    None. NumPy's indexing reaches Python only through conversion hooks (`__index__`,
    `__array__`), so this is how a conversion error learns that it came from indexing."""
    frame = user_frame()
    if frame is None:
        return None
    # f_lasti counts code units before Python 3.11, bytes since.
    offset = frame.f_lasti * (2 if sys.version_info < (3, 11) else 1)
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset == offset:
            if ins.opname in _SUBSCRIPT_READS or (ins.opname == "BINARY_OP"
                                                  and ins.argrepr == "[]"):
                return "read"
            return "write" if ins.opname in _SUBSCRIPT_WRITES else None
    return None


def function_location(fun) -> str:
    code = getattr(fun, "__code__", None)
    if code is None:
        return getattr(fun, "__qualname__", repr(fun))
    return f"{code.co_filename}:{code.co_firstlineno}"


def describe_function(fun) -> str:
    name = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)
    return f"{name} at {function_location(fun)}"
