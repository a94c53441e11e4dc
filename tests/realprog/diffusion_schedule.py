"""DDPM bits: cosine noise schedule, q_sample, a tiny denoiser's loss over random timesteps
(random.randint, random.normal with split keys), and an ancestral sampling loop (fori_loop)."""
import jax
import jax.numpy as jnp
import numpy as np


def cosine_alphas(T, s=0.008):
    t = jnp.arange(T + 1) / T
    f = jnp.cos((t + s) / (1 + s) * jnp.pi / 2) ** 2
    abar = f / f[0]
    betas = jnp.clip(1 - abar[1:] / abar[:-1], 0.0, 0.999)
    return betas, jnp.cumprod(1 - betas)


def denoiser(w, x, t, T):
    emb = jnp.stack([jnp.sin(t / T * jnp.pi), jnp.cos(t / T * jnp.pi)], -1)
    return jnp.tanh(jnp.concatenate([x, emb], -1) @ w[0]) @ w[1]


@jax.jit
def program(x0, w0, w1, key):
    T = 50
    betas, abar = cosine_alphas(T)
    k1, k2, k3 = jax.random.split(key, 3)
    t = jax.random.randint(k1, (x0.shape[0],), 0, T)
    noise = jax.random.normal(k2, x0.shape)
    xt = jnp.sqrt(abar[t])[:, None] * x0 + jnp.sqrt(1 - abar[t])[:, None] * noise
    pred = denoiser((w0, w1), xt, t.astype(jnp.float32), T)
    loss = jnp.mean((pred - noise) ** 2)
    def sample_step(i, carry):
        x, key = carry
        tt = T - 1 - i
        key, sub = jax.random.split(key)
        eps = denoiser((w0, w1), x, jnp.full((x.shape[0],), tt, jnp.float32), T)
        mean = (x - betas[tt] / jnp.sqrt(1 - abar[tt]) * eps) / jnp.sqrt(1 - betas[tt])
        z = jnp.where(tt > 0, jax.random.normal(sub, x.shape), 0.0)
        return mean + jnp.sqrt(betas[tt]) * z, key
    xs, _ = jax.lax.fori_loop(0, T, sample_step, (jax.random.normal(k3, x0.shape), k3))
    return loss, betas[:5], abar[-3:], xs, t


def inputs():
    rng = np.random.default_rng(7)
    return (rng.normal(size=(16, 2)).astype(np.float32), (rng.normal(size=(4, 32)) * 0.3).astype(np.float32),
            (rng.normal(size=(32, 2)) * 0.3).astype(np.float32), np.array([0, 42], dtype=np.uint32))
