"""Root finding and iterative solvers with lax.while_loop: vmapped bisection, Newton with a
tolerance-based stop, and a power iteration with a tuple carry and an iteration counter."""
import jax
import jax.numpy as jnp
import numpy as np


def bisect(f, lo, hi, tol=1e-6):
    def cond(s):
        lo, hi, i = s
        return (hi - lo > tol) & (i < 100)
    def body(s):
        lo, hi, i = s
        mid = 0.5 * (lo + hi)
        left = jnp.sign(f(mid)) == jnp.sign(f(lo))
        return jnp.where(left, mid, lo), jnp.where(left, hi, mid), i + 1
    lo, hi, i = jax.lax.while_loop(cond, body, (lo, hi, 0))
    return 0.5 * (lo + hi), i


@jax.jit
def program(c, M):
    roots, iters = jax.vmap(lambda c: bisect(lambda x: x ** 3 - c, 0.0, 10.0))(c)
    def newton_cond(s):
        x, dx = s
        return jnp.abs(dx) > 1e-6
    def newton_body(s):
        x, _ = s
        f, df = jnp.cos(x) - x, -jnp.sin(x) - 1
        return x - f / df, f / df
    x, _ = jax.lax.while_loop(newton_cond, newton_body, (jnp.float32(1.0), jnp.float32(1.0)))
    def pi_body(s):
        v, lam, k = s
        w = M @ v
        return w / jnp.linalg.norm(w), v @ w, k + 1
    v, lam, k = jax.lax.while_loop(lambda s: s[2] < 200, pi_body, (jnp.ones(M.shape[0]) / 2, 0.0, 0))
    return roots, iters, x, lam, jnp.abs(v)


def inputs():
    rng = np.random.default_rng(16)
    a = rng.normal(size=(4, 4))
    return rng.uniform(1, 100, 8).astype(np.float32), (a @ a.T).astype(np.float32)
