"""The Python side of debug.print in compiled code: the generated C calls this hook with a
print's number and pointers to its values; the hook copies them into NumPy arrays and
prints them as the eager path does (rules/effects.emit)."""
from __future__ import annotations

import math

import numpy as np

from ..rules.effects import emit
from ..runtime.loader import make_hook, read_buffer, set_hook

# One printer and callback per compiled module, alive for the whole process: the hook is a
# global of the library, which every Executable loading the same binary shares, so no
# Executable's lifetime may decide when it is freed. (The effects are the same for all of
# them: their formats are part of the source, hence of the binary's cache key.)
_printers: dict = {}


class DebugPrinter:
    """A hook for a program whose debug prints are `effects` ((fmt, treedef, avals) each).
    An exception cannot cross the C frames, so the first one is kept and `raise_pending`
    raises it once the compiled call has returned."""

    def __init__(self, effects):
        self.effects = effects
        self.pending: BaseException | None = None

    def __call__(self, effect, values):
        try:
            self._print(effect, values)
        except BaseException as err:     # noqa: BLE001 (re-raised by raise_pending)
            if self.pending is None:
                self.pending = err

    def raise_pending(self):
        err, self.pending = self.pending, None
        if err is not None:
            raise err

    def _print(self, effect, values):
        fmt, treedef, avals = self.effects[effect]
        arrays = []
        for k, (shape, dtype) in enumerate(avals):
            nbytes = math.prod(shape) * np.dtype(dtype).itemsize
            data = read_buffer(values[k], nbytes)
            arrays.append(np.frombuffer(data, dtype=dtype).reshape(shape))
        emit(fmt, treedef, arrays)


def install_printer(module, setter_name: str, so_path: str, effects) -> DebugPrinter:
    """Point the module's debug hook at the printer for its binary (made on first use)."""
    entry = _printers.get(so_path)
    if entry is None:
        printer = DebugPrinter(effects)
        entry = _printers[so_path] = (printer, make_hook(printer))
    set_hook(module, setter_name, entry[1])
    return entry[0]
