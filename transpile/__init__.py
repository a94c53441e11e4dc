"""transpile: a JIT that traces NumPy-style Python into readable C you can keep.

    import transpile as tp, transpile.numpy as tnp

    @tp.jit
    def selu(x, alpha=1.67, lambda_=1.05):
        return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)
"""
from . import lax, numpy
from .api import CacheInfo, Jitted, Lowered, block_until_ready, jit, make_ir
from .core import ShapedArray, Tracer
from .errors import ConcretizationError, UnexpectedTracerError
from .ir import IR

__version__ = "0.1.0"

__all__ = ["jit", "make_ir", "block_until_ready", "ConcretizationError", "UnexpectedTracerError",
           "Jitted", "Lowered", "CacheInfo", "IR", "ShapedArray", "Tracer", "lax", "numpy"]
