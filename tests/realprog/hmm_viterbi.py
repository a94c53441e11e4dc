"""HMM forward algorithm (logsumexp) and Viterbi decoding with a reverse scan backtrack."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import logsumexp
import numpy as np


@jax.jit
def program(log_pi, log_a, log_b, obs):
    def fwd(alpha, o):
        alpha = logsumexp(alpha[:, None] + log_a, axis=0) + log_b[:, o]
        return alpha, alpha
    alpha0 = log_pi + log_b[:, obs[0]]
    alpha_t, alphas = lax.scan(fwd, alpha0, obs[1:])
    loglik = logsumexp(alpha_t)

    def vit(delta, o):
        scores = delta[:, None] + log_a
        best = jnp.argmax(scores, axis=0)
        return jnp.max(scores, axis=0) + log_b[:, o], best
    delta_t, backptrs = lax.scan(vit, alpha0, obs[1:])
    last = jnp.argmax(delta_t)
    def back(state, bp):
        prev = bp[state]
        return prev, state
    first, path = lax.scan(back, last, backptrs, reverse=True)
    path = jnp.concatenate([first[None], path])
    return loglik, path, alphas[-1], jax.nn.softmax(alpha_t)


def inputs():
    rng = np.random.default_rng(1)
    a = rng.dirichlet(np.ones(3), 3); b = rng.dirichlet(np.ones(4), 3)
    return (np.log(np.full(3, 1 / 3)).astype(np.float32), np.log(a).astype(np.float32),
            np.log(b).astype(np.float32), rng.integers(0, 4, 25).astype(np.int32))
