"""An explicit 2-D heat / advection-diffusion step in the style of JAX CFD notebooks: edge
padding, central differences by slicing, upwind advection with jnp.where, a lax.scan of steps
recording the mean temperature."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DX, DT, NU = 0.1, 0.001, 0.5


def laplacian(u):
    p = jnp.pad(u, 1, mode="edge")
    return (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4 * u) / DX ** 2


def upwind_x(u, c):
    forward = (jnp.roll(u, -1, axis=0) - u) / DX
    backward = (u - jnp.roll(u, 1, axis=0)) / DX
    return jnp.where(c > 0, backward, forward)


def step(u, c):
    u = u + DT * (NU * laplacian(u) - c * upwind_x(u, c))
    return u, jnp.mean(u)


@jax.jit
def program(u0, c):
    u, means = lax.scan(lambda u, _: step(u, c), u0, None, length=30)
    return u, means, jnp.max(jnp.abs(u))


def inputs():
    x, y = np.meshgrid(np.linspace(-1, 1, 24), np.linspace(-1, 1, 20), indexing="ij")
    u0 = np.exp(-10 * (x ** 2 + y ** 2)).astype(np.float32)
    c = np.where(y > 0, 1.0, -0.5).astype(np.float32)
    return u0, c
