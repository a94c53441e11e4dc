"""Sphere-tracing a signed distance field: vmap over pixels, while_loop per ray."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np


def sdf(p):
    sphere = jnp.linalg.norm(p - jnp.array([0.0, 0.0, 3.0])) - 1.0
    plane = p[1] + 1.0
    return jnp.minimum(sphere, plane)


def normal(p):
    e = 1e-3
    ex, ey, ez = jnp.eye(3) * e
    return jnp.array([sdf(p + ex) - sdf(p - ex), sdf(p + ey) - sdf(p - ey),
                      sdf(p + ez) - sdf(p - ez)]) / (2 * e)


def march(direction):
    def cond(state):
        t, i, hit = state
        return (i < 64) & ~hit & (t < 20.0)
    def body(state):
        t, i, hit = state
        d = sdf(direction * t)
        return t + d, i + 1, d < 1e-3
    t, steps, hit = lax.while_loop(cond, body, (0.0, 0, False))
    p = direction * t
    n = normal(p)
    light = jnp.array([0.577, 0.577, -0.577])
    shade = jnp.where(hit, jnp.clip(jnp.dot(n, light), 0.0, 1.0), 0.0)
    return shade, steps


@jax.jit
def program(width):
    ys, xs = jnp.meshgrid(jnp.linspace(1, -1, 12), jnp.linspace(-1, 1, 16), indexing="ij")
    dirs = jnp.stack([xs, ys, jnp.full_like(xs, 1.5)], axis=-1)
    dirs = dirs / jnp.linalg.norm(dirs, axis=-1, keepdims=True)
    shade, steps = jax.vmap(jax.vmap(march))(dirs * width)
    return shade, steps, shade.mean()


def inputs():
    return (np.float32(1.0),)
