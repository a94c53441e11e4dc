"""Tabular RL: value iteration on a gridworld with a transition tensor built by .at[].add,
greedy policy with argmax, policy evaluation by linalg.solve, and Q-learning updates inside
fori_loop driven by random transitions (int32 state arithmetic, jnp.clip, take)."""
import jax
import jax.numpy as jnp
import numpy as np

N = 5
ACTIONS = jnp.array([[0, 1], [1, 0], [0, -1], [-1, 0]])


def transitions():
    s = jnp.arange(N * N)
    r, c = s // N, s % N
    P = jnp.zeros((N * N, 4, N * N))
    for a in range(4):
        nr = jnp.clip(r + ACTIONS[a, 0], 0, N - 1)
        nc = jnp.clip(c + ACTIONS[a, 1], 0, N - 1)
        P = P.at[s, a, nr * N + nc].add(0.8)
        P = P.at[s, a, s].add(0.2)
    return P


@jax.jit
def program(reward, key):
    P = transitions()
    gamma = 0.9
    def vi(_, V):
        return jnp.max(reward[:, None] + gamma * P @ V, axis=1)
    V = jax.lax.fori_loop(0, 100, vi, jnp.zeros(N * N))
    pi = jnp.argmax(reward[:, None] + gamma * P @ V, axis=1)
    Ppi = P[jnp.arange(N * N), pi]
    Vpi = jnp.linalg.solve(jnp.eye(N * N) - gamma * Ppi, reward)
    def ql(i, carry):
        Q, s, key = carry
        key, k1, k2 = jax.random.split(key, 3)
        a = jax.random.randint(k1, (), 0, 4)
        s2 = jax.random.categorical(k2, jnp.log(P[s, a] + 1e-12))
        Q = Q.at[s, a].add(0.1 * (reward[s] + gamma * Q[s2].max() - Q[s, a]))
        return Q, s2, key
    Q, s, _ = jax.lax.fori_loop(0, 500, ql, (jnp.zeros((N * N, 4)), 0, key))
    return V, pi, Vpi, Q.max(1), s


def inputs():
    rng = np.random.default_rng(20)
    r = np.zeros(N * N, np.float32); r[-1] = 1.0; r[7] = -0.5
    return r, np.array([3, 4], np.uint32)
