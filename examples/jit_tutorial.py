"""The seed documents' examples (JAX's jit tutorial and a user's notes), on transpile.

    python examples/jit_tutorial.py
"""
from functools import partial

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax


def log2(x):
    ln_x = tnp.log(x)
    ln_2 = tnp.log(2.0)
    return ln_x / ln_2


def log2_if_rank_2(x):
    if x.ndim == 2:
        return tnp.log(x) / tnp.log(2.0)
    return x


def f(x):
    if x > 0:
        return x
    return 2 * x


def g(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i


@tp.jit
def dotproduct(x, y):
    print(f"tracing dotproduct with x={x} y={y}")
    return tnp.dot(x, y)


@tp.jit
def sum_of_sqs(xs):
    return tnp.sum(tnp.array([x**2 for x in xs]))


def main():
    print("jaxpr-style IR of log2:")
    print(tp.make_ir(log2)(3.0))
    print(tp.make_ir(log2_if_rank_2)(np.array([1, 2, 3])))
    print(tp.make_ir(lambda x: tnp.maximum(0., x))(5.))

    x = np.random.default_rng(0).random(100).astype(np.float32)
    print("dot:", dotproduct(x, x.T), "(traced once)", dotproduct(x, x.T))

    for fun, args in ((f, (10,)), (g, (10, 20))):
        try:
            tp.jit(fun)(*args)
        except tp.ConcretizationError as err:
            print(f"\n{fun.__name__}: {type(err).__name__}: {err}\n")
    print("static argnums:", tp.jit(f, static_argnums=0)(10))
    print("static argnames:", tp.jit(g, static_argnames=["n"])(10, 20))
    print("partial:", partial(tp.jit, static_argnames=["n"])(g)(10, 20))

    print("list pytree:", sum_of_sqs([0., 1., 2.]))
    try:
        sum_of_sqs(iter([0., 1., 2.]))
    except TypeError as err:
        print("iterator:", err)

    ary = tnp.array([0., 1., 2.])
    print("fori_loop:", lax.fori_loop(0, 3, lambda idx, acc: acc + ary[idx]**2, 0))


if __name__ == "__main__":
    main()
