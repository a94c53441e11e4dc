"""Arrays to and from bytes, text and files, and their printed forms: these run on the host
with NumPy (values must be concrete), as JAX's do."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer


def _concrete(x, name):
    if isinstance(x, Tracer):
        raise TypeError(f"{name} needs a concrete array (it runs on the host); call it "
                        f"outside jit")
    return np.asarray(x)


def _result(values):
    from ._creation import asarray
    return asarray(values)


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """The bytes of `buffer` read as a 1-d array of `dtype`."""
    return _result(np.frombuffer(buffer, dtype=dtypes.canonicalize(dtype) if dtype is not float
                                 else np.float64, count=count, offset=offset))


def fromstring(string, dtype=float, count=-1, *, sep):
    """Numbers in text separated by `sep` (NumPy's text mode; binary mode is frombuffer)."""
    return _result(np.fromstring(string, dtype=np.float64 if dtype is float else dtype,
                                 count=count, sep=sep))


def fromiter(*args, **kwargs):
    raise NotImplementedError("fromiter is not implemented, as in JAX (an iterator may not be "
                              "pure); build a list and call tnp.asarray(list(iterable))")


def fromfile(*args, **kwargs):
    raise NotImplementedError("fromfile is not implemented, as in JAX (file reads are not "
                              "pure); read with numpy.fromfile and pass the result to "
                              "tnp.asarray")


def load(file, *args, **kwargs):
    """numpy.load, with an array result made a transpile array. NumPy saves bfloat16 as
    2-byte void (it does not know the type); as in JAX, such data loads as bfloat16."""
    out = np.load(file, *args, **kwargs)
    if not isinstance(out, np.ndarray):
        return out
    if out.dtype == np.dtype("V2"):
        out = out.view(dtypes.require_bfloat16())
    if out.dtype.newbyteorder("=") not in dtypes.SUPPORTED:
        return out              # object or string data: NumPy's array, as JAX returns it
    return _result(out)


def save(file, arr, allow_pickle=True):
    np.save(file, _concrete(arr, "save"), allow_pickle=allow_pickle)


def savez(file, *args, **kwds):
    np.savez(file, *[_concrete(a, "savez") for a in args],
             **{k: _concrete(v, "savez") for k, v in kwds.items()})


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return np.array_repr(_concrete(arr, "array_repr"), max_line_width, precision,
                         suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return np.array_str(_concrete(a, "array_str"), max_line_width, precision, suppress_small)
