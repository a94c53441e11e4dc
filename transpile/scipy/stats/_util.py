"""What every distribution shares: promoting its arguments as JAX's `promote_args_inexact`
does (to one inexact dtype; integers and bools to float64 under transpile's NumPy rules)."""
from __future__ import annotations

from ... import dtypes
from ... import numpy as tnp
from ...numpy._util import operand


def promote_inexact(*args):
    """The arguments as arrays of their common dtype, made floating if it is not."""
    args = [operand(a) for a in args]
    common = tnp.result_type(*args)
    if not dtypes.is_inexact(common):
        common = dtypes.float64
    return [tnp.asarray(a, dtype=common) for a in args]
