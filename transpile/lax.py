"""`transpile.lax`: `jax.lax`'s names, built on `transpile.numpy` and the floor below both.

Structured control flow (`cond`/`switch`, `while_loop`, `fori_loop`, `scan`), dynamic slicing
and iotas live in `transpile.base` (so that `transpile.numpy` can use them without importing
this module); the elementwise, structural and reduction operations in `lax_ops`, and the
special functions, sorting, convolution and windowed reductions in their own modules. This
module gathers them under JAX's names.
"""
from __future__ import annotations

from .base.control_flow import (check_unroll, cond, fori_loop, scan,  # noqa: F401
                                switch, while_loop)
from .base.iota import broadcasted_iota, iota  # noqa: F401
from .base import slicing as _slicing
from .base.slicing import (dynamic_index_in_dim, dynamic_slice_in_dim,  # noqa: F401
                           dynamic_update_index_in_dim, dynamic_update_slice_in_dim)
from .eager_results import install as _install_eager_results
from .numpy import _elementwise as E


def dynamic_slice(operand, start_indices, slice_sizes, *, allow_negative_indices=True):
    """`transpile.base`'s dynamic_slice, refusing mixed start types as JAX's does."""
    _slicing.check_same_index_type(start_indices, "dynamic_slice")
    return _slicing.dynamic_slice(operand, start_indices, slice_sizes,
                                  allow_negative_indices=allow_negative_indices)


def dynamic_update_slice(operand, update, start_indices, *, allow_negative_indices=True):
    _slicing.check_same_index_type(start_indices, "dynamic_update_slice")
    return _slicing.dynamic_update_slice(operand, update, start_indices,
                                         allow_negative_indices=allow_negative_indices)


def select(pred, on_true, on_false):
    return E.where(pred, on_true, on_false)


# -- elementwise, structural and reduction operations (jax.lax's names) ------------------------
from .lax_ops import *  # noqa: E402,F401,F403  (one module per idea; lax re-exports them)
from .lax_ops import RoundingMethod  # noqa: E402,F401
from .precision import Precision  # noqa: E402,F401
from .lax_special import *  # noqa: E402,F401,F403
from .lax_sorting import *  # noqa: E402,F401,F403
from .lax_conv import *  # noqa: E402,F401,F403
from .lax_reduce_window import *  # noqa: E402,F401,F403
from .lax_extras import *  # noqa: E402,F401,F403
from .lax_conv_transpose import *  # noqa: E402,F401,F403
from .lax_gather import *  # noqa: E402,F401,F403
from .lax_fft import FftType, fft  # noqa: E402,F401
from .lax_zeta import polygamma, zeta  # noqa: E402,F401
from .lax_rng_bits import RandomAlgorithm, rng_bit_generator  # noqa: E402,F401
from .lax_reduce_precision import reduce_precision  # noqa: E402,F401
from .lax_platform import platform_dependent  # noqa: E402,F401
from .lax_ragged import *  # noqa: E402,F401,F403
from .lax_composite import composite  # noqa: E402,F401
from .precision import DotAlgorithmPreset  # noqa: E402,F401
from . import lax_dtype_checks as _dtype_checks  # noqa: E402


from .lax_primitive_names import *  # noqa: E402,F401,F403  (lax.add_p, ...)


# Collectives over a named vmap axis (batching/collectives.py; imported when called, as the
# batching package builds on this one).
def psum(x, axis_name, *, axis_index_groups=None):
    """The sum of `x` over the members of the vmap named `axis_name`."""
    from .batching import collectives
    return collectives.psum(x, axis_name, axis_index_groups=axis_index_groups)


def pmean(x, axis_name, *, axis_index_groups=None):
    """The mean of `x` over the members of the vmap named `axis_name`."""
    from .batching import collectives
    return collectives.pmean(x, axis_name, axis_index_groups=axis_index_groups)


def pmax(x, axis_name, *, axis_index_groups=None):
    """The maximum of `x` over the members of the vmap named `axis_name`."""
    from .batching import collectives
    return collectives.pmax(x, axis_name, axis_index_groups=axis_index_groups)


def pmin(x, axis_name, *, axis_index_groups=None):
    """The minimum of `x` over the members of the vmap named `axis_name`."""
    from .batching import collectives
    return collectives.pmin(x, axis_name, axis_index_groups=axis_index_groups)


def axis_index(axis_name):
    """This member's position along the vmap axis named `axis_name`."""
    from .batching import collectives
    return collectives.axis_index(axis_name)


def axis_size(axis_name) -> int:
    """The size of the vmap axis named `axis_name` (a Python int, as in JAX)."""
    from .batching import collectives
    return collectives.axis_size(axis_name)

# Eagerly, results are EagerArrays however they were made (eager_results.py).
_install_eager_results(globals(), ("transpile.lax", "transpile.lax_ops", "transpile.lax_special",
                                   "transpile.lax_sorting", "transpile.base.control_flow",
                                   "transpile.base.slicing", "transpile.base.iota",
                                   "transpile.lax_extras", "transpile.lax_conv_transpose",
                                   "transpile.lax_gather", "transpile.lax_fft",
                                   "transpile.lax_zeta", "transpile.lax_rng_bits", "transpile.lax_reduce_precision",
                                   "transpile.lax_ragged",
                                   "transpile.lax_reduce_window"))


# Under JAX's dtype rules the binary operations refuse mixed dtypes, as JAX's do (lax does
# not promote; jax.numpy does).
globals().update({_name: _dtype_checks.dtype_checked(_name, globals()[_name])
                  for _name in _dtype_checks.BINARY_OPERATIONS})
