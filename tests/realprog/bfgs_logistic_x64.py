"""jax.scipy.optimize.minimize(method="BFGS") as JAX's docs and GP/regression examples use it:
an L2-regularised logistic regression fitted from a 1-D weight vector with extra data passed
through `args`, under jit, and a vmapped batch of small quadratic fits from different
starting points; the solutions, success flags and final objective values are compared.
64-bit mode, as such fits are usually run: in float32 JAX's own line search gives up near the
optimum (success False at gtol 1e-5), where any two implementations stop at different points."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.optimize import minimize

jax.config.update("jax_enable_x64", True)


def negative_log_likelihood(w, xs, ys, l2):
    logits = xs @ w[:-1] + w[-1]
    return jnp.mean(jnp.logaddexp(0.0, logits) - ys * logits) + l2 * jnp.sum(w[:-1] ** 2)


def quadratic(x, centre):
    return jnp.sum((x - centre) ** 2 * jnp.arange(1.0, x.shape[0] + 1)) + 0.1 * jnp.sum(x) ** 2


@jax.jit
def program(xs, ys, starts):
    fit = minimize(negative_log_likelihood, jnp.zeros(xs.shape[1] + 1), args=(xs, ys, 0.05),
                   method="BFGS")
    centre = jnp.array([1.0, -2.0, 0.5])
    quads = jax.vmap(lambda x0: minimize(quadratic, x0, args=(centre,), method="BFGS",
                                         options={"gtol": 1e-7}))(starts)
    return fit.x, fit.success, fit.fun, quads.x, quads.success, quads.fun


def inputs():
    rng = np.random.default_rng(33)
    xs = rng.standard_normal((40, 3))
    ys = (xs @ np.array([1.5, -2.0, 0.5]) + 0.3 * rng.standard_normal(40) > 0).astype(np.float64)
    return xs, ys, rng.standard_normal((4, 3))
