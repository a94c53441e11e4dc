"""JAX's "Sharp bits" and dtype-promotion pages as a program: out-of-bounds reads clamp and
updates drop, .at[].get(mode="fill"), the NaN-safe double-where under grad, int32 overflow
wrapping, weak Python scalars against int8/uint8/float16 arrays, true division of integers,
mixed bool/int/float jnp.array of Python and traced values, key splitting vs fold_in, and
x64-off canonicalisation of int64/float64 requests."""
import jax
import jax.numpy as jnp
import numpy as np


def safe_log_where(x):
    safe = jnp.where(x > 0.0, x, 1.0)
    return jnp.where(x > 0.0, jnp.log(safe), 0.0)


@jax.jit
def program(x, i8, u8, big):
    clamped = x[jnp.array([0, 7, -9])]
    dropped = x.at[jnp.array([1, 9])].add(10.0)
    filled = x.at[jnp.array([2, 11])].get(mode="fill", fill_value=-1.0)
    grads = jax.vmap(jax.grad(safe_log_where))(jnp.concatenate([x, -x]))
    wrapped = big + jnp.int32(2 ** 30)
    weak = (i8 + 1, u8 * 3, i8 / 2, u8 // 7, x.astype(jnp.float16) * 0.1, i8 + 300.0)
    divided = jnp.arange(5) / 2
    mixed = jnp.array([True, 2, x[0], 0.5 * i8[0]])
    key = jax.random.PRNGKey(0)
    split_draw = jax.random.normal(jax.random.split(key)[1], (2,))
    folded = jax.random.uniform(jax.random.fold_in(key, 7), (2,))
    canonical = (jnp.zeros(2, dtype=jnp.int64), jnp.ones(2, dtype=jnp.float64),
                 jnp.asarray(3) * 2.5, jnp.arange(3.0).sum())
    return (clamped, dropped, filled, grads, wrapped, weak, divided, mixed, split_draw, folded,
            canonical)


def inputs():
    x = np.array([0.5, 1.0, 2.0, 4.0], np.float32)
    return (x, np.array([100, -120, 7], np.int8), np.array([200, 3, 90], np.uint8),
            np.array([2 ** 30, 5], np.int32))
