"""jax.example_libraries.stax: a layer is a pair `(init_fun, apply_fun)`;
`init_fun(rng, input_shape) -> (output_shape, params)`, `apply_fun(params, inputs, **kw)`.

Keys are split exactly as JAX's stax splits them (Dense and the convolutions split theirs in
two, weights first; `serial` splits one off per layer, in order; `parallel` splits one per
branch), so the same key initialises the same parameters as JAX.
"""
from __future__ import annotations

import functools
import math

from .. import lax, random
from .. import numpy as jnp
from ..shape_eval import ShapeDtypeStruct, eval_shape
from ..nn import (elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus,
                  standardize)
from ..nn.initializers import glorot_normal, normal, ones, zeros

glorot = glorot_normal
randn = normal
logsoftmax = log_softmax


def Dense(out_dim, W_init=glorot_normal(), b_init=normal()):    # noqa: N802, N803 (JAX's)
    """A fully connected layer: inputs @ W + b."""
    def init_fun(rng, input_shape):
        k_weights, k_bias = random.split(rng)
        params = (W_init(k_weights, (input_shape[-1], out_dim)), b_init(k_bias, (out_dim,)))
        return tuple(input_shape[:-1]) + (out_dim,), params

    def apply_fun(params, inputs, **kwargs):
        weights, bias = params
        return jnp.dot(inputs, weights) + bias
    return init_fun, apply_fun


def GeneralConv(dimension_numbers, out_chan, filter_shape, strides=None,    # noqa: N802
                padding="VALID", W_init=None, b_init=normal(1e-6)):        # noqa: N803
    """A convolution with layouts `dimension_numbers` = (lhs, rhs, out) spec strings."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    ones_ = (1,) * len(filter_shape)
    strides = strides or ones_
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))  # noqa: N806

    def convolve(inputs, weights):
        return lax.conv_general_dilated(inputs, weights, strides, padding, ones_, ones_,
                                        dimension_numbers=dimension_numbers)

    def init_fun(rng, input_shape):
        spatial = iter(filter_shape)
        kernel_shape = tuple(out_chan if c == "O" else input_shape[lhs_spec.index("C")]
                             if c == "I" else next(spatial) for c in rhs_spec)
        out = _output_shape(lambda x: convolve(x, jnp.zeros(kernel_shape, x.dtype)),
                            input_shape, lhs_spec.index("N"), out_spec.index("N"))
        bias_shape = tuple(out_chan if c == "C" else 1 for c in out_spec)
        k_weights, k_bias = random.split(rng)
        return out, (W_init(k_weights, kernel_shape), b_init(k_bias, bias_shape))

    def apply_fun(params, inputs, **kwargs):
        weights, bias = params
        return convolve(inputs, weights) + bias
    return init_fun, apply_fun


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(*args, **kwargs):       # noqa: N802
    raise NotImplementedError("stax.GeneralConvTranspose/ConvTranspose need "
                              "lax.conv_transpose, which transpile does not have yet: use "
                              "lax.conv_general_dilated with lhs_dilation=strides")


ConvTranspose = Conv1DTranspose = GeneralConvTranspose


def BatchNorm(axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True,   # noqa: N802
              beta_init=zeros, gamma_init=ones):
    """Standardise over `axis`, then scale by gamma and shift by beta (per feature)."""
    axis = (axis,) if isinstance(axis, int) else tuple(axis)

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k_beta, k_gamma = random.split(rng)
        beta = beta_init(k_beta, shape) if center else ()
        gamma = gamma_init(k_gamma, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        spread = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if scale:
            z = gamma[spread] * z
        return z + beta[spread] if center else z
    return init_fun, apply_fun


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying `fun` to its input."""
    return (lambda rng, input_shape: (input_shape, ()),
            lambda params, inputs, **kwargs: fun(inputs, **fun_kwargs))


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _pooling_layer(reducer, init_val, normalise=False):
    def PoolingLayer(window_shape, strides=None, padding="VALID", spec=None):    # noqa: N802
        strides = strides or (1,) * len(window_shape)
        batch_and_channel = (0, len(window_shape) + 1) if spec is None else \
            (spec.index("N"), spec.index("C"))
        window, steps = tuple(window_shape), tuple(strides)
        for i in sorted(batch_and_channel):       # windows of 1 over batch and channels
            window, steps = window[:i] + (1,) + window[i:], steps[:i] + (1,) + steps[i:]

        def pool(inputs):
            out = lax.reduce_window(inputs, init_val, reducer, window, steps, padding)
            return out / _window_sizes(inputs, window, steps, padding) if normalise else out

        def init_fun(rng, input_shape):
            batch = 0 if spec is None else spec.index("N")
            return _output_shape(pool, input_shape, batch, batch), ()
        return init_fun, lambda params, inputs, **kwargs: pool(inputs)
    return PoolingLayer


def _output_shape(layer, input_shape, batch_in, batch_out):
    """The layer's output shape, by tracing it on a placeholder. stax writes an unknown
    batch size as -1: it is traced as 1 and given back as it came."""
    known = tuple(1 if i == batch_in and d < 0 else d for i, d in enumerate(input_shape))
    out = list(eval_shape(layer, ShapeDtypeStruct(known, jnp.float32)).shape)
    out[batch_out] = input_shape[batch_in]
    return tuple(out)


def _window_sizes(inputs, window, strides, padding):
    """How many input elements each output of an average pool covers (fewer at padded
    edges, as JAX counts them)."""
    return lax.reduce_window(jnp.ones(inputs.shape, inputs.dtype), 0.0, lax.add, window,
                             strides, padding)


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)
AvgPool = _pooling_layer(lax.add, 0.0, normalise=True)


def _flatten():
    def init_fun(rng, input_shape):
        return (input_shape[0], math.prod(input_shape[1:])), ()
    return init_fun, lambda params, inputs, **kwargs: jnp.reshape(inputs, (inputs.shape[0], -1))


Flatten = _flatten()
Identity = elementwise(lambda x: x)


def FanOut(num):      # noqa: N802
    return (lambda rng, input_shape: ([input_shape] * num, ()),
            lambda params, inputs, **kwargs: [inputs] * num)


FanInSum = (lambda rng, input_shape: (input_shape[0], ()),
            lambda params, inputs, **kwargs: sum(inputs))


def FanInConcat(axis=-1):        # noqa: N802
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        size = sum(shape[ax] for shape in input_shape)
        return tuple(input_shape[0][:ax]) + (size,) + tuple(input_shape[0][ax + 1:]), ()
    return init_fun, lambda params, inputs, **kwargs: jnp.concatenate(inputs, axis)


def Dropout(rate, mode="train"):     # noqa: N802
    """Keeps each input with probability `rate` (JAX's stax: `rate` is the keep rate) and
    scales the kept ones by 1/rate; needs `rng=` at apply time in 'train' mode."""
    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng")
        if rng is None:
            raise ValueError("Dropout: call apply_fun(params, inputs, rng=key) with a PRNG "
                             "key (transpile.random.PRNGKey(...)), as in JAX's stax")
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)
    return (lambda rng, input_shape: (input_shape, ())), apply_fun


def serial(*layers):
    """Layers one after another; init splits one key off per layer."""
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, layer_params = init(layer_rng, input_shape)
            params.append(layer_params)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rngs = _layer_keys(kwargs, len(apply_funs))
        for apply, layer_params, rng in zip(apply_funs, params, rngs):
            inputs = apply(layer_params, inputs, rng=rng, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers):
    """Layers side by side, the i-th on the i-th input (with FanOut and FanInSum)."""
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        rngs = random.split(rng, len(init_funs))
        return zip(*[init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)])

    def apply_fun(params, inputs, **kwargs):
        rngs = _layer_keys(kwargs, len(apply_funs))
        return [apply(p, x, rng=r, **kwargs)
                for apply, p, x, r in zip(apply_funs, params, inputs, rngs)]
    return init_fun, apply_fun


def _layer_keys(kwargs, count):
    rng = kwargs.pop("rng", None)
    return random.split(rng, count) if rng is not None else (None,) * count


def shape_dependent(make_layer):
    """A layer built by `make_layer(input_shape)` once the input shape is known."""
    return (lambda rng, input_shape: make_layer(input_shape)[0](rng, input_shape),
            lambda params, inputs, **kwargs: make_layer(inputs.shape)[1](params, inputs,
                                                                          **kwargs))
