"""evosax's CMA-ES on an ellipsoid: recombination weights from log ranks, sampling through the
eigendecomposition of C (jnp.linalg.eigh, clipped eigenvalues), evolution paths for sigma and
C with the Heaviside stall switch, rank-one and rank-mu updates via outer/einsum, and the
generations in a jitted lax.scan with the fitness of each population by vmap. Fifteen
generations: float32 runs drift apart by rounding as the search goes on (about 3e-4 relative
by generation 16 between JAX and transpile with LAPACK's eigenvector signs on both sides),
beyond the corpus's float32 tolerance."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DIM, POPSIZE = 4, 8
MU = POPSIZE // 2


def ellipsoid(x):
    return jnp.sum(10.0 ** (6 * jnp.arange(DIM) / (DIM - 1)) * x ** 2)


def strategy_constants():
    raw = jnp.log((POPSIZE + 1) / 2) - jnp.log(jnp.arange(1, POPSIZE + 1))
    weights = jnp.where(jnp.arange(POPSIZE) < MU, raw, 0.0)
    weights = weights / weights.sum()
    mu_eff = 1.0 / jnp.sum(weights ** 2)
    c_sigma = (mu_eff + 2) / (DIM + mu_eff + 5)
    d_sigma = 1 + 2 * jnp.maximum(0, jnp.sqrt((mu_eff - 1) / (DIM + 1)) - 1) + c_sigma
    c_c = (4 + mu_eff / DIM) / (DIM + 4 + 2 * mu_eff / DIM)
    c_1 = 2 / ((DIM + 1.3) ** 2 + mu_eff)
    c_mu = jnp.minimum(1 - c_1, 2 * (mu_eff - 2 + 1 / mu_eff) / ((DIM + 2) ** 2 + mu_eff))
    chi_n = jnp.sqrt(DIM) * (1 - 1 / (4 * DIM) + 1 / (21 * DIM ** 2))
    return dict(weights=weights, mu_eff=mu_eff, c_sigma=c_sigma, d_sigma=d_sigma, c_c=c_c,
                c_1=c_1, c_mu=c_mu, chi_n=chi_n)


def generation(state, key, k):
    eigenvalues, B = jnp.linalg.eigh(state["C"])
    D = jnp.sqrt(jnp.clip(eigenvalues, 1e-20, None))
    z = jax.random.normal(key, (POPSIZE, DIM))
    y = (B * D) @ z.T
    x = state["mean"] + state["sigma"] * y.T
    fitness = jax.vmap(ellipsoid)(x)
    order = jnp.argsort(fitness)
    y_sorted = y.T[order]
    y_w = jnp.sum(k["weights"][:, None] * y_sorted, axis=0)
    mean = state["mean"] + state["sigma"] * y_w
    C_inv_sqrt = B @ jnp.diag(1 / D) @ B.T
    p_sigma = (1 - k["c_sigma"]) * state["p_sigma"] + jnp.sqrt(
        k["c_sigma"] * (2 - k["c_sigma"]) * k["mu_eff"]) * C_inv_sqrt @ y_w
    norm_p = jnp.linalg.norm(p_sigma)
    generation_count = state["gen"] + 1
    h_sigma = norm_p / jnp.sqrt(1 - (1 - k["c_sigma"]) ** (2 * generation_count)) \
        < (1.4 + 2 / (DIM + 1)) * k["chi_n"]
    p_c = (1 - k["c_c"]) * state["p_c"] + h_sigma * jnp.sqrt(
        k["c_c"] * (2 - k["c_c"]) * k["mu_eff"]) * y_w
    rank_one = jnp.outer(p_c, p_c)
    rank_mu = jnp.einsum("i,ij,ik->jk", k["weights"], y_sorted, y_sorted)
    delta = (1 - h_sigma) * k["c_c"] * (2 - k["c_c"])
    C = ((1 - k["c_1"] - k["c_mu"]) * state["C"] + k["c_1"] * (rank_one + delta * state["C"])
         + k["c_mu"] * rank_mu)
    sigma = state["sigma"] * jnp.exp(k["c_sigma"] / k["d_sigma"] * (norm_p / k["chi_n"] - 1))
    state = dict(mean=mean, sigma=sigma, C=C, p_sigma=p_sigma, p_c=p_c, gen=generation_count)
    return state, (fitness[order[0]], sigma)


@jax.jit
def program(seed, init_mean):
    k = strategy_constants()
    state = dict(mean=init_mean, sigma=jnp.float32(0.5), C=jnp.eye(DIM),
                 p_sigma=jnp.zeros(DIM), p_c=jnp.zeros(DIM), gen=0)
    keys = jax.random.split(jax.random.PRNGKey(seed), 15)
    final, (best, sigmas) = lax.scan(lambda s, key: generation(s, key, k), state, keys)
    return final["mean"], final["sigma"], jnp.linalg.eigvalsh(final["C"]), best, sigmas


def inputs():
    rng = np.random.default_rng(26)
    return np.int32(2), rng.uniform(-1, 1, DIM).astype(np.float32)
