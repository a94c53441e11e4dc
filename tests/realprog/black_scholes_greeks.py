"""Black-Scholes prices and greeks by autodiff (grad, vmap, jax.scipy.stats.norm), float32."""
import jax
import jax.numpy as jnp
from jax.scipy.stats import norm
import numpy as np


def call_price(S, K, T, r, sigma):
    d1 = (jnp.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * jnp.sqrt(T))
    d2 = d1 - sigma * jnp.sqrt(T)
    return S * norm.cdf(d1) - K * jnp.exp(-r * T) * norm.cdf(d2)


@jax.jit
def program(S, K, T, sigma):
    r = 0.03
    price = call_price(S, K, T, r, sigma)
    delta = jax.vmap(jax.grad(call_price, argnums=0), in_axes=(0, 0, 0, None, 0))(S, K, T, r, sigma)
    gamma = jax.vmap(jax.grad(jax.grad(call_price)), in_axes=(0, 0, 0, None, 0))(S, K, T, r, sigma)
    vega = jax.vmap(jax.grad(call_price, argnums=4), in_axes=(0, 0, 0, None, 0))(S, K, T, r, sigma)
    pdf = norm.pdf(jnp.linspace(-3, 3, 7))
    return price, delta, gamma, vega, pdf, norm.logpdf(S / K), norm.ppf(jnp.array([0.1, 0.5, 0.975]))


def inputs():
    rng = np.random.default_rng(2)
    n = 32
    return (rng.uniform(80, 120, n).astype(np.float32), rng.uniform(90, 110, n).astype(np.float32),
            rng.uniform(0.1, 2.0, n).astype(np.float32), rng.uniform(0.1, 0.5, n).astype(np.float32))
