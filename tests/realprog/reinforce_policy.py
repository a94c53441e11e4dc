"""A REINFORCE policy gradient in the style of gymnax-blines: a linear softmax policy acting in
a jitted CartPole rollout (lax.scan, actions from jax.random.categorical), episodes batched
with vmap over keys, the log-likelihood of the taken actions weighted by discounted returns
(a reverse scan) differentiated with value_and_grad, and Adam-free SGD updates in a loop."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

GAMMA = 0.99


def cartpole_step(state, action):
    x, x_dot, theta, theta_dot = state
    force = jnp.where(action == 1, 10.0, -10.0)
    cos, sin = jnp.cos(theta), jnp.sin(theta)
    temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
    theta_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
    x_acc = temp - 0.05 * theta_acc * cos / 1.1
    state = jnp.stack([x + 0.02 * x_dot, x_dot + 0.02 * x_acc,
                       theta + 0.02 * theta_dot, theta_dot + 0.02 * theta_acc])
    done = (jnp.abs(state[0]) > 2.4) | (jnp.abs(state[2]) > 0.2095)
    return state, done


def rollout(params, key, init):
    def step(carry, key):
        state, alive = carry
        logits = state @ params["w"] + params["b"]
        action = jax.random.categorical(key, logits)
        next_state, done = cartpole_step(state, action)
        reward = alive.astype(jnp.float32)
        return (next_state, alive & ~done), (state, action, reward)

    _, trajectory = lax.scan(step, (init, jnp.bool_(True)), jax.random.split(key, 60))
    return trajectory


def discounted_returns(rewards):
    def back(g, r):
        g = r + GAMMA * g
        return g, g
    return lax.scan(back, 0.0, rewards, reverse=True)[1]


def surrogate(params, states, actions, returns):
    logp = jax.nn.log_softmax(states @ params["w"] + params["b"])
    taken = jnp.take_along_axis(logp, actions[..., None], axis=-1)[..., 0]
    baseline = returns.mean(axis=0, keepdims=True)
    return -jnp.mean(jnp.sum(taken * (returns - baseline), axis=-1))


@jax.jit
def update(params, key, inits):
    keys = jax.random.split(key, inits.shape[0])
    states, actions, rewards = jax.vmap(rollout, (None, 0, 0))(params, keys, inits)
    returns = jax.vmap(discounted_returns)(rewards)
    loss, grads = jax.value_and_grad(surrogate)(params, states, actions, returns)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
    return params, loss, rewards.sum(axis=1).mean()


def program(w, inits):
    params = {"w": w, "b": jnp.zeros(2)}
    key = jax.random.PRNGKey(42)
    losses, lengths = [], []
    for _ in range(3):
        key, sub = jax.random.split(key)
        params, loss, length = update(params, sub, inits)
        losses.append(loss)
        lengths.append(length)
    return params, jnp.stack(losses), jnp.stack(lengths)


def inputs():
    rng = np.random.default_rng(20)
    return ((0.1 * rng.standard_normal((4, 2))).astype(np.float32),
            rng.uniform(-0.05, 0.05, (6, 4)).astype(np.float32))
