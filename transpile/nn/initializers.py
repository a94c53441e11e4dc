"""jax.nn.initializers: functions that build `init(key, shape, dtype)` callables drawing
weights from transpile.random, so a key gives JAX's weights (the same draws, the same scaling
in the weights' dtype).

    init = transpile.nn.initializers.glorot_normal()
    w = init(transpile.random.PRNGKey(0), (784, 128))

`dtype` defaults to float32, as transpile.random's samplers do (JAX's default configuration);
under JAX's dtype rules to JAX's float_ (float64 with x64), as JAX's initializers.
"""
from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from .. import dtypes
from .. import numpy as tnp
from .. import random
from ..base.operands import static_shape

_DEFAULT = dtypes.float32
# The standard deviation of a unit normal truncated to [-2, 2]: dividing by it gives the
# truncated draws the variance asked for.
_TRUNCATED_STDDEV = .87962566103423978


def _float_dtype(dtype, what):
    if dtype is None:
        dt = dtypes.default_float() if dtypes.config.jax_rules() else _DEFAULT
    else:
        dt = dtypes.canonicalize(dtype)
    if not dtypes.is_float(dt):
        raise TypeError(f"initializers.{what}: dtype must be a real floating dtype, got {dt} "
                        "(complex weights are not supported)")
    return dt


def zeros(key, shape, dtype=None):
    return tnp.zeros(static_shape(shape), dtype=_float_dtype(dtype, "zeros"))


def ones(key, shape, dtype=None):
    return tnp.ones(static_shape(shape), dtype=_float_dtype(dtype, "ones"))


def constant(value, dtype=None):
    """Every weight equal to `value`."""
    def init(key, shape, dtype=dtype):
        return tnp.full(static_shape(shape), value, dtype=_float_dtype(dtype, "constant"))
    return init


def normal(stddev=1e-2, dtype=None):
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "normal")
        return random.normal(key, shape, dt) * dt.type(stddev)
    return init


def uniform(scale=1e-2, dtype=None):
    """Uniform on [0, scale)."""
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "uniform")
        return random.uniform(key, shape, dt) * dt.type(scale)
    return init


def truncated_normal(stddev=1e-2, dtype=None, lower=-2.0, upper=2.0):
    """A unit normal truncated to (lower, upper), times `stddev` (no variance correction)."""
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "truncated_normal")
        return random.truncated_normal(key, lower, upper, shape, dt) * dt.type(stddev)
    return init


def _one_or_many(axes):
    return (axes,) if isinstance(axes, int) else tuple(axes)


def _fans(shape, in_axis, out_axis, batch_axis):
    """(fan_in, fan_out): the in/out axes' sizes times the receptive field (the axes that
    are neither in, out nor batch: a convolution's kernel window)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"variance_scaling: a {len(shape)}-dimensional weights shape has no "
                         "input axis; pass a 2-D or larger shape, or in_axis=")
    in_size = math.prod(shape[a] for a in _one_or_many(in_axis))
    out_size = math.prod(shape[a] for a in _one_or_many(out_axis))
    batch_size = math.prod(shape[a] for a in _one_or_many(batch_axis))
    receptive_field = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field, out_size * receptive_field


def _denominator(mode, fan_in, fan_out):
    by_mode = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2,
               "fan_geo_avg": (fan_in * fan_out) ** 0.5}
    if mode not in by_mode:
        raise ValueError(f"variance_scaling: mode must be one of {sorted(by_mode)}, got {mode!r}")
    return by_mode[mode]


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(),
                     dtype=None):
    """Draws with variance scale / n, n by `mode` from the fans: `distribution` is
    "truncated_normal" (at two standard deviations), "normal" or "uniform"."""
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError("variance_scaling: distribution must be 'truncated_normal', "
                         f"'normal' or 'uniform', got {distribution!r}")

    def init(key, shape, dtype=dtype):
        shape = static_shape(shape)
        dt = _float_dtype(dtype, "variance_scaling")
        fan_in, fan_out = _fans(shape, in_axis, out_axis, batch_axis)
        # In the weights' dtype, as JAX rounds it.
        variance = dt.type(scale / _denominator(mode, fan_in, fan_out))
        if distribution == "truncated_normal":
            stddev = np.sqrt(variance) / dt.type(_TRUNCATED_STDDEV)
            return random.truncated_normal(key, -2, 2, shape, dt) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dt) * np.sqrt(variance)
        return random.uniform(key, shape, dt, -1) * np.sqrt(dt.type(3) * variance)
    return init


def _scaled(scale, mode, distribution):
    def builder(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
        return variance_scaling(scale, mode, distribution, in_axis, out_axis, batch_axis,
                                dtype)
    return builder


glorot_uniform = xavier_uniform = _scaled(1.0, "fan_avg", "uniform")
glorot_normal = xavier_normal = _scaled(1.0, "fan_avg", "truncated_normal")
lecun_uniform = _scaled(1.0, "fan_in", "uniform")
lecun_normal = _scaled(1.0, "fan_in", "truncated_normal")
he_uniform = kaiming_uniform = _scaled(2.0, "fan_in", "uniform")
he_normal = kaiming_normal = _scaled(2.0, "fan_in", "truncated_normal")
for _name in ("glorot_uniform", "glorot_normal", "lecun_uniform", "lecun_normal",
              "he_uniform", "he_normal"):
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name


def orthogonal(scale=1.0, column_axis=-1, dtype=None):
    """Weights whose columns (along `column_axis`) are orthonormal, times `scale`: the Q of
    a normal matrix's QR decomposition, its signs fixed by R's diagonal."""
    def init(key, shape, dtype=dtype):
        shape = static_shape(shape)
        dt = _float_dtype(dtype, "orthogonal")
        if len(shape) < 2:
            raise ValueError(f"orthogonal: needs a shape of at least 2 dimensions, got {shape}")
        if 0 in shape:
            return tnp.zeros(shape, dtype=dt)
        n_cols = shape[column_axis]
        n_rows = math.prod(shape) // n_cols
        q = _orthonormal(key, n_rows, n_cols, dt)
        rest = tuple(np.delete(np.array(shape), column_axis).tolist())
        q = tnp.moveaxis(tnp.reshape(q, rest + (n_cols,)), -1, column_axis)
        return dt.type(scale) * q
    return init


def _orthonormal(key, n, m, dt):
    """An n x m matrix with orthonormal columns (n >= m) or rows (n < m)."""
    z = random.normal(key, (max(n, m), min(n, m)), dt)
    q, r = tnp.linalg.qr(z)
    q = q * tnp.expand_dims(tnp.sign(tnp.diagonal(r, axis1=-2, axis2=-1)), -2)
    return q.T if n < m else q


class Initializer(Protocol):
    """What the builders return: a callable (key, shape, dtype) -> weights."""

    def __call__(self, key, shape, dtype=None): ...

__all__ = ["Initializer", "constant", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform",
           "normal", "ones", "orthogonal", "truncated_normal", "uniform", "variance_scaling",
           "xavier_normal", "xavier_uniform", "zeros"]
