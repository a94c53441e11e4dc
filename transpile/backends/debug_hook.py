"""The Python side of debug.print in compiled code: the generated C calls this hook with a
print's number and pointers to its values; the hook copies them into NumPy arrays and
prints them as the eager path does (rules/effects.emit)."""
from __future__ import annotations

import math

import numpy as np

from ..rules.effects import emit
from ..runtime.loader import read_buffer


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
