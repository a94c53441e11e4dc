"""Action sampling as in PPO/actor-critic code for gymnax: a small policy network's logits,
jax.random.categorical actions per environment (keys split per step), their log-probabilities
and the policy entropy, several samples per state, and a draw without replacement."""
import jax
import jax.numpy as jnp
import numpy as np


def policy_logits(params, obs):
    hidden = jnp.tanh(obs @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def log_softmax(logits):
    shifted = logits - jnp.max(logits, axis=-1, keepdims=True)
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))


@jax.jit
def program(params, obs, seed):
    key = jax.random.PRNGKey(seed)
    key, act_key, multi_key, top_key, axis_key = jax.random.split(key, 5)
    logits = policy_logits(params, obs)
    actions = jax.random.categorical(act_key, logits)
    logp = jnp.take_along_axis(log_softmax(logits), actions[:, None], axis=1)[:, 0]
    entropy = -jnp.sum(jnp.exp(log_softmax(logits)) * log_softmax(logits), axis=-1)
    several = jax.random.categorical(multi_key, logits, shape=(3, obs.shape[0]))
    distinct = jax.random.categorical(top_key, logits[0], shape=(3,), replace=False)
    along_batch = jax.random.categorical(axis_key, logits, axis=0)
    return actions, logp, entropy.mean(), several, distinct, along_batch


def inputs():
    rng = np.random.default_rng(16)
    params = {"w1": rng.standard_normal((4, 8)).astype(np.float32),
              "b1": np.zeros(8, np.float32),
              "w2": rng.standard_normal((8, 5)).astype(np.float32),
              "b2": np.zeros(5, np.float32)}
    return params, rng.standard_normal((6, 4)).astype(np.float32), np.int32(11)
