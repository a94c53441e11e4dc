"""`transpile.nn`: jax.nn's activations, softmax family, one_hot, standardize and
`initializers`, built from `transpile.numpy` operations: they run eagerly and trace under
`jit` alike.

    import transpile.nn as nn
    y = nn.softmax(nn.gelu(x @ w), axis=-1)
"""
from . import initializers
from ._activations import (celu, elu, gelu, glu, hard_sigmoid, hard_silu, hard_swish,
                           hard_tanh, identity, leaky_relu, log1mexp, log_sigmoid, mish, relu,
                           relu6, selu, sigmoid, silu, soft_sign, softplus, sparse_plus,
                           sparse_sigmoid, squareplus, swish, tanh)
from ._attention import dot_product_attention
from ._functions import log_softmax, logmeanexp, logsumexp, one_hot, softmax, standardize

__all__ = ["celu", "dot_product_attention", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish",
           "hard_tanh", "identity", "initializers", "leaky_relu", "log1mexp", "log_sigmoid",
           "log_softmax", "logmeanexp", "logsumexp", "mish", "one_hot", "relu", "relu6", "selu",
           "sigmoid", "silu", "soft_sign", "softmax", "softplus", "sparse_plus",
           "sparse_sigmoid", "squareplus", "standardize", "swish", "tanh"]

from ..eager_results import install as _install_eager_results  # noqa: E402

# Eagerly, results are EagerArrays however they were made (eager_results.py).
_install_eager_results(globals(), ("transpile.nn._activations", "transpile.nn._functions",
                                   "transpile.nn._attention",
                                   "transpile.scipy._logsumexp"))
