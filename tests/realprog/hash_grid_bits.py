"""Integer hashing as in instant-NGP style hash grids and PRNG-free noise: uint32 multiply,
xor, shifts, modulo table sizes, jnp.bitwise ops, floor/frac interpolation weights."""
import jax
import jax.numpy as jnp
import numpy as np

PRIMES = jnp.array([1, 2654435761, 805459861], dtype=jnp.uint32)


def hash3(ijk, T):
    h = ijk.astype(jnp.uint32) * PRIMES
    return (h[..., 0] ^ h[..., 1] ^ h[..., 2]) % jnp.uint32(T)


@jax.jit
def program(x, table):
    T = table.shape[0]
    res = 16.0
    p = x * res
    p0 = jnp.floor(p)
    w = p - p0
    corners = jnp.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)], jnp.int32)
    ijk = p0.astype(jnp.int32)[:, None, :] + corners[None]
    idx = hash3(ijk, T)
    cw = jnp.prod(jnp.where(corners[None] == 1, w[:, None, :], 1 - w[:, None, :]), axis=-1)
    feat = jnp.sum(table[idx] * cw[..., None], axis=1)
    bits = jnp.left_shift(idx.astype(jnp.uint32), 3) | jnp.right_shift(idx.astype(jnp.uint32), 29)
    return feat, idx, bits, jnp.bitwise_and(idx, 7).sum()


def inputs():
    rng = np.random.default_rng(15)
    return rng.uniform(size=(50, 3)).astype(np.float32), rng.normal(size=(97, 2)).astype(np.float32)
