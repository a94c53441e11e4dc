"""CartPole in the style of gymnax's classic-control environments: a jitted step on a
float32 state, a reward and done flag, rolled out over a fixed action sequence with lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

PARAMS = {"gravity": 9.8, "masscart": 1.0, "masspole": 0.1, "length": 0.5,
          "force_mag": 10.0, "tau": 0.02, "theta_threshold": 12 * 2 * jnp.pi / 360,
          "x_threshold": 2.4}


def step(state, action):
    x, x_dot, theta, theta_dot, t = state
    p = PARAMS
    total_mass = p["masscart"] + p["masspole"]
    polemass_length = p["masspole"] * p["length"]
    force = p["force_mag"] * action - p["force_mag"] * (1 - action)
    costheta, sintheta = jnp.cos(theta), jnp.sin(theta)
    temp = (force + polemass_length * theta_dot ** 2 * sintheta) / total_mass
    thetaacc = (p["gravity"] * sintheta - costheta * temp) / (
        p["length"] * (4.0 / 3.0 - p["masspole"] * costheta ** 2 / total_mass))
    xacc = temp - polemass_length * thetaacc * costheta / total_mass
    x = x + p["tau"] * x_dot
    x_dot = x_dot + p["tau"] * xacc
    theta = theta + p["tau"] * theta_dot
    theta_dot = theta_dot + p["tau"] * thetaacc
    done = jnp.logical_or(
        jnp.abs(x) > p["x_threshold"], jnp.abs(theta) > p["theta_threshold"])
    reward = 1.0 - done
    new_state = (x, x_dot, theta, theta_dot, t + 1)
    obs = jnp.array([x, x_dot, theta, theta_dot])
    return new_state, (obs, reward, done)


@jax.jit
def program(init, actions):
    state = (init[0], init[1], init[2], init[3], jnp.int32(0))
    final, (obs, rewards, dones) = lax.scan(step, state, actions)
    return obs, rewards.sum(), dones, final[4]


def inputs():
    rng = np.random.default_rng(0)
    init = rng.uniform(-0.05, 0.05, 4).astype(np.float32)
    actions = rng.integers(0, 2, 40).astype(np.int32)
    return init, actions
