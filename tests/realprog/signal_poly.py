"""Everyday numerics: jax.scipy.signal convolve/correlate, jnp.convolve modes, polyfit/polyval,
interp, kron, tensordot, trace/diag/tril_indices, meshgrid, pad modes, diff/gradient."""
import jax
import jax.numpy as jnp
from jax.scipy import signal
import numpy as np


@jax.jit
def program(x, img, k):
    c1 = jnp.convolve(x, k, mode="same")
    c2 = jnp.correlate(x, k, mode="valid")
    c3 = signal.convolve2d(img, jnp.outer(k, k), mode="same", boundary="fill")
    c4 = signal.correlate(img, jnp.ones((2, 2)), mode="valid")
    t = jnp.linspace(0, 1, x.shape[0])
    coef = jnp.polyfit(t, x, 3)
    fit = jnp.polyval(coef, t)
    it = jnp.interp(jnp.array([-0.5, 0.25, 0.7, 2.0]), t, x)
    kr = jnp.kron(jnp.eye(2), k[:2, None] * k[None, :2])
    td = jnp.tensordot(img[:3, :3], img[:3, :3], axes=([0], [1]))
    iu = jnp.triu_indices(4, 1)
    m = img[:4, :4][iu]
    X, Y = jnp.meshgrid(t[:3], t[:4], indexing="xy")
    p = jnp.pad(x[:5], (2, 3), mode="reflect") + jnp.pad(x[:5], (2, 3), mode="edge") + jnp.pad(x[:5], (2, 3), mode="wrap")
    return c1, c2, c3, c4, fit, it, kr, td, jnp.trace(img), jnp.diag(img, 1), m, X * Y, p, jnp.diff(x, n=2), jnp.gradient(x)


def inputs():
    rng = np.random.default_rng(18)
    return rng.normal(size=40).astype(np.float32), rng.normal(size=(8, 9)).astype(np.float32), np.array([0.25, 0.5, 0.25], np.float32)
