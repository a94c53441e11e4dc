"""transpile code with hazards tracing rejects or mistreats; each is marked with an "expect" comment naming the code,
on the line the finding must be reported at."""
# ruff: noqa
import math
from functools import partial

import transpile as tp
import transpile.numpy as tnp
from transpile import jit as J
from transpile import lax

registry = []
SETTINGS = {"mode": 1}
power = 5


def set_power(p):
    global power
    power = p


@tp.jit
def t1(x):
    if x > 0:  # expect: TP101
        return x
    return -x


@J
def t2(x, n):
    i = 0
    while i < n:  # expect: TP101
        i += 1
    return x + i


@tp.jit
def t3(x):
    total = tnp.sum(x)
    if total > 0:  # expect: TP101
        return x
    return -x


@tp.jit
def t4(x, k):
    return x * int(k)  # expect: TP102


@tp.jit
def t5(x):
    return x.sum().item()  # expect: TP102


@tp.jit
def t6(x):
    return bool(tnp.any(tnp.isnan(x)))  # expect: TP102


@tp.jit
def t7(x, n):
    return x + tnp.arange(n)  # expect: TP103


@tp.jit
def t8(x, rows):
    return x.reshape(rows, -1)  # expect: TP103


@tp.jit
def t9(x, start):
    return x[start:]  # expect: TP103


@tp.jit
def t10(x):
    return x[x > 0].sum()  # expect: TP105


@tp.jit
def t11(x):
    keep = tnp.isfinite(x)
    return tnp.sum(x[keep])  # expect: TP105


@tp.jit
def t12(x):
    return x[(x > 0) & (x < 1)]  # expect: TP105


@tp.jit
def t13(x):
    mask = tnp.isnan(x)
    return not mask  # expect: TP104


@tp.jit
def t14(x):
    ok = x[0] > 0 or x[1] > 0  # expect: TP104
    return ok


@tp.jit
def t15(x):
    print(x)  # expect: TP201
    return x


@tp.jit
def t16(x):
    registry.append(x)  # expect: TP202
    return x


def make_counter():
    calls = []

    @tp.jit
    def step(x):
        calls.append(1)  # expect: TP202
        return x

    return step


def make_tracker():
    last = None

    @tp.jit
    def step(x):
        nonlocal last
        last = x  # expect: TP203
        return x

    return step


@tp.jit
def t17(x):
    return x**power  # expect: TP301


@tp.jit
def t18(x):
    return math.exp(x[0])  # expect: TP102


@tp.jit
def t19(x, lo, hi):
    return tnp.clip(x, lo, hi) if lo < hi else x  # expect: TP101


def helper(v, k):
    if k > 1:  # expect: TP101
        return v
    return -v


@tp.jit
def t20(x, k):
    return helper(x, k)


@tp.jit
def t21(x):
    def cond(v):
        return v.sum() > 0

    def body(v):
        if v[0] > 1:  # expect: TP101
            v = v / 2
        return v - 1

    return lax.while_loop(cond, body, x)


@tp.jit
def t22(xs):
    acc = 0.0
    for i in range(500):  # expect: TP403
        acc = acc + xs[i % 3]
    return acc


def loop_jit(xs):
    return [tp.jit(partial(t1))(x) for x in xs]  # expect: TP401


@partial(tp.jit, static_argnames=("opts",))
def t23(x, opts):
    return x


t23(1.0, opts=SETTINGS)  # expect: TP402


@tp.jit
def t24(x, flag):
    match flag:
        case 1:  # expect: TP101
            return x
        case _:
            return -x


@tp.jit
def t25(x):
    values = [v * 2 for v in x if v > 0]  # expect: TP101
    return values


@tp.jit
def t26(x):
    m = tnp.max(x)
    return x / m if m else x  # expect: TP101


@tp.jit
def t27(a, b):
    diff = tnp.abs(a - b).max()
    assert diff < 1e-3, "mismatch"  # expect: TP101
    return a
