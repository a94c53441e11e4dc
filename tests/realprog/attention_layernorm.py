"""A pre-LN transformer encoder layer (flax-style, by hand): multi-head attention with a causal
mask, jax.nn.softmax with where=, layer norm, dropout-free; batched with vmap."""
import jax
import jax.numpy as jnp
import numpy as np


def layer_norm(x, g, b, eps=1e-6):
    mu = x.mean(-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return g * (x - mu) * jax.lax.rsqrt(var + eps) + b


def attention(x, wq, wk, wv, wo, heads):
    T, D = x.shape
    q = (x @ wq).reshape(T, heads, D // heads).transpose(1, 0, 2)
    k = (x @ wk).reshape(T, heads, D // heads).transpose(1, 0, 2)
    v = (x @ wv).reshape(T, heads, D // heads).transpose(1, 0, 2)
    s = jnp.einsum("htd,hsd->hts", q, k) / jnp.sqrt(D // heads).astype(x.dtype)
    mask = jnp.tril(jnp.ones((T, T), bool))
    s = jnp.where(mask, s, jnp.finfo(s.dtype).min)
    p = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("hts,hsd->htd", p, v).transpose(1, 0, 2).reshape(T, D)
    return o @ wo


@jax.jit
def program(x, wq, wk, wv, wo, w1, w2):
    def layer(x):
        h = x + attention(layer_norm(x, 1.0, 0.0), wq, wk, wv, wo, 4)
        return h + jax.nn.relu(layer_norm(h, 1.0, 0.0) @ w1) @ w2
    out = jax.vmap(layer)(x)
    return out, jnp.linalg.norm(out, axis=-1), jax.nn.log_softmax(out[:, -1], axis=-1)


def inputs():
    rng = np.random.default_rng(4)
    D = 16
    w = lambda *s: (rng.normal(size=s) / np.sqrt(s[0])).astype(np.float32)
    return (rng.normal(size=(3, 10, D)).astype(np.float32), w(D, D), w(D, D), w(D, D), w(D, D),
            w(D, 32), w(32, D))
