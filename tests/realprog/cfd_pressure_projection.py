"""An incompressible 2-D flow step in jax-cfd's style: a periodic staggered-free grid, advection
by central differences and jnp.roll, the pressure Poisson equation solved matrix-free with
jax.scipy.sparse.linalg.cg (a Laplacian closure, a pytree right-hand side, a Jacobi
preconditioner), the projection making the velocity divergence-free, and the steps in a
jitted lax.scan; the script checks the state with jax.tree_util.tree_all and sizes its batch
by jax.local_device_count() inside jax.named_scope, as training scripts do."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.sparse.linalg import cg

N, DX, DT, NU = 16, 1.0 / 16, 0.01, 0.01


def ddx(f, axis):
    return (jnp.roll(f, -1, axis) - jnp.roll(f, 1, axis)) / (2 * DX)


def laplacian(f):
    return (jnp.roll(f, 1, 0) + jnp.roll(f, -1, 0) + jnp.roll(f, 1, 1) + jnp.roll(f, -1, 1)
            - 4 * f) / DX ** 2


def negative_laplacian_tree(tree):
    # SPD once the constant mode is pinned: -lap(p) + p's mean
    return {"p": -laplacian(tree["p"]) + jnp.mean(tree["p"])}


def project(u, v):
    divergence = ddx(u, 0) + ddx(v, 1)
    diag = 4 / DX ** 2
    pressure, _ = cg(negative_laplacian_tree, {"p": -divergence / DT}, tol=1e-6,
                     M=lambda t: {"p": t["p"] / diag})
    p = pressure["p"]
    return u + DT * ddx(p, 0), v + DT * ddx(p, 1), p


def step(state, _):
    u, v = state
    u_star = u + DT * (-(u * ddx(u, 0) + v * ddx(u, 1)) + NU * laplacian(u))
    v_star = v + DT * (-(u * ddx(v, 0) + v * ddx(v, 1)) + NU * laplacian(v))
    u, v, p = project(u_star, v_star)
    divergence = jnp.abs(ddx(u, 0) + ddx(v, 1)).max()
    return (u, v), (0.5 * jnp.mean(u ** 2 + v ** 2), divergence, p.std())


@jax.jit
def simulate(u, v):
    return lax.scan(step, (u, v), None, length=8)


def program(u0, v0):
    batch = 2 * jax.local_device_count()
    with jax.named_scope("simulate"):
        (u, v), (energy, divergence, pressure_std) = simulate(u0[:batch][0], v0[:batch][0])
    finite = jax.tree_util.tree_all(jax.tree_util.tree_map(lambda a: bool(jnp.isfinite(a).all()),
                                                           (u, v)))
    direct, _ = cg(np.eye(4) * 2.0 + 0.5, jnp.arange(4.0))
    return u, v, energy, pressure_std, jnp.asarray(finite), direct


def inputs():
    x = np.arange(N) * DX
    xx, yy = np.meshgrid(x, x, indexing="ij")
    u = np.sin(2 * np.pi * xx) * np.cos(2 * np.pi * yy) + 0.3 * np.sin(4 * np.pi * yy)
    v = -np.cos(2 * np.pi * xx) * np.sin(2 * np.pi * yy) + 0.2 * np.cos(2 * np.pi * xx)
    return (np.stack([u, u]).astype(np.float32), np.stack([v, v]).astype(np.float32))
