"""JAX code with hazards tracing rejects or mistreats; each is marked with an "expect" comment naming the code, on the
line the finding must be reported at."""
# ruff: noqa
import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, lax

HISTORY = []
CACHE = {}
scale = 1.0


@jax.jit
def h1(x, hi):
    if (x > hi).any():  # expect: TP101
        x = x - hi
    return x


@jax.jit
def h2(a, b):
    if (a - b).sum() > 0:  # expect: TP101
        return a
    return b


@jax.jit
def h3(x):
    return jnp.sum(x).item()  # expect: TP102


@jax.jit
def h4(x):
    return float(jnp.abs(x).max())  # expect: TP102


@jax.jit
def h5(x, tol):
    err = jnp.abs(x).max()
    while err > tol:  # expect: TP101
        x = x / 2
        err = jnp.abs(x).max()
    return x


@jit
def h6(x, n):
    for i in range(n):  # expect: TP103
        x = x + i
    return x


@jax.jit
def h7(x, n):
    return jnp.zeros(n) + x  # expect: TP103


@jax.jit
def h8(x, k):
    return x[:k]  # expect: TP103


@jax.jit
def h9(x):
    return x[x > 0]  # expect: TP105


@jax.jit
def h10(x):
    return jnp.nonzero(x)  # expect: TP105


@jax.jit
def h11(x):
    return jnp.argwhere(x > 0)  # expect: TP105


@jax.jit
def h12(x):
    return jnp.unique(x)  # expect: TP105


@jax.jit
def h13(x):
    return jnp.where(x > 1)  # expect: TP105


@jax.jit
def h14(x):
    return jnp.flatnonzero(x)  # expect: TP105


@jax.jit
def h15(x):
    mask = jnp.isnan(x)
    return x[~mask].mean()  # expect: TP105


@jax.jit
def h16(x):
    print("x is", x)  # expect: TP201
    return x


@jax.jit
def h17(x):
    HISTORY.append(x)  # expect: TP202
    return x * 2


@jax.jit
def h18(x):
    CACHE["last"] = x  # expect: TP202
    return x


@jax.jit
def h19(x):
    global scale
    scale = 2.0  # expect: TP203
    return x * scale  # expect: TP301


@jax.jit
def h20(x):
    return math.sqrt(x @ x)  # expect: TP102


@jax.jit
def h21(x):
    return np.asarray(x)  # expect: TP102


@jax.jit
def h22(x, y):
    return max(jnp.sum(x), y)  # expect: TP102


@jax.jit
def h23(x):
    return (x[0] > 0) and (x[0] < 1)  # expect: TP104


@jax.jit
def h24(x):
    return not jnp.isnan(x).any()  # expect: TP104


@jax.jit
def h25(x, lo):
    return 0 < lo < 1  # expect: TP104


@jax.jit
def h26(x):
    m = jnp.max(x)
    return x if m > 1 else -x  # expect: TP101


@jax.jit
def h27(x, n):
    assert n > 0  # expect: TP101
    return x


def clamp(v):
    if v > 1:  # expect: TP101
        return v
    return v + 1


@jax.jit
def h28(x):
    return clamp(x[0])


@jax.jit
def h29(state):
    params, step = state
    if step > 100:  # expect: TP101
        params = params * 0.5
    return params


@jax.jit
def h30(x):
    def body(i, v):
        if v.sum() > 0:  # expect: TP101
            return v
        return -v

    return lax.fori_loop(0, 3, body, x)


@jax.jit
def h31(x):
    for _ in range(1000):  # expect: TP403
        x = x * 0.5
    return x


def run(xs):
    out = []
    for x in xs:
        out.append(jax.jit(lambda v: v * 2)(x))  # expect: TP401
    return out


@partial(jax.jit, static_argnames=["dims"])
def total(x, dims):
    return x.sum(axis=dims)


y = total(1.0, [0, 1])  # expect: TP402


@jax.jit
def h32(x, threshold):
    count = 0
    for v in x:
        if v > threshold:  # expect: TP101
            count += 1
    return count


@jax.jit
def h33(params, x):
    w = params["w"]
    if w.mean() > 0:  # expect: TP101
        x = x * w
    return x
