"""NPBench's kernels (spcl/npbench, the JAX versions) rewritten against a library namespace,
so the same program runs under transpile (`transpile.numpy`, `transpile.lax`, `transpile.jit`)
and under JAX (`jax.numpy`, `jax.lax`, `jax.jit`), and a plain NumPy reference beside each.

Each kernel keeps the structure of its NPBench JAX version (what is traced: whole-array
products, `fori_loop`s with `dynamic_update_slice`, Python loops unrolled at trace time, nested
jitted helpers, static arguments), since first-call time depends on that structure. Sizes
are NPBench's preset S (bench_info/*.json) and a "tiny" preset for tests. All data are float64
(NPBench's default datatype; JAX runs with x64 enabled), except where NPBench's initializer
fixes another dtype (softmax's float32 input, crc16's bytes).

Used by benchmarks/bench_npbench_firstcall.py and tests/test_npbench_kernels.py.
"""
from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace
from typing import Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Kernel:
    name: str
    make: Callable            # make(lib) -> a fresh function (lib: np, lax, jit)
    init: Callable            # init(sizes) -> the arguments
    reference: Callable       # reference(*args) -> what the kernel returns, by NumPy
    sizes: dict               # preset name -> sizes
    static_argnums: tuple = ()
    rtol: float = 1e-9


KERNELS: list[Kernel] = []


def kernel(name, sizes, init, reference, static_argnums=(), rtol=1e-9):
    """Register the decorated maker as a kernel."""
    def register(make):
        KERNELS.append(Kernel(name, make, init, reference, sizes, static_argnums, rtol))
        return make
    return register


def _rng():
    return np.random.default_rng(42)


def _arrays(*shapes):
    rng = _rng()
    return tuple(rng.random(shape) for shape in shapes)


# -- dense linear algebra -------------------------------------------------------------------

@kernel("doitgen", {"S": dict(NR=60, NQ=60, NP=128), "tiny": dict(NR=3, NQ=4, NP=5)},
        lambda s: (s["NR"], s["NQ"], s["NP"], *_arrays((s["NR"], s["NQ"], s["NP"]),
                                                       (s["NP"], s["NP"]))),
        lambda NR, NQ, NP, A, C4: A @ C4, static_argnums=(0, 1, 2))
def make_doitgen(lib):
    def doitgen(NR, NQ, NP, A, C4):
        rows = lib.np.reshape(A, (NR, NQ, 1, NP)) @ C4
        return A.at[:].set(lib.np.reshape(rows, (NR, NQ, NP)))
    return doitgen


@kernel("trmm", {"S": dict(M=65, N=80), "tiny": dict(M=5, N=7)},
        lambda s: (1.5, *_arrays((s["M"], s["M"]), (s["M"], s["N"]))),
        lambda alpha, A, B: alpha * (B + np.triu(A, 1) @ B))
def make_trmm(lib):
    def trmm(alpha, A, B):
        strictly_upper = lib.np.triu(A, 1)
        B += strictly_upper @ B
        B *= alpha
        return B
    return trmm


def _centered(data):
    return data - data.mean(axis=0)


@kernel("covariance", {"S": dict(M=500, N=600), "tiny": dict(M=5, N=8)},
        lambda s: (s["M"], float(s["N"]), *_arrays((s["N"], s["M"]))),
        lambda M, float_n, data: _centered(data).T @ _centered(data) / (float_n - 1.0),
        static_argnums=(0,))
def make_covariance(lib):
    def covariance(M, float_n, data):
        data -= lib.np.mean(data, axis=0)
        return data.T @ data / (float_n - 1.0)
    return covariance


def _gemver_reference(alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
    A = A + np.outer(u1, v1) + np.outer(u2, v2)
    x = x + beta * y @ A + z
    return A, x, w + alpha * A @ x


@kernel("gemver", {"S": dict(N=1000), "tiny": dict(N=6)},
        lambda s: (1.5, 1.2, *_arrays((s["N"], s["N"]), *[(s["N"],)] * 8)),
        _gemver_reference)
def make_gemver(lib):
    def gemver(alpha, beta, A, u1, v1, u2, v2, w, x, y, z):
        A += lib.np.outer(u1, v1) + lib.np.outer(u2, v2)
        x += beta * y @ A + z
        w += alpha * A @ x
        return A, x, w
    return gemver


@kernel("k2mm", {"S": dict(NI=800, NJ=850, NK=900, NL=950),
                 "tiny": dict(NI=3, NJ=4, NK=5, NL=6)},
        lambda s: (1.5, 1.2, *_arrays((s["NI"], s["NK"]), (s["NK"], s["NJ"]),
                                      (s["NJ"], s["NL"]), (s["NI"], s["NL"]))),
        lambda alpha, beta, A, B, C, D: alpha * A @ B @ C + beta * D)
def make_k2mm(lib):
    def k2mm(alpha, beta, A, B, C, D):
        return D.at[:].set(alpha * A @ B @ C + beta * D)
    return k2mm


@kernel("k3mm", {"S": dict(NI=800, NJ=850, NK=900, NL=950, NM=1000),
                 "tiny": dict(NI=3, NJ=4, NK=5, NL=6, NM=7)},
        lambda s: _arrays((s["NI"], s["NK"]), (s["NK"], s["NJ"]), (s["NJ"], s["NM"]),
                          (s["NM"], s["NL"])),
        lambda A, B, C, D: A @ B @ C @ D)
def make_k3mm(lib):
    def k3mm(A, B, C, D):
        return A @ B @ C @ D
    return k3mm


@kernel("gemm", {"S": dict(NI=1000, NJ=1100, NK=1200), "tiny": dict(NI=3, NJ=4, NK=5)},
        lambda s: (1.5, 1.2, *_arrays((s["NI"], s["NJ"]), (s["NI"], s["NK"]),
                                      (s["NK"], s["NJ"]))),
        lambda alpha, beta, C, A, B: alpha * A @ B + beta * C)
def make_gemm(lib):
    def gemm(alpha, beta, C, A, B):
        return C.at[:].set(alpha * A @ B + beta * C)
    return gemm


@kernel("bicg", {"S": dict(M=4000, N=5000), "tiny": dict(M=4, N=6)},
        lambda s: _arrays((s["N"], s["M"]), (s["M"],), (s["N"],)),
        lambda A, p, r: (r @ A, A @ p))
def make_bicg(lib):
    def bicg(A, p, r):
        return r @ A, A @ p
    return bicg


@kernel("atax", {"S": dict(M=4000, N=5000), "tiny": dict(M=4, N=6)},
        lambda s: _arrays((s["M"], s["N"]), (s["N"],)),
        lambda A, x: (A @ x) @ A)
def make_atax(lib):
    def atax(A, x):
        return (A @ x) @ A
    return atax


@kernel("mvt", {"S": dict(N=5500), "tiny": dict(N=6)},
        lambda s: _arrays(*[(s["N"],)] * 4, (s["N"], s["N"])),
        lambda x1, x2, y_1, y_2, A: (x1 + A @ y_1, x2 + y_2 @ A))
def make_mvt(lib):
    def mvt(x1, x2, y_1, y_2, A):
        x1 += A @ y_1
        x2 += y_2 @ A
        return x1, x2
    return mvt


@kernel("gesummv", {"S": dict(N=2000), "tiny": dict(N=6)},
        lambda s: (1.5, 1.2, *_arrays((s["N"], s["N"]), (s["N"], s["N"]), (s["N"],))),
        lambda alpha, beta, A, B, x: (alpha * A + beta * B) @ x)
def make_gesummv(lib):
    def gesummv(alpha, beta, A, B, x):
        return (alpha * A + beta * B) @ x
    return gesummv


def _syrk_reference(alpha, beta, C, A):
    lower = np.tril(np.ones_like(C, dtype=bool))
    return np.where(lower, beta * C + alpha * A @ A.T, C)


@kernel("syrk", {"S": dict(M=50, N=70), "tiny": dict(M=3, N=4)},
        lambda s: (1.5, 1.2, *_arrays((s["N"], s["N"]), (s["N"], s["M"]))),
        _syrk_reference)
def make_syrk(lib):
    # NPBench's JAX version: Python loops, unrolled while tracing (N * M slice updates).
    def syrk(alpha, beta, C, A):
        for i in range(A.shape[0]):
            C = C.at[i, :i + 1].set(C[i, :i + 1] * beta)
            for k in range(A.shape[1]):
                C = C.at[i, :i + 1].set(C[i, :i + 1] + alpha * A[i, k] * A[:i + 1, k])
        return C
    return syrk


def _syr2k_reference(alpha, beta, C, A, B):
    lower = np.tril(np.ones_like(C, dtype=bool))
    return np.where(lower, beta * C + alpha * (A @ B.T + B @ A.T), C)


@kernel("syr2k", {"S": dict(M=35, N=50), "tiny": dict(M=3, N=4)},
        lambda s: (1.5, 1.2, *_arrays((s["N"], s["N"]), (s["N"], s["M"]), (s["N"], s["M"]))),
        _syr2k_reference)
def make_syr2k(lib):
    jnp, lax = lib.np, lib.lax

    def syr2k(alpha, beta, C, A, B):
        def row(i, state):
            alpha, beta, C, A, B = state
            in_row = jnp.arange(C.shape[1]) < i + 1
            scaled = jnp.where(in_row, C[i, :] * beta, C[i, :])
            C = lax.dynamic_update_slice(C, scaled[None, :], (i, 0))

            def term(k, state):
                alpha, C, A, B = state
                a_part = jnp.where(jnp.arange(A.shape[0]) < i + 1, A[:, k], 0.0)
                a_part *= alpha * B[i, k]
                b_part = jnp.where(jnp.arange(B.shape[0]) < i + 1, B[:, k], 0.0)
                b_part *= alpha * A[i, k]
                updated = jnp.where(in_row, C[i, :] + a_part + b_part, C[i, :])
                C = lax.dynamic_update_slice(C, updated[None, :], (i, 0))
                return alpha, C, A, B

            _, C, _, _ = lax.fori_loop(0, A.shape[1], term, (alpha, C, A, B))
            return alpha, beta, C, A, B

        return lax.fori_loop(0, A.shape[0], row, (alpha, beta, C, A, B))[2]
    return syr2k


def _symm_reference(alpha, beta, C, A, B):
    # C = beta*C + alpha*Sym(A) @ B, A's lower triangle defining the symmetric matrix.
    sym = np.tril(A, -1) + np.tril(A, -1).T + np.diag(np.diag(A))
    return beta * C + alpha * sym @ B


@kernel("symm", {"S": dict(M=40, N=50), "tiny": dict(M=4, N=3)},
        lambda s: (1.5, 1.2, *_arrays((s["M"], s["N"]), (s["M"], s["M"]), (s["M"], s["N"]))),
        _symm_reference)
def make_symm(lib):
    jnp, lax = lib.np, lib.lax

    def symm(alpha, beta, C, A, B):
        temp2 = jnp.zeros((C.shape[1],), dtype=C.dtype)
        C *= beta

        def row(i, state):
            C, temp2 = state

            def column(j, state):
                C, temp2 = state
                a_row = jnp.where(jnp.arange(A.shape[1]) < i, A[i, :], 0.0)
                b_col = jnp.where(jnp.arange(B.shape[0]) < i, B[:, j], 0.0)
                C = lax.dynamic_update_slice(C, (C[:, j] + alpha * B[i, j] * a_row)[:, None],
                                             (0, j))
                return C, temp2.at[j].set(b_col @ a_row)

            C, temp2 = lax.fori_loop(0, C.shape[1], column, (C, temp2))
            return C.at[i, :].add(alpha * B[i, :] * A[i, i] + alpha * temp2), temp2

        return lax.fori_loop(0, C.shape[0], row, (C, temp2))[0]
    return symm


def _correlation_reference(M, float_n, data):
    stddev = data.std(axis=0)
    stddev = np.where(stddev <= 0.1, 1.0, stddev)
    normal = (data - data.mean(axis=0)) / (np.sqrt(float_n) * stddev)
    product, corr = normal.T @ normal, np.eye(M)
    # NPBench's JAX version writes a whole rolled row with dynamic_update_slice at column
    # i + 1, which JAX clamps to column 0: row i and column i both become the rolled row.
    for i in range(M - 1):
        shifted = np.roll(product[i], -(i + 1))
        corr[i, :] = shifted
        corr[:, i] = shifted
    return corr


@kernel("correlation", {"S": dict(M=500, N=600), "tiny": dict(M=5, N=8)},
        lambda s: (s["M"], float(s["N"]), *_arrays((s["N"], s["M"]))),
        _correlation_reference, static_argnums=(0,))
def make_correlation(lib):
    jnp, lax = lib.np, lib.lax

    def correlation(M, float_n, data):
        def copy_row(i, state):
            corr, product = state
            shifted = jnp.roll(product[i, None], -(i + 1), axis=1)
            corr = lax.dynamic_update_slice(corr, shifted, (i, i + 1))
            corr = lax.dynamic_update_slice(corr, shifted.T, (i + 1, i))
            return corr, product

        stddev = jnp.std(data, axis=0)
        stddev = jnp.where(stddev <= 0.1, 1.0, stddev)
        data = (data - jnp.mean(data, axis=0)) / (jnp.sqrt(float_n) * stddev)
        corr = jnp.eye(M, dtype=data.dtype)
        corr, _ = lax.fori_loop(0, M - 1, copy_row, (corr, jnp.dot(data.T, data)))
        return corr
    return correlation


# -- stencils and time loops ----------------------------------------------------------------

def _jacobi_1d_reference(TSTEPS, A, B):
    A, B = A.copy(), B.copy()
    for _ in range(1, TSTEPS):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
    return A, B


@kernel("jacobi_1d", {"S": dict(TSTEPS=800, N=3200), "tiny": dict(TSTEPS=4, N=9)},
        lambda s: (s["TSTEPS"], *_arrays((s["N"],), (s["N"],))), _jacobi_1d_reference)
def make_jacobi_1d(lib):
    def jacobi_1d(TSTEPS, A, B):          # TSTEPS is traced: a loop bound known at run time
        def step(t, state):
            A, B = state
            B = B.at[1:-1].set(0.33333 * (A[:-2] + A[1:-1] + A[2:]))
            A = A.at[1:-1].set(0.33333 * (B[:-2] + B[1:-1] + B[2:]))
            return A, B
        return lib.lax.fori_loop(1, TSTEPS, step, (A, B))
    return jacobi_1d


def _jacobi_2d_reference(TSTEPS, A, B):
    A, B = A.copy(), B.copy()
    for _ in range(1, TSTEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]
                               + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1]
                               + B[:-2, 1:-1])
    return A, B


@kernel("jacobi_2d", {"S": dict(TSTEPS=50, N=150), "tiny": dict(TSTEPS=3, N=6)},
        lambda s: (s["TSTEPS"], *_arrays((s["N"], s["N"]), (s["N"], s["N"]))),
        _jacobi_2d_reference, static_argnums=(0,))
def make_jacobi_2d(lib):
    def jacobi_2d(TSTEPS, A, B):
        def step(t, state):
            A, B = state
            B = B.at[1:-1, 1:-1].set(0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                                            + A[2:, 1:-1] + A[:-2, 1:-1]))
            A = A.at[1:-1, 1:-1].set(0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                                            + B[2:, 1:-1] + B[:-2, 1:-1]))
            return A, B
        return lib.lax.fori_loop(1, TSTEPS, step, (A, B))
    return jacobi_2d


def _heat(X):
    """The heat-3d update of X's interior (NumPy and traced arrays alike)."""
    c = X[1:-1, 1:-1, 1:-1]
    return (0.125 * (X[2:, 1:-1, 1:-1] - 2.0 * c + X[:-2, 1:-1, 1:-1])
            + 0.125 * (X[1:-1, 2:, 1:-1] - 2.0 * c + X[1:-1, :-2, 1:-1])
            + 0.125 * (X[1:-1, 1:-1, 2:] - 2.0 * c + X[1:-1, 1:-1, :-2]) + c)


def _heat_3d_reference(TSTEPS, A, B):
    A, B = A.copy(), B.copy()
    for _ in range(1, TSTEPS):
        B[1:-1, 1:-1, 1:-1] = _heat(A)
        A[1:-1, 1:-1, 1:-1] = _heat(B)
    return A, B


@kernel("heat_3d", {"S": dict(TSTEPS=25, N=25), "tiny": dict(TSTEPS=3, N=5)},
        lambda s: (s["TSTEPS"], *_arrays((s["N"],) * 3, (s["N"],) * 3)), _heat_3d_reference)
def make_heat_3d(lib):
    def heat_3d(TSTEPS, A, B):
        def step(t, state):
            A, B = state
            B = B.at[1:-1, 1:-1, 1:-1].set(_heat(A))
            A = A.at[1:-1, 1:-1, 1:-1].set(_heat(B))
            return A, B
        return lib.lax.fori_loop(1, TSTEPS, step, (A, B))
    return heat_3d


def _fdtd_2d_reference(TMAX, ex, ey, hz, fict):
    ex, ey, hz = ex.copy(), ey.copy(), hz.copy()
    for t in range(TMAX):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    return ex, ey, hz, fict


@kernel("fdtd_2d", {"S": dict(TMAX=20, NX=200, NY=220), "tiny": dict(TMAX=3, NX=4, NY=5)},
        lambda s: (s["TMAX"], *_arrays((s["NX"], s["NY"]), (s["NX"], s["NY"]),
                                       (s["NX"], s["NY"]), (s["TMAX"],))),
        _fdtd_2d_reference)
def make_fdtd_2d(lib):
    def fdtd_2d(TMAX, ex, ey, hz, fict):
        def step(t, state):
            ex, ey, hz = state
            ey = ey.at[0, :].set(fict[t])
            ey = ey.at[1:, :].set(ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :]))
            ex = ex.at[:, 1:].set(ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1]))
            hz = hz.at[:-1, :-1].set(hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1]
                                                          + ey[1:, :-1] - ey[:-1, :-1]))
            return ex, ey, hz
        ex, ey, hz = lib.lax.fori_loop(0, TMAX, step, (ex, ey, hz))
        return ex, ey, hz, fict
    return fdtd_2d


# -- elementwise and reductions -------------------------------------------------------------

def _softmax_reference(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@kernel("softmax", {"S": dict(N=16, H=16, SM=128), "tiny": dict(N=2, H=3, SM=5)},
        lambda s: (_rng().random((s["N"], s["H"], s["SM"], s["SM"]), dtype=np.float32),),
        _softmax_reference, rtol=1e-5)
def make_softmax(lib):
    def softmax(x):
        largest = lib.np.max(x, axis=-1, keepdims=True)
        e = lib.np.exp(x - largest)
        return e / lib.np.sum(e, axis=-1, keepdims=True)
    return softmax


@kernel("go_fast", {"S": dict(N=2000), "tiny": dict(N=5)},
        lambda s: _arrays((s["N"], s["N"])),
        lambda a: a + np.sum(np.tanh(np.diag(a))))
def make_go_fast(lib):
    def go_fast(a):
        return a + lib.np.sum(lib.np.tanh(lib.np.diag(a)))
    return go_fast


def _arc(xp, theta_1, phi_1, theta_2, phi_2):
    temp = (xp.sin((theta_2 - theta_1) / 2) ** 2
            + xp.cos(theta_1) * xp.cos(theta_2) * xp.sin((phi_2 - phi_1) / 2) ** 2)
    return 2 * xp.arctan2(xp.sqrt(temp), xp.sqrt(1 - temp))


@kernel("arc_distance", {"S": dict(N=100000), "tiny": dict(N=7)},
        lambda s: _arrays(*[(s["N"],)] * 4),
        lambda *args: _arc(np, *args))
def make_arc_distance(lib):
    def arc_distance(theta_1, phi_1, theta_2, phi_2):
        return _arc(lib.np, theta_1, phi_1, theta_2, phi_2)
    return arc_distance


# -- small simulations ----------------------------------------------------------------------

def _nbody_init(s):
    rng = _rng()
    N = s["N"]
    mass = 20.0 * np.ones((N, 1)) / N
    pos, vel = rng.random((N, 3)), rng.random((N, 3))
    Nt = int(math.ceil(s["tEnd"] / s["dt"]))
    return mass, pos, vel, N, Nt, s["dt"], 1.0, 0.1


def _acceleration(xp, pos, mass, G, softening):
    x, y, z = pos[:, 0:1], pos[:, 1:2], pos[:, 2:3]
    dx, dy, dz = x.T - x, y.T - y, z.T - z
    inv_r3 = dx ** 2 + dy ** 2 + dz ** 2 + softening ** 2
    inv_r3 = xp.where(inv_r3 > 0, inv_r3 ** (-1.5), inv_r3)
    return xp.hstack((G * (dx * inv_r3) @ mass, G * (dy * inv_r3) @ mass,
                      G * (dz * inv_r3) @ mass))


def _energy(xp, pos, vel, mass, G):
    kinetic = 0.5 * xp.sum(mass * vel ** 2)
    x, y, z = pos[:, 0:1], pos[:, 1:2], pos[:, 2:3]
    dx, dy, dz = x.T - x, y.T - y, z.T - z
    inv_r = xp.sqrt(dx ** 2 + dy ** 2 + dz ** 2)
    with np.errstate(divide="ignore"):    # the diagonal's zeros: inf, then discarded
        inv_r = xp.where(inv_r > 0, 1.0 / inv_r, inv_r)
    potential = G * xp.sum(xp.triu(-(mass * mass.T) * inv_r, 1))
    return kinetic, potential


def _nbody_reference(mass, pos, vel, N, Nt, dt, G, softening):
    pos, vel = pos.copy(), vel - np.mean(mass * vel, axis=0) / np.mean(mass)
    acc = _acceleration(np, pos, mass, G, softening)
    KE, PE = np.zeros(Nt + 1), np.zeros(Nt + 1)
    KE[0], PE[0] = _energy(np, pos, vel, mass, G)
    for i in range(Nt):
        vel = vel + acc * dt / 2.0
        pos = pos + vel * dt
        acc = _acceleration(np, pos, mass, G, softening)
        vel = vel + acc * dt / 2.0
        KE[i + 1], PE[i + 1] = _energy(np, pos, vel, mass, G)
    return KE, PE


@kernel("nbody", {"S": dict(N=25, tEnd=2.0, dt=0.05), "tiny": dict(N=4, tEnd=0.2, dt=0.05)},
        _nbody_init, _nbody_reference, static_argnums=(4,))
def make_nbody(lib):
    jnp = lib.np
    # NPBench's version jits its two helpers too: a jitted function called while tracing.
    get_acc = lib.jit(lambda pos, mass, G, softening:
                      _acceleration(jnp, pos, mass, G, softening))
    get_energy = lib.jit(lambda pos, vel, mass, G: _energy(jnp, pos, vel, mass, G))

    def nbody(mass, pos, vel, N, Nt, dt, G, softening):
        vel -= jnp.mean(mass * vel, axis=0) / jnp.mean(mass)
        acc = get_acc(pos, mass, G, softening)
        ke, pe = get_energy(pos, vel, mass, G)
        KE = jnp.zeros(Nt + 1, dtype=jnp.float64).at[0].set(ke)
        PE = jnp.zeros(Nt + 1, dtype=jnp.float64).at[0].set(pe)

        def step(i, state):
            pos, vel, acc, KE, PE, t = state
            vel += acc * dt / 2.0
            pos += vel * dt
            acc = get_acc(pos, mass, G, softening)
            vel += acc * dt / 2.0
            ke, pe = get_energy(pos, vel, mass, G)
            return pos, vel, acc, KE.at[i + 1].set(ke), PE.at[i + 1].set(pe), t + dt

        state = lib.lax.fori_loop(0, Nt, step, (pos, vel, acc, KE, PE, 0.0))
        return state[3], state[4]
    return nbody


def _crc16_reference(data, poly=0x8408):
    crc = 0xFFFF
    for byte in data.tolist():
        for _ in range(8):
            crc = (crc >> 1) ^ poly if (crc ^ byte) & 1 else crc >> 1
            byte >>= 1
    crc = ~crc & 0xFFFF
    return ((crc << 8) | ((crc >> 8) & 0xFF)) & 0xFFFF


@kernel("crc16", {"S": dict(N=1600), "tiny": dict(N=6)},
        lambda s: (_rng().integers(0, 256, size=(s["N"],), dtype=np.uint8),),
        _crc16_reference)
def make_crc16(lib):
    jnp, lax = lib.np, lib.lax

    def crc16(data, poly=0x8408):
        def per_byte(crc, byte):
            def per_bit(carry, _):
                crc, current = carry
                flip = ((crc & 1) ^ (current & 1)) == 1   # JAX's select wants a bool
                crc = lax.select(flip, (crc >> 1) ^ poly, crc >> 1)
                return (crc, current >> 1), None
            (crc, _), _ = lax.scan(per_bit, (crc, 0xFF & byte), jnp.arange(8))
            return crc, None

        crc, _ = lax.scan(per_byte, 0xFFFF, data)
        crc = ~crc & 0xFFFF
        return ((crc << 8) | ((crc >> 8) & 0xFF)) & 0xFFFF
    return crc16


def by_name() -> dict[str, Kernel]:
    return {k.name: k for k in KERNELS}


def library(np_module, lax_module, jit) -> SimpleNamespace:
    return SimpleNamespace(np=np_module, lax=lax_module, jit=jit)
