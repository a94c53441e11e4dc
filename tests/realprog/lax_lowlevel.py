"""lax at the level library authors use it: dot_general with batch and contracting dims,
lax.reduce with a custom monoid, multi-operand lax.sort, lax.scatter_add via .at, pad with
interior padding, broadcast_in_dim, rev, clamp, expand_dims, integer_pow, population_count."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np


@jax.jit
def program(a, b, keys, vals):
    dg = lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))
    red = lax.reduce(a, 0.0, lax.add, (1,))
    mx = lax.reduce(a, -jnp.inf, lax.max, (0, 2))
    sk, sv = lax.sort((keys, vals), num_keys=1)
    padded = lax.pad(vals, 0.0, ((1, 2, 1),))
    bc = lax.broadcast_in_dim(vals[:3], (2, 3, 4), (1,))
    rv = lax.rev(a, (0, 2))
    cl = lax.clamp(-0.5, a, 0.5)
    ip = lax.integer_pow(vals, 3)
    pc = lax.population_count(keys.astype(jnp.uint32))
    conv = lax.conv(a[:, None, :, :2].transpose(0, 1, 2, 3), jnp.ones((1, 1, 2, 2)), (1, 1), "VALID")
    return dg, red, mx, sk, sv, padded, bc, rv, cl, ip, pc, lax.expand_dims(vals, (0,)).shape, conv


def inputs():
    rng = np.random.default_rng(23)
    return (rng.normal(size=(2, 3, 4)).astype(np.float32), rng.normal(size=(2, 4, 5)).astype(np.float32),
            rng.integers(0, 50, 8).astype(np.int32), rng.normal(size=8).astype(np.float32))
