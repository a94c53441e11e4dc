"""A decoder block as Flax/Haiku transformer examples build it from jax.nn pieces:
jax.nn.dot_product_attention with a causal mask, grouped-query heads (4 query heads over 2
key/value heads), a boolean padding mask and per-sequence key lengths, layer norm by
jax.nn.standardize, a gelu MLP, and a next-token cross-entropy trained by value_and_grad for a
few jitted Adam steps (optimizers.adam); a 3-D (unbatched) call checks that form too."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers

VOCAB, D, HEADS, KV_HEADS = 11, 16, 4, 2
HEAD = D // HEADS


def init(key):
    k = jax.random.split(key, 6)
    normal = jax.nn.initializers.normal(0.2)
    return {"embed": normal(k[0], (VOCAB, D)), "wq": normal(k[1], (D, HEADS * HEAD)),
            "wkv": normal(k[2], (D, 2 * KV_HEADS * HEAD)), "wo": normal(k[3], (D, D)),
            "w1": normal(k[4], (D, 2 * D)), "w2": normal(k[5], (2 * D, D))}


def block(params, tokens, lengths):
    b, t = tokens.shape
    x = params["embed"][tokens]
    h = jax.nn.standardize(x, axis=-1)
    q = (h @ params["wq"]).reshape(b, t, HEADS, HEAD)
    k, v = jnp.split((h @ params["wkv"]).reshape(b, t, 2 * KV_HEADS, HEAD), 2, axis=2)
    pad = (jnp.arange(t)[None, :] < lengths[:, None])[:, None, None, :]
    attended = jax.nn.dot_product_attention(q, k, v, mask=pad, is_causal=True,
                                            key_value_seq_lengths=lengths)
    x = x + attended.reshape(b, t, D) @ params["wo"]
    x = x + jax.nn.gelu(jax.nn.standardize(x, axis=-1) @ params["w1"]) @ params["w2"]
    return x @ params["embed"].T


def loss_fn(params, tokens, lengths):
    logits = block(params, tokens[:, :-1], lengths - 1)
    logp = jax.nn.log_softmax(logits)
    targets = jax.nn.one_hot(tokens[:, 1:], VOCAB)
    valid = (jnp.arange(tokens.shape[1] - 1)[None, :] < (lengths - 1)[:, None])
    return -jnp.sum(jnp.sum(logp * targets, -1) * valid) / valid.sum()


def program(tokens, lengths):
    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    state = opt_init(init(jax.random.PRNGKey(5)))

    @jax.jit
    def train_step(i, state):
        loss, grads = jax.value_and_grad(loss_fn)(get_params(state), tokens, lengths)
        return opt_update(i, grads, state), loss

    losses = []
    for i in range(3):
        state, loss = train_step(i, state)
        losses.append(loss)
    params = get_params(state)
    rng = np.random.default_rng(0)
    q3, k3 = (jnp.asarray(rng.standard_normal((5, 2, 3)), jnp.float32) for _ in range(2))
    single = jax.nn.dot_product_attention(q3, k3, k3, scale=0.5, local_window_size=1)
    return jnp.stack(losses), block(params, tokens, lengths)[:, -1], single


def inputs():
    rng = np.random.default_rng(35)
    return rng.integers(0, VOCAB, (3, 7)).astype(np.int32), np.array([7, 5, 3], np.int32)
