"""Second-order optimisation pieces: jacfwd/jacrev of a vector function, hessian of a scalar,
Gauss-Newton step with solve, hvp by jvp-of-grad, stop_gradient, and vmap with in_axes dicts
and out_axes."""
import jax
import jax.numpy as jnp
import numpy as np


def residuals(theta, x, y):
    return theta[0] * jnp.exp(-theta[1] * x) + theta[2] - y


def loss(theta, x, y):
    return 0.5 * jnp.sum(residuals(theta, x, y) ** 2) + 1e-3 * jnp.sum(jax.lax.stop_gradient(theta) * theta)


@jax.jit
def program(x, y):
    theta = jnp.array([1.0, 0.5, 0.0])
    def gn(_, th):
        J = jax.jacfwd(residuals)(th, x, y)
        r = residuals(th, x, y)
        return th - jnp.linalg.solve(J.T @ J + 1e-6 * jnp.eye(3), J.T @ r)
    theta = jax.lax.fori_loop(0, 10, gn, theta)
    Jr = jax.jacrev(residuals)(theta, x, y)
    H = jax.hessian(loss)(theta, x, y)
    v = jnp.array([1.0, -1.0, 0.5])
    hvp = jax.jvp(lambda t: jax.grad(loss)(t, x, y), (theta,), (v,))[1]
    batched = jax.vmap(lambda d: d["a"] * d["b"].sum(), in_axes=({"a": 0, "b": None},), out_axes=0)({"a": x[:4], "b": y})
    per = jax.vmap(lambda xi, yi: jnp.stack([xi, yi]), out_axes=1)(x[:3], y[:3])
    return theta, Jr, H, hvp, batched, per


def inputs():
    rng = np.random.default_rng(22)
    x = np.linspace(0, 4, 30).astype(np.float32)
    y = (2.0 * np.exp(-1.3 * x) + 0.3 + 0.01 * rng.normal(size=30)).astype(np.float32)
    return x, y
