"""`transpile.numpy`: the NumPy API users write against, as `jax.numpy` is for JAX.

Every function works on concrete values (it runs NumPy eagerly) and on tracers
(it records primitives into the trace), so un-jitted code is the baseline.
"""
import numpy as _np

from ..rules import impl as _eager  # noqa: F401  (registers eager evaluation with core)
from ._scalar_types import (bool_, complex64, complex128, float32, float64, int8, int16,
                            int32, int64, uint8, uint16, uint32, uint64)
from ._scalar_types import float16, float16 as half
from . import _eager_jax, _methods  # noqa: F401  (eager arrays under JAX rules; methods)
from ._creation import (arange, array, asarray, empty, empty_like, eye, full, full_like,
                        identity, ones, ones_like, zeros, zeros_like)
from ._elementwise import (abs, absolute, add, arccos, arcsin, arctan, arctan2, around,
                           bitwise_and, bitwise_invert, bitwise_not, bitwise_or, bitwise_xor,
                           ceil, clip, cos, cosh, divide, equal, exp, exp2, expm1, floor,
                           floor_divide, greater, greater_equal, invert, isfinite, isinf, isnan,
                           left_shift, less, less_equal, log, log1p, log2, log10, logical_and,
                           logical_not, logical_or, logical_xor, maximum, minimum, mod, multiply,
                           negative, not_equal, positive, pow, power, reciprocal, remainder,
                           right_shift, rint, round, sign, sin, sinh, sqrt, square, subtract,
                           tan, tanh, true_divide, trunc, where)
from ._complex import angle, conj, conjugate, imag, iscomplexobj, real
from ._matmul import dot, matmul, vdot
from ._reductions import all, amax, amin, any, argmax, argmin, max, mean, min, prod, sum
from ._shape import (concatenate, expand_dims, flip, moveaxis, ravel, squeeze, stack,
                     transpose)
from ..base.operands import astype, broadcast_to, reshape
from ..base.operands import normalize_axis as _normalize_axis
from ._cumulative import (cummax, cummin, cumprod, cumsum, cumulative_prod,
                          cumulative_sum)
from ._manipulation import (append, array_split, atleast_1d, atleast_2d, atleast_3d,
                            broadcast_arrays, broadcast_shapes, column_stack, copy, diff,
                            dsplit, dstack, fliplr, flipud, gradient, hsplit, hstack, pad,
                            repeat, roll, row_stack, select, split, swapaxes, tile, vsplit, vstack)
from ._mathfuncs import (acosh, allclose, arccosh, arcsinh, arctanh, array_equal,
                         array_equiv, asinh, atanh, cbrt, convolve, copysign, correlate,
                         deg2rad, degrees, fmax, fmin, heaviside, hypot, isclose, logaddexp,
                         logaddexp2, nan_to_num, nextafter, rad2deg, radians, signbit, sinc)
from ._einsum import einsum, einsum_path
from ._index_helpers import (diag_indices, diag_indices_from, fill_diagonal, indices, isin,
                             tril_indices, tril_indices_from, triu_indices, triu_indices_from,
                             unravel_index)
from ._indexing import take, take_along_axis
from . import fft, linalg
from .linalg import matrix_transpose, vecdot
from ._ranges import geomspace, interp, linspace, logspace, mgrid, ogrid
from ._scatter import bincount, digitize, histogram, histogram_bin_edges, put_along_axis
from ._matrices import (diag, diagflat, diagonal, inner, kron, meshgrid, outer, tensordot,
                        trace, tri, tril, triu)
from ._sorting import (argsort, argwhere, flatnonzero, median, msort, nanmedian,
                       nanpercentile, nanquantile, nonzero, percentile,
                       quantile, searchsorted, sort, unique)
from ._statistics import (average, corrcoef, count_nonzero, cov, nanargmax, nanargmin,
                          nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar, ptp, std,
                          var)
from ._float_parts import divmod, fabs, fix, float_power, fmod, frexp, ldexp, modf, spacing
from ._integer_math import bitwise_count, gcd, lcm
from ._insert_delete import (compress, delete, extract, insert, place, put, resize,
                             trim_zeros)
from ._rearranging import block, rollaxis, rot90, sort_complex, unstack
from ._calculus import cross, ediff1d, matvec, trapezoid, unwrap, vander, vecmat
from ._functional import apply_along_axis, apply_over_axes, choose, fromfunction, piecewise
from ._predicates import (i0, iscomplex, isneginf, isposinf, isreal, isrealobj, isscalar,
                          iterable)
from ._index_tricks import c_, index_exp, ix_, mask_indices, r_, ravel_multi_index, s_
from ._cumulative import nancumprod, nancumsum
from ._windows import bartlett, blackman, hamming, hanning, kaiser
from ._polynomial import (poly, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub,
                          polyval)
from ._eig import roots
from ._sets import (intersect1d, setdiff1d, setxor1d, union1d, unique_all, unique_counts,
                    unique_inverse, unique_values)
from ._ordering import argpartition, lexsort, partition
from ._packbits import packbits, unpackbits
from ._histogramdd import histogram2d, histogramdd
from ._host_io import frombuffer, fromstring, load
from ._jax_signatures import (arange, around, array, asarray, astype, broadcast_to,  # noqa: F811
                              concatenate, cumprod, cumsum, dstack, empty, empty_like, eye,
                              flip, full, full_like, hstack, linspace, ones, ones_like, outer,
                              ptp, ravel, reshape, round, stack, take, take_along_axis, trace,
                              vstack, zeros, zeros_like)

# NumPy 2 / array-API spellings
acos, asin, atan, atan2 = arccos, arcsin, arctan, arctan2
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift
concat, permute_dims = concatenate, transpose

bool = bool_
# For isinstance checks and annotations, as JAX's jnp.ndarray (= jax.Array): NumPy arrays,
# eager arrays, tracers and device arrays alike (transpile/array_type.py); not constructible.
from ..array_type import Array as ndarray  # noqa: E402
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None

_methods.install()


def _strong_functions():
    """Functions return strongly typed values, as NumPy's do (see strength.py); operators
    on Tracers are bound separately and keep Python scalars weak."""
    import types
    from ..strength import strong_results
    from ._ufunc import ufunc as _ufunc_type
    namespace = globals()
    # This package's functions, and those it re-exports from the floor below it (astype...)
    own = (__name__ + ".", "transpile.base.")
    for name, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and not name.startswith("_") \
                and value.__module__.startswith(own):
            wrapper = strong_results(value)
            # Named as this module's attribute, so that it pickles by reference (the original
            # in its defining module is another object).
            wrapper.__module__, wrapper.__qualname__ = __name__, name
            namespace[name] = wrapper
        elif isinstance(value, _ufunc_type) and not name.startswith("_"):
            namespace[name] = value.public()


_strong_functions()

# Dtype introspection returns dtypes and booleans, not arrays: outside the wrapping above.
from ._dtype_api import (can_cast, complexfloating, dtype, finfo, floating, generic, iinfo,
                         inexact, integer, isdtype, issubdtype, number, promote_types,
                         result_type, signedinteger, unsignedinteger)
# JAX's aliases for the default-width scalar types (64-bit under NumPy's rules).
int_, uint, float_, complex_ = int64, uint64, float64, complex128
single, double, csingle, cdouble = float32, float64, complex64, complex128


def _shape_of(a, name):
    """The shape of an array or scalar; a list or tuple (which JAX deprecates here) with
    JAX's DeprecationWarning, then NumPy's answer."""
    from ..core import aval_of
    if isinstance(a, (list, tuple)):
        import warnings
        warnings.warn(f"{name} requires ndarray or scalar arguments, got {type(a)} at "
                      "position 0 (as in JAX, where a future release makes this an error)",
                      DeprecationWarning, stacklevel=3)
        return _np.shape(a)
    return aval_of(a).shape


def shape(a):
    return _shape_of(a, "shape")


def ndim(a):
    return len(_shape_of(a, "ndim"))


def size(a, axis=None):
    """The number of elements, or with `axis` (an int or a tuple of them) the number along
    those axes (NumPy's, JAX's)."""
    from math import prod as _prod
    dims = _shape_of(a, "size")
    if axis is None:
        return _prod(dims)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    picked = [_normalize_axis(ax, len(dims)) for ax in axes]
    if len(set(picked)) != len(picked):
        raise ValueError(f"size: repeated axis: {tuple(axes)}")
    return _prod(dims[ax] for ax in picked)


def vectorize(pyfunc, *, excluded=frozenset(), signature=None):
    """`jax.numpy.vectorize`: `pyfunc` broadcast over its arguments' leading axes (or the
    loop dimensions of a gufunc `signature`), built on `transpile.vmap`."""
    # Imported on call: the batching package is built on this one, not the reverse.
    from ..batching.vectorize import vectorize as _vectorize
    return _vectorize(pyfunc, excluded=excluded, signature=signature)

# Host-side input, output and printing (concrete values, NumPy's formats).
from ._host_io import array_repr, array_str, fromfile, fromiter, save, savez
from numpy import get_printoptions, printoptions, set_printoptions  # noqa: E402,F401
from numpy.exceptions import ComplexWarning  # noqa: E402,F401
from ._ufunc import ufunc  # noqa: E402,F401
euler_gamma = 0.5772156649015329
character, flexible, object_ = _np.character, _np.flexible, _np.object_


def __getattr__(name):
    # tnp.bfloat16 imports ml_dtypes (a fifth of a second) only when a program asks for it.
    if name == "bfloat16":
        from ._scalar_types import bfloat16_type
        globals()["bfloat16"] = bfloat16_type()
        return globals()["bfloat16"]
    if name in ("int4", "uint4"):
        from ._scalar_types import four_bit_type
        globals()[name] = four_bit_type(name)
        return globals()[name]
    raise AttributeError(f"module 'transpile.numpy' has no attribute {name!r}")
