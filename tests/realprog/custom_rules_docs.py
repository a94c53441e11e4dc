"""JAX's "Custom derivative rules" tutorial: log1pexp with a custom_jvp (stable gradient at
large inputs, grad of grad, vmap, jit), f via defjvps, a clip_gradient custom_vjp with
nondiff arguments, a fixed point with a custom_vjp solving the adjoint by another fixed
point (while_loop), and jax.checkpoint on a composed function."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import custom_jvp, custom_vjp, grad, jit, vmap


@custom_jvp
def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    return log1pexp(x), x_dot * (1. - 1. / (1. + jnp.exp(x)))


@custom_jvp
def f(x, y):
    return jnp.sin(x) * y


f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
          lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)


@partial(custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, None


def clip_gradient_bwd(lo, hi, _, g):
    return (jnp.clip(g, lo, hi),)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def fixed_point(f, a, x_guess):
    def cond(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6

    def body(carry):
        _, x = carry
        return x, f(a, x)

    _, x_star = jax.lax.while_loop(cond, body, (x_guess, f(a, x_guess)))
    return x_star


@partial(custom_vjp, nondiff_argnums=(0,))
def fixed_point_vjp(f, a, x_guess):
    return fixed_point(f, a, x_guess)


def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)


def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = jax.vjp(lambda a: f(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(lambda res, v, w: jax.vjp(
        lambda x: f(res[0], x), res[1])[1](v)[0] + w, (a, x_star)), x_star_bar, x_star_bar))
    return a_bar, jnp.zeros_like(x_star)


fixed_point_vjp.defvjp(fixed_point_fwd, fixed_point_rev)


def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)
    return fixed_point_vjp(update, a, a)


@jit
def program(xs):
    stable = vmap(grad(log1pexp))(xs * 30.0)
    second = vmap(grad(grad(log1pexp)))(xs)
    fy = jax.jvp(f, (xs[0], xs[1]), (1.0, 0.5))
    f_grads = grad(f, argnums=(0, 1))(xs[0], xs[1])
    clipped = vmap(grad(lambda x: clip_gradient(-0.75, 0.75, x ** 3)))(xs)
    sqrt_val = newton_sqrt(2.0 + xs[2] ** 2)
    sqrt_grad = grad(newton_sqrt)(2.0 + xs[2] ** 2)
    remat = grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)) * x))(xs[3])
    return stable, second, fy, f_grads, clipped, sqrt_val, sqrt_grad, remat


def inputs():
    return (np.array([-1.5, -0.3, 0.4, 1.2, 2.5], np.float32),)
