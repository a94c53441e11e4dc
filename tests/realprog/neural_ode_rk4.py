"""A neural ODE integrated with RK4 in lax.scan; loss gradient w.r.t. parameters (jax.grad)."""
import jax
import jax.numpy as jnp
import numpy as np


def field(params, y, t):
    h = jnp.tanh(y @ params["w1"] + params["b1"] + t)
    return h @ params["w2"]


def odeint_rk4(params, y0, ts):
    def step(y, tt):
        t0, t1 = tt
        dt = t1 - t0
        k1 = field(params, y, t0)
        k2 = field(params, y + dt / 2 * k1, t0 + dt / 2)
        k3 = field(params, y + dt / 2 * k2, t0 + dt / 2)
        k4 = field(params, y + dt * k3, t1)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return y, y
    _, ys = jax.lax.scan(step, y0, (ts[:-1], ts[1:]))
    return jnp.concatenate([y0[None], ys])


@jax.jit
def program(w1, w2, y0, target):
    params = {"w1": w1, "b1": jnp.zeros(w1.shape[1]), "w2": w2}
    ts = jnp.linspace(0.0, 1.0, 21)
    def loss(p):
        ys = odeint_rk4(p, y0, ts)
        return jnp.mean((ys[-1] - target) ** 2)
    l, g = jax.value_and_grad(loss)(params)
    return l, g["w1"], g["w2"], g["b1"], odeint_rk4(params, y0, ts)[::5]


def inputs():
    rng = np.random.default_rng(3)
    return (rng.normal(size=(2, 8)).astype(np.float32) * 0.5,
            rng.normal(size=(8, 2)).astype(np.float32) * 0.5,
            rng.normal(size=(5, 2)).astype(np.float32), rng.normal(size=(5, 2)).astype(np.float32))
