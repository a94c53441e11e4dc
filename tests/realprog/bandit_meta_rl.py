"""Meta-RL on gymnax's Bernoulli bandit: arm probabilities drawn per episode with
jax.random.uniform, a GRU policy carrying its hidden state through a lax.scan over
trials (previous action one-hot and reward as input), actions by jax.random.categorical,
an episode batch by vmap, and an A2C-style loss (policy gradient with a value baseline and an
entropy bonus) differentiated with jax.value_and_grad through the scanned GRU."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ARMS, HIDDEN, TRIALS = 2, 8, 20


def init_params(key):
    k = jax.random.split(key, 4)
    glorot = jax.nn.initializers.glorot_uniform()
    return {"wx": glorot(k[0], (ARMS + 1, 3 * HIDDEN)), "wh": glorot(k[1], (HIDDEN, 3 * HIDDEN)),
            "b": jnp.zeros(3 * HIDDEN), "pi": glorot(k[2], (HIDDEN, ARMS)),
            "v": glorot(k[3], (HIDDEN, 1))}


def gru(params, h, x):
    gates_x = x @ params["wx"] + params["b"]
    gates_h = h @ params["wh"]
    r = jax.nn.sigmoid(gates_x[:HIDDEN] + gates_h[:HIDDEN])
    z = jax.nn.sigmoid(gates_x[HIDDEN:2 * HIDDEN] + gates_h[HIDDEN:2 * HIDDEN])
    n = jnp.tanh(gates_x[2 * HIDDEN:] + r * gates_h[2 * HIDDEN:])
    return (1 - z) * n + z * h


def episode(params, key):
    key_arms, key_run = jax.random.split(key)
    probs = jax.random.uniform(key_arms, (ARMS,))

    def trial(carry, key):
        h, prev_action, prev_reward = carry
        x = jnp.concatenate([jax.nn.one_hot(prev_action, ARMS), prev_reward[None]])
        h = gru(params, h, x)
        logits = h @ params["pi"]
        key_act, key_reward = jax.random.split(key)
        action = jax.random.categorical(key_act, lax.stop_gradient(logits))
        reward = jax.random.bernoulli(key_reward, probs[action]).astype(jnp.float32)
        value = (h @ params["v"])[0]
        logp = jax.nn.log_softmax(logits)
        entropy = -jnp.sum(jnp.exp(logp) * logp)
        return (h, action, reward), (logp[action], value, reward, entropy)

    carry = (jnp.zeros(HIDDEN), jnp.int32(0), jnp.float32(0.0))
    _, (logps, values, rewards, entropies) = lax.scan(trial, carry,
                                                      jax.random.split(key_run, TRIALS))
    returns = lax.scan(lambda g, r: (r + 0.9 * g, r + 0.9 * g), 0.0, rewards, reverse=True)[1]
    advantage = lax.stop_gradient(returns - values)
    loss = -jnp.mean(logps * advantage) + 0.5 * jnp.mean((returns - values) ** 2) \
        - 0.01 * jnp.mean(entropies)
    return loss, rewards.sum()


def batch_loss(params, keys):
    losses, totals = jax.vmap(episode, in_axes=(None, 0))(params, keys)
    return losses.mean(), totals.mean()


@jax.jit
def update(params, key):
    (loss, total), grads = jax.value_and_grad(batch_loss, has_aux=True)(
        params, jax.random.split(key, 8))
    params = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, params, grads)
    return params, loss, total


def program(seed):
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key)
    losses, totals = [], []
    for _ in range(3):
        key, sub = jax.random.split(key)
        params, loss, total = update(params, sub)
        losses.append(loss)
        totals.append(total)
    return jnp.stack(losses), jnp.stack(totals), params["pi"]


def inputs():
    return (np.int32(12),)
