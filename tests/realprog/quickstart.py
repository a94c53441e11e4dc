"""The JAX quickstart's steps: selu under jit, grad of a summed logistic, jacfwd/jacrev and a
hessian, and vmap of a matrix-vector product."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import grad, jacfwd, jacrev, jit, vmap


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def sum_logistic(x):
    return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))


def hessian(fun):
    return jit(jacfwd(jacrev(fun)))


def program(x, mat, batched_x):
    out = {"selu": jit(selu)(x)}
    out["grad"] = grad(sum_logistic)(x[:4])
    out["jacrev"] = jacrev(jnp.tanh)(x[:3])
    out["hessian"] = hessian(sum_logistic)(x[:3])
    out["vmap"] = vmap(lambda v: jnp.dot(mat, v))(batched_x)
    out["vmap_jit"] = jit(vmap(lambda v: jnp.dot(mat, v)))(batched_x)
    return out


def inputs():
    rng = np.random.default_rng(7)
    return (rng.standard_normal(8).astype(np.float32),
            rng.standard_normal((6, 4)).astype(np.float32),
            rng.standard_normal((5, 4)).astype(np.float32))
